"""The target `npm run oracle -- conformance --target sdk/python/conformance_target.py` checks the
Python shim with: members that need no store (the suite checks the protocol, not a lock)."""

name = "conformance (Python shim)"


def connect(env):
    print("connected: the holder's stdout is its log, never the protocol")


def acquire(env):
    return {"token": "conformance-" + env.holder, "fence": 1}


def release(env, lease):
    return True


def close(env):
    pass
