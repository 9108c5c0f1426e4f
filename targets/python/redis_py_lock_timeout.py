"""redis-py 4.3.4's Lock with a timeout (V311 PASS, V310 PASS): SET NX PX, so a killed holder's
lock lapses; its release is the library's Lua compare-and-delete (it deletes the key only while it
still holds this holder's token)."""
import redis
from redis.exceptions import LockNotOwnedError

name = "redis-py Lock, timeout=ttl"
description = "redis-py 4.3.4 Lock(name, timeout=ttl): SET NX PX, Lua compare-and-delete release"


def connect(env):
    global client
    client = redis.Redis.from_url(env.url)


def acquire(env):
    lock = client.lock(env.key, timeout=env.ttl_ms / 1000, blocking=False, thread_local=False)
    if not lock.acquire():
        return None
    return {"token": lock.local.token.decode(), "lock": lock}


def release(env, lease):
    try:
        lease["lock"].release()
        return True
    except LockNotOwnedError:
        return False  # the library's own answer: the key no longer holds this holder's token


def extend(env, lease, ttl_ms):
    try:
        return lease["lock"].extend(ttl_ms / 1000, replace_ttl=True)
    except LockNotOwnedError:
        return False


def close(env):
    client.close()
