"""lock-oracles' Python holder: runs a project's lock helper (a target) for the harness.

The harness starts one real python process per holder (``python3 lock_oracles.py lock_target.py``),
SIGSTOPs and SIGKILLs it, and talks to it over the holder protocol (docs/holder-protocol.md):
requests in on fd 3, messages out on fd 4, one JSON object per line. The target's own stdout and
stderr stay its own (the harness keeps them as the holder's log). Standard library only, Python 3.9+.

A target is a module with plain functions named after the contract's members (targets/contract.ts),
in Python spelling::

    import redis

    def connect(env):          # build your clients from env.url
        global client
        client = redis.Redis.from_url(env.url)

    def acquire(env):          # try once: a lease (a dict) when taken, None when denied
        lock = client.lock(env.key, timeout=env.ttl_ms / 1000)
        return {"token": lock.local.token.decode(), "lock": lock} if lock.acquire(blocking=False) else None

    def release(env, lease):
        lease["lock"].release()

Members: connect, store_key, acquire, release, extend, query, job, leader, timeout, write, read,
stamp, decide, schedule, node, inspect, close; attributes name, description, fence_store. A module
attribute ``target`` (any object with those members) is used instead of the module when present.
``env`` carries url, dir, key, ttl_ms, params, holder, … (HolderInit in snake_case), ``stopping``
(a threading.Event set when the harness asks job/leader/schedule to stop), and effect, seam, log.
"""

import json
import os
import platform
import sys
import threading
import time
import traceback

PROTOCOL = 1
SDK = "lock_oracles.py 1"
REQUESTS_FD, MESSAGES_FD = 3, 4

# Protocol member name -> Python name (the rest are spelled the same).
PYTHON_NAMES = {"storeKey": "store_key"}
MEMBERS = [
    "connect", "storeKey", "acquire", "release", "extend", "query", "job", "leader", "timeout",
    "write", "read", "stamp", "decide", "schedule", "node", "inspect", "close",
]


class EffectIndefinite(Exception):
    """The harness could not say whether this effect reached the resource: it may have happened."""


class HolderError(Exception):
    """A request this shim refuses, with the protocol's stable code (no-member, bad-return, ...)."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


class EffectReceipt:
    """The resource's definite answer: accepted (it happened, in order ``seq``) or rejected (it did not)."""

    definite = True

    def __init__(self, accepted, seq, reason=None):
        self.accepted, self.seq, self.reason = accepted, seq, reason

    def __repr__(self):
        return f"EffectReceipt(accepted={self.accepted}, seq={self.seq}, reason={self.reason!r})"


class _Pending:
    """A call from this holder (effect, seam) waiting for the harness's reply: the calling thread blocks here."""

    def __init__(self):
        self.done = threading.Event()
        self.reply = None


