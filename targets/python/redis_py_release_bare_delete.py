"""redis-py 4.3.4's Lock taken with a timeout but released with a bare DELETE of its key (V310
FAIL): a helper that "cleans up" with client.delete(name) removes whichever holder's lock is there."""
import redis

name = "redis-py Lock, bare delete release"
description = "redis-py 4.3.4 Lock(name, timeout=ttl) released with client.delete(name)"


def connect(env):
    global client
    client = redis.Redis.from_url(env.url)


def acquire(env):
    lock = client.lock(env.key, timeout=env.ttl_ms / 1000, blocking=False, thread_local=False)
    if not lock.acquire():
        return None
    return {"token": lock.local.token.decode(), "lock": lock}


def release(env, lease):
    client.delete(env.key)


def close(env):
    client.close()
