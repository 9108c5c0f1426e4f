// GOOD for V310 (ORACLES.md row V310): redlock's release() deletes the key only while it holds this lock's value.
import { ExecutionError, Lock } from './redlock.ts';
import { defineTarget, type Lease } from '../../contract.ts';
import { redlockSlot } from './client.ts';

const redlock = redlockSlot();

function lockOf(lease: Lease): Lock {
  if (!(lease.lock instanceof Lock)) throw new Error('this lease was not returned by this target’s acquire()');
  return lease.lock;
}

/** Redlock reports "not ours any more" (or "already held") as an ExecutionError; anything else is a real error. */
async function refused(operation: Promise<unknown>): Promise<boolean> {
  try {
    await operation;
    return false;
  } catch (error) {
    if (error instanceof ExecutionError) return true;
    throw error;
  }
}

export default defineTarget({
  description: 'redlock 5: acquire([key], ttl) with retryCount 0, lock.release(), lock.extend(ttl)',
  connect: (env) => redlock.connect(env),
  async acquire(env) {
    let lock: Lock;
    try {
      lock = await redlock.get().acquire([env.key], env.ttlMs);
    } catch (error) {
      if (error instanceof ExecutionError) return null;
      throw error;
    }
    await env.seam('acquire:after-set');
    return { token: lock.value, lock };
  },
  async release(env, lease) {
    await env.seam('release:before-delete');
    return !(await refused(lockOf(lease).release()));
  },
  async extend(_env, lease, ttlMs) {
    const extension = lockOf(lease).extend(ttlMs);
    if (await refused(extension)) return false;
    lease.lock = await extension;
    return true;
  },
  close: () => redlock.close(),
});