class Holder:
    def __init__(self, target, holder_id):
        self.target = target
        self.holder_id = holder_id
        self.env = None
        self.leases = {}
        self.schedules = []
        self.pending = {}
        self.next_id = 1
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.shutting_down = None

    # --- the pipes -------------------------------------------------------------------------
    def send(self, message):
        data = (json.dumps(message, default=str) + "\n").encode()
        with self.lock:  # one message, one whole line: never two interleaved
            while data:
                data = data[os.write(MESSAGES_FD, data):]

    def ask(self, message):
        """Sends an effect or seam call and blocks until its reply (a latch holds it there)."""
        with self.lock:
            call_id = self.next_id
            self.next_id += 1
            pending = self.pending[call_id] = _Pending()
        self.send(dict(message, id=call_id))
        pending.done.wait()
        return pending.reply

    def answer(self, call_id, reply):
        pending = self.pending.pop(call_id, None)
        if pending is not None:
            pending.reply = reply
            pending.done.set()

    # --- requests --------------------------------------------------------------------------
    def member(self, name):
        fn = getattr(self.target, PYTHON_NAMES.get(name, name), None)
        if not callable(fn):
            raise HolderError("no-member", f'the target has no "{PYTHON_NAMES.get(name, name)}" member')
        return fn

    def reply(self, request_id, run):
        """Runs one request on its own thread (a job still runs when abort or shutdown comes)."""

        def body():
            began = time.monotonic() * 1000
            try:
                value = _settle(run())
                self.send({"t": "result", "id": request_id, "ok": True, "value": value,
                           "began": began, "ended": time.monotonic() * 1000})
            except BaseException as error:  # the member's own error, whatever its class
                code = error.code if isinstance(error, HolderError) else "threw"
                text = "".join(traceback.format_exception(type(error), error, error.__traceback__))
                self.send({"t": "result", "id": request_id, "ok": False, "code": code, "error": text,
                           "began": began, "ended": time.monotonic() * 1000})

        threading.Thread(target=body, daemon=True).start()

    def init(self, init):
        self.env = Env(self, init)
        connect = getattr(self.target, "connect", None)
        if callable(connect):
            _settle(connect(self.env))
        store_key = getattr(self.target, "store_key", None)
        return {"storeKey": _settle(store_key(self.env))} if callable(store_key) else {}

    def call(self, member, lease_id, args):
        if self.env is None:
            raise HolderError("not-ready", "holder called before init")
        fn = self.member(member)
        if member == "acquire":
            return self.acquire(fn)
        if member == "decide":
            return self.decide(fn, args[0], args[1] if len(args) > 1 else "")
        if lease_id is not None:
            if lease_id not in self.leases:
                raise HolderError("unknown-lease", f"unknown lease {lease_id}")
            return _settle(fn(self.env, self.leases[lease_id], *args))
        value = _settle(fn(self.env, *args))
        if member == "schedule":
            if value is not None and callable(getattr(value, "stop", None)):
                self.schedules.append(value)
            return None
        return value

    def acquire(self, fn):
        lease = _settle(fn(self.env))
        if lease is None or lease is False:
            return None
        if isinstance(lease, (str, int, float, bool, list, tuple)):
            raise HolderError("bad-return", f"acquire() returned {lease!r}: return a lease (a dict such as "
                              "{'token': ...}) when the lock was taken, or None when it was denied")
        with self.lock:
            lease_id = self.next_id
            self.next_id += 1
        self.leases[lease_id] = lease
        summary = {"leaseId": lease_id}
        token, fence = _field(lease, "token"), _field(lease, "fence")
        if isinstance(token, bytes):
            token = token.decode()
        if isinstance(token, str):
            summary["token"] = token
        if isinstance(fence, int) and not isinstance(fence, bool):
            summary["fence"] = fence
        return summary

    def decide(self, fn, value, existing_json):
        existing = None if existing_json == "" else json.loads(existing_json)
        stamp = getattr(self.target, "stamp", None)
        incoming = _settle(stamp(self.env, value, existing)) if callable(stamp) else {
            "value": value, "updatedAt": int(time.time() * 1000)}
        replaces = _settle(fn(incoming, existing))
        if not isinstance(replaces, bool):
            raise HolderError("bad-return", f"decide() returned {replaces!r}: return True when incoming "
                              "replaces existing, False when not")
        return {"replaces": replaces, "incoming": json.dumps(incoming)}

    def close(self):
        for handle in self.schedules:
            _settle(handle.stop())
        if self.shutting_down is not None:
            self.shutting_down.wait()
        elif self.env is not None and callable(getattr(self.target, "close", None)):
            _settle(self.target.close(self.env))

    def shutdown(self):
        self.shutting_down = threading.Event()
        try:
            if self.env is not None and callable(getattr(self.target, "close", None)):
                _settle(self.target.close(self.env))
        finally:
            self.shutting_down.set()

    def selftest(self, probe):
        """The conformance suite's probes: this shim's own env, used exactly as a target would."""
        if self.env is None:
            raise HolderError("not-ready", "selftest before init")
        op = probe["op"]
        if op == "effect":
            detail = probe.get("detail") or {}
            try:
                receipt = self.env.effect(probe["name"], **detail)
            except EffectIndefinite:
                return {"raised": "indefinite"}
            out = {"accepted": receipt.accepted, "seq": receipt.seq}
            if receipt.reason is not None:
                out["reason"] = receipt.reason
            return out
        if op == "seam":
            return self.env.seam(probe["name"])
        if op == "log":
            return self.env.log(probe["message"])
        if op == "raise":
            raise RuntimeError(probe["message"])
        raise HolderError("unsupported", f"selftest {op!r} is not known to {SDK}")

    def handle(self, message):
        kind, request_id = message.get("t"), message.get("id")
        if kind == "init":
            self.reply(request_id, lambda: self.init(message["init"]))
        elif kind == "call":
            self.reply(request_id, lambda: self.call(message["member"], message.get("leaseId"), message["args"]))
        elif kind in ("effect-reply", "seam-reply"):
            self.answer(request_id, message)
        elif kind == "abort":
            self.stopping.set()
        elif kind == "shutdown":
            self.reply(request_id, self.shutdown)
        elif kind == "close":
            try:
                self.close()
            finally:
                self.send({"t": "result", "id": request_id, "ok": True, "value": None})
                os._exit(0)
        elif kind == "selftest":
            self.reply(request_id, lambda: self.selftest(message))
        elif kind == "fs-gate":
            pass  # Node's fs preload only: never sent to a Python holder
        elif request_id is not None:
            self.send({"t": "result", "id": request_id, "ok": False, "code": "unsupported",
                       "error": f"{SDK} does not implement {kind!r} (Node holders only)"})
        else:
            self.send({"t": "log", "code": "bad-message", "message": f"bad-message: unknown message type {kind!r}"})

    def serve(self):
        """Reads fd 3 to its end; a torn last line is dropped; at the end, pending effects are indefinite."""
        buffered = b""
        while True:
            chunk = os.read(REQUESTS_FD, 65536)
            if not chunk:
                break
            *lines, buffered = (buffered + chunk).split(b"\n")
            for line in lines:
                if not line.strip():
                    continue
                try:
                    message = json.loads(line)
                except ValueError:
                    self.send({"t": "log", "code": "bad-message", "message": f"bad-message: not JSON: {line[:200]!r}"})
                    continue
                self.handle(message)
        for call_id in list(self.pending):
            self.answer(call_id, {"outcome": "indefinite", "reason": "the harness closed the holder's pipe"})
        os._exit(0)


