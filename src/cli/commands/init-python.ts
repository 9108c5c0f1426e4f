/**
 * `lock-oracles init --lang python --client redis-py`: writes a Python target (sdk/python,
 * docs/holder-protocol.md) binding redis-py's `Lock` the way a project uses it, with the library's
 * own default `timeout=None` until you set TIMEOUT to what your code passes: V311 then shows what
 * that default does to a holder killed while it holds the lock.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from '../../core/errors.ts';
import { COMMAND } from '../../core/invocation.ts';
import { EXIT } from '../exit-codes.ts';
import type { Values } from '../options/values.ts';

export const PYTHON_CLIENTS = ['redis-py'] as const;

/** Where a Python target goes when --out was left at its (TypeScript) default. */
const DEFAULT_OUT = 'lock_target.py';

export function initPython(values: Values<'init'>): number {
  if (!(PYTHON_CLIENTS as readonly string[]).includes(values.client ?? '')) {
    throw new UsageError(
      `init --lang python needs --client ${PYTHON_CLIENTS.join(' | ')}${values.client ? ` (got ${values.client}: a Node client)` : ''}`,
    );
  }
  const out = values.out === 'lock.target.ts' ? DEFAULT_OUT : values.out;
  const path = resolve(process.env.INIT_CWD ?? process.cwd(), out);
  if (existsSync(path) && !values.force)
    throw new UsageError(`${out} exists; pass --force to overwrite it or --out <another file>`);
  writeFileSync(path, REDIS_PY_TARGET);
  process.stdout.write(
    `wrote ${out}: redis-py's Lock, serving V310 and V311 (lock). Set TIMEOUT to what your code passes.\n` +
      `It needs redis-py for the interpreter its holders run (Debian: sudo apt-get install python3-redis; or --python <venv>/bin/python).\n` +
      `Try: ${COMMAND} V311 --target ${out}\n`,
  );
  return EXIT.PASS;
}

const REDIS_PY_TARGET = `"""A lock-oracles target binding redis-py's Lock (written by \`lock-oracles init --lang python --client redis-py\`).

Each holder is its own python process running this module (sdk/python/lock_oracles.py in lock-oracles);
docs/holder-protocol.md says what env carries and how members are called.
"""
import redis
from redis.exceptions import LockNotOwnedError

# What your code passes as Lock(timeout=...), in seconds. None is redis-py's default: the key never expires.
TIMEOUT = None

name = "redis-py Lock"


def connect(env):
    global client
    client = redis.Redis.from_url(env.url)


def acquire(env):
    # Try once. thread_local=False: the harness calls each member on its own thread.
    lock = client.lock(env.key, timeout=TIMEOUT, blocking=False, thread_local=False)
    if not lock.acquire():
        return None
    return {"token": lock.local.token.decode(), "lock": lock}


def release(env, lease):
    try:
        lease["lock"].release()
        return True
    except LockNotOwnedError:
        return False


def extend(env, lease, ttl_ms):
    try:
        return lease["lock"].extend(ttl_ms / 1000, replace_ttl=True)
    except LockNotOwnedError:
        return False


def close(env):
    client.close()
`;
