"""BAD for V311 on --store fs: a hand-written lock file, created with os.open(O_CREAT | O_EXCL) and
removed on release, with no staleness rule. A killed holder never removes it, so nobody takes the
lock again."""
import os
import uuid

name = "O_EXCL lock file, no staleness"
description = "os.open(<key>.lock, O_CREAT|O_EXCL|O_WRONLY) holding the owner's token; release checks the token and unlinks; no staleness rule"


def store_key(env):
    return env.key + ".lock"


def _path(env):
    return os.path.join(env.dir, env.key + ".lock")


def acquire(env):
    try:
        fd = os.open(_path(env), os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
    except FileExistsError:
        return None
    token = f"{env.holder}-{uuid.uuid4()}"
    with os.fdopen(fd, "w") as file:
        file.write(token)
    return {"token": token}


def release(env, lease):
    try:
        with open(_path(env)) as file:
            if file.read() != lease["token"]:
                return False
    except FileNotFoundError:
        return False
    os.unlink(_path(env))
    return True