class Env:
    """What every member gets: the scratch store, the lock's key and TTL, and the calls to the harness."""

    def __init__(self, holder, init):
        self._holder = holder
        self.url = init["url"]
        self.key = init["key"]
        self.ttl_ms = init["ttlMs"]
        self.params = dict(init.get("params") or {})
        self.holder = holder.holder_id
        self.stopping = holder.stopping
        for name, python in [("dir", "dir"), ("urls", "urls"), ("sentinels", "sentinels"),
                             ("masterName", "master_name"), ("counterUrl", "counter_url"),
                             ("fenceUrl", "fence_url"), ("node", "node"), ("listen", "listen"),
                             ("peers", "peers")]:
            setattr(self, python, init.get(name))

    def effect(self, name, fence=None, value=None):
        """Reports one protected side effect; blocks until the resource's receipt (a latch may hold it).

        Returns an EffectReceipt (``accepted`` False: a stale fence, it did not happen); raises
        EffectIndefinite when nobody can say whether it happened.
        """
        detail = {}
        if fence is not None:
            detail["fence"] = fence
        if value is not None:
            detail["value"] = value
        reply = self._holder.ask({"t": "effect", "name": name, "detail": detail, "at": time.monotonic() * 1000})
        if reply.get("outcome") != "definite":
            raise EffectIndefinite(reply.get("reason", "the effect's outcome is unknown"))
        receipt = reply["receipt"]
        return EffectReceipt(receipt["accepted"], receipt["seq"], receipt.get("reason"))

    def seam(self, name):
        """A named point where the harness may hold this holder; returns at once when it does not."""
        self._holder.ask({"t": "seam", "name": name})

    def log(self, message):
        """A line in the run's history, attributed to this holder."""
        self._holder.send({"t": "log", "message": str(message)})


def _field(lease, name):
    return lease.get(name) if isinstance(lease, dict) else getattr(lease, name, None)


def _settle(value):
    """A member may be a coroutine function: its coroutine runs to its end here, on this thread."""
    if hasattr(value, "__await__"):
        import asyncio

        async def wait():
            return await value

        return asyncio.run(wait())
    return value


def _load(path):
    import importlib.util

    directory = os.path.dirname(os.path.abspath(path))
    if directory not in sys.path:
        sys.path.insert(0, directory)
    name = "".join(c if c.isalnum() or c == "_" else "_" for c in os.path.splitext(os.path.basename(path))[0])
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"{path} is not a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _target_traceback(error):
    """The error as Python shows it, without this shim's own frames: the target's file and line first."""
    frames = [f for f in traceback.extract_tb(error.__traceback__) if os.path.abspath(f.filename) != os.path.abspath(__file__)
              and "importlib" not in f.filename]
    shown = "".join(traceback.format_list(frames)) if frames else ""
    return ("Traceback (most recent call last):\n" + shown if shown else "") + "".join(
        traceback.format_exception_only(type(error), error))


def main():
    if sys.version_info < (3, 9):
        Holder(None, "?").send({"t": "load-error", "code": "load", "message": (
            f"Python {platform.python_version()} is too old for {SDK}: it needs 3.9 or later (--python <path>)")})
        sys.exit(1)
    # A target's `from lock_oracles import EffectIndefinite` must name this very module's classes.
    sys.modules.setdefault("lock_oracles", sys.modules[__name__])
    target_path = sys.argv[1]
    holder_id = os.environ.get("LOCK_ORACLES_HOLDER", "A")
    shown = os.environ.get("LOCK_ORACLES_TARGET", target_path)
    sender = Holder(None, holder_id)
    try:
        module = _load(target_path)
    except BaseException as error:
        load_error = {"t": "load-error", "code": "load", "message": _target_traceback(error)}
        if isinstance(error, ModuleNotFoundError) and error.name:
            load_error["missing"] = error.name
        sender.send(load_error)
        sys.exit(1)
    target = getattr(module, "target", module)
    holder = Holder(target, holder_id)
    members = [m for m in MEMBERS if callable(getattr(target, PYTHON_NAMES.get(m, m), None))]
    if not [m for m in members if m not in ("connect", "storeKey", "close")]:
        holder.send({"t": "load-error", "code": "no-target",
                     "message": f"{shown} defines none of the members a target needs (acquire, release, job, ...)"})
        sys.exit(1)
    ready = {"t": "ready", "protocol": PROTOCOL, "language": "python", "runtime": platform.python_version(),
             "sdk": SDK, "pid": os.getpid(), "members": members}
    for attribute, field in [("name", "name"), ("description", "description"), ("fence_store", "fenceStore")]:
        if isinstance(getattr(target, attribute, None), str):
            ready[field] = getattr(target, attribute)
    holder.send(ready)
    holder.serve()


if __name__ == "__main__":
    main()
