"""BAD for V313 on --store zookeeper: a job under kazoo 2.8's Lock recipe, unfenced. kazoo's Lock
never reacts to its session going SUSPENDED or LOST (it has no listener that stops the work), so a
holder paused past its session writes on after the next holder took the lock (the kazoo form of
Curator's Tech Note 10)."""
import time

from kazoo.client import KazooClient
from kazoo.exceptions import KazooException

name = "kazoo Lock job, unfenced"
description = "kazoo 2.8 Lock(/locks/<key>) around a job, session timeout = ttl, writes unfenced"


def connect(env):
    global client
    host = env.url.split("://", 1)[-1].rstrip("/")
    client = KazooClient(hosts=host, timeout=env.ttl_ms / 1000)
    client.start(timeout=10)


def store_key(env):
    return f"/locks/{env.key}"


def job(env):
    lock = client.Lock(f"/locks/{env.key}", env.holder)
    if not lock.acquire(blocking=False):
        env.log("the lock is held elsewhere; skipping the job")
        return
    steps, step_ms = int(env.params.get("steps", 3)), int(env.params.get("stepMs", 20))
    for i in range(steps):
        env.effect("write", value=i)
        time.sleep(step_ms / 1000)
    try:
        lock.release()
    except KazooException as error:
        env.log(f"release failed: {error!r}")


def close(env):
    client.stop()
    client.close()
