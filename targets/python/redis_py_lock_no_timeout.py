"""redis-py 4.3.4's Lock with its default timeout=None (V311 FAIL): the key is set with no expiry,
so a holder killed while holding it leaves a lock nobody can ever take again."""
import redis

name = "redis-py Lock, default timeout=None"
description = "redis-py 4.3.4 Lock(name) with no timeout: SET NX without PX"


def connect(env):
    global client
    client = redis.Redis.from_url(env.url)


def acquire(env):
    # thread_local=False: each harness request runs on its own thread (docs/holder-protocol.md).
    lock = client.lock(env.key, blocking=False, thread_local=False)
    if not lock.acquire():
        return None
    return {"token": lock.local.token.decode(), "lock": lock}


def release(env, lease):
    lease["lock"].release()


def close(env):
    client.close()
