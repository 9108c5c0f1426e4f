"""GOOD for V313 on --store zookeeper: a job under kazoo 2.8's Lock recipe, each write fenced by the
lock node's czxid (the zxid that created this holder's queue node, which grows with every node
created). A holder paused past its session is refused once the next holder, whose node is newer,
wrote. Twin of kazoo_lock_job.py."""
import time

from kazoo.client import KazooClient
from kazoo.exceptions import KazooException

name = "kazoo Lock job, fenced by czxid"
description = "kazoo 2.8 Lock(/locks/<key>) around a job, session timeout = ttl, each write fenced by the lock node's czxid"


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
    fence = client.exists(f"{lock.path}/{lock.node}").czxid
    steps, step_ms = int(env.params.get("steps", 3)), int(env.params.get("stepMs", 20))
    for i in range(steps):
        receipt = env.effect("write", fence=fence, value=i)
        if not receipt.accepted:
            env.log(f"write {i} rejected: {receipt.reason}")
            return
        time.sleep(step_ms / 1000)
    try:
        lock.release()
    except KazooException as error:
        env.log(f"release failed: {error!r}")


def close(env):
    client.stop()
    client.close()
