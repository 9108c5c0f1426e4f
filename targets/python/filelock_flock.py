"""GOOD for V311 on --store fs: filelock 3.9's FileLock, which on Linux is flock(2) on an open lock
file. A killed holder's open file descriptions close with it and the kernel drops their flock; the
lock file itself stays (filelock never removes it), so the lock is free while the file is there.
The storeKey declares it a flock: the harness reads /proc/locks, not the file's existence."""
import filelock

name = "filelock FileLock (flock)"
description = "filelock 3.9 FileLock(<key>.lock): flock(LOCK_EX|LOCK_NB) on the lock file, LOCK_UN and close on release"


def store_key(env):
    return {"path": env.key + ".lock", "flock": True}


def acquire(env):
    lock = filelock.FileLock(f"{env.dir}/{env.key}.lock")
    try:
        lock.acquire(blocking=False)
    except filelock.Timeout:
        return None
    return {"lock": lock}


def release(env, lease):
    lease["lock"].release()
