"""redis-py 4.3.4 job under Lock(timeout=ttl) with no extend (V313 FAIL): a holder paused past its
lease keeps writing after the next holder took over, and its writes carry no fence."""
import time

import redis

name = "redis-py job, no renewal"
description = "redis-py 4.3.4 Lock(timeout=ttl) around a job with no extend and no fencing token"


def connect(env):
    global client
    client = redis.Redis.from_url(env.url)


def job(env):
    lock = client.lock(env.key, timeout=env.ttl_ms / 1000, blocking=False, thread_local=False)
    if not lock.acquire():
        env.log("the lock is held elsewhere; skipping the job")
        return
    steps, step_ms = int(env.params.get("steps", 3)), int(env.params.get("stepMs", 20))
    for i in range(steps):
        env.effect("write", value=i)
        time.sleep(step_ms / 1000)
    try:
        lock.release()
    except redis.exceptions.LockNotOwnedError:
        env.log("the lease had lapsed before the release")


def close(env):
    client.close()
