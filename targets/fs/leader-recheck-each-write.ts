// GOOD for V315 on --store fs (re-check before each effect): before every write the replica takes or extends the owner-record lease file (lease-leader.ts) and writes only while that answer is fresh; a renewal that fails, or does not answer within the lease, steps it down. Twin of leader-cached-flag.ts.
import { defineTarget } from '../contract.ts';
import { sleep, stepMs } from '../redis/job-params.ts';
import { leaseLocation } from './lease-record.ts';
import { takeOrExtendLease, type LeaderState } from './lease-leader.ts';

/** The answer, or false when it does not come within `ms` (or the call fails). */
function within(answer: Promise<boolean>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  return Promise.race([answer.catch(() => false), late]).finally(() => clearTimeout(timer));
}

export default defineTarget({
  description:
    'fs leader: take or extend the lease file before every write; write only if confirmed within ttl minus a margin, else step down',
  storeKey: leaseLocation,
  async leader(env) {
    const state: LeaderState = { token: null };
    const validFor = env.ttlMs - Math.max(1, Math.floor(env.ttlMs / 10)); // margin for the calls and clock drift
    for (let i = 0; !env.signal.aborted; i++) {
      const sentAt = performance.now();
      const held = await within(takeOrExtendLease(env, state), validFor);
      if (held && performance.now() < sentAt + validFor) await env.effect('write', { value: i });
      await sleep(stepMs(env));
    }
  },
});
