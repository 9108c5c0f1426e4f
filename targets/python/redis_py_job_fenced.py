"""redis-py 4.3.4 job under Lock(timeout=ttl), every write fenced (V313 PASS): no renewal, but each
write carries a token from INCR, so the resource rejects a lapsed holder's writes."""
import time

import redis

name = "redis-py job, fenced"
description = "redis-py 4.3.4 Lock(timeout=ttl) around a job, fencing token from INCR passed with every write"


def connect(env):
    global client
    client = redis.Redis.from_url(env.url)


def job(env):
    lock = client.lock(env.key, timeout=env.ttl_ms / 1000, blocking=False, thread_local=False)
    if not lock.acquire():
        env.log("the lock is held elsewhere; skipping the job")
        return
    fence = client.incr(env.key + ":fence")
    steps, step_ms = int(env.params.get("steps", 3)), int(env.params.get("stepMs", 20))
    for i in range(steps):
        receipt = env.effect("write", fence=fence, value=i)
        if not receipt.accepted:
            env.log(f"write {i} rejected: {receipt.reason}")
            return
        time.sleep(step_ms / 1000)
    try:
        lock.release()
    except redis.exceptions.LockNotOwnedError:
        env.log("the lease had lapsed before the release")


def close(env):
    client.close()
