// GOOD for V315 (ORACLES.md row V315, re-check before each effect): before every write the replica renews or takes the lease row and writes only while that answer is fresh; a renewal that fails, or does not answer within the lease, steps it down.
import { randomUUID } from 'node:crypto';
import { defineTarget } from '../../contract.ts';
import { sleep, stepMs } from '../../redis/job-params.ts';
import { pgPoolSlot } from '../pool.ts';
import { takeOrRenew } from './lease.ts';
import { leaseRowMembers } from '../lease-row.ts';

const pool = pgPoolSlot();

/** The answer, or false when it does not come within `ms` (or the query fails). */
function within(answer: Promise<boolean>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  return Promise.race([answer.catch(() => false), late]).finally(() => clearTimeout(timer));
}

export default defineTarget({
  description:
    'pg leader: renew-or-take the lease row before every write; write only if confirmed within ttl minus a margin, else step down',
  ...leaseRowMembers(pool),
  async leader(env) {
    const me = `${env.holder}:${randomUUID()}`;
    const validFor = env.ttlMs - Math.max(1, Math.floor(env.ttlMs / 10)); // margin for transit and clock drift
    for (let i = 0; !env.signal.aborted; i++) {
      const sentAt = performance.now();
      const held = await within(takeOrRenew(pool.get(), env, me), validFor);
      if (held && performance.now() < sentAt + validFor) await env.effect('write', { value: i });
      await sleep(stepMs(env));
    }
  },
});
