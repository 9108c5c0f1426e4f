// BAD for V313 (ORACLES.md row V313, lease shorter than the work): a lease row with lease_until = now() + ttl and no renewal, so a holder paused past the lease keeps writing after the next holder took the row.
import { randomUUID } from 'node:crypto';
import { defineTarget } from '../contract.ts';
import { sleep, stepMs, steps } from '../redis/job-params.ts';
import { dropLease, leaseRowMembers, takeLease } from './lease-row.ts';
import { pgPoolSlot } from './pool.ts';

const pool = pgPoolSlot();

export default defineTarget({
  description:
    'pg job: lease row taken with INSERT … ON CONFLICT … WHERE lease_until < now(), no renewal, writes, delete',
  ...leaseRowMembers(pool),
  async job(env) {
    const me = `${env.holder}:${randomUUID()}`;
    if (!(await takeLease(pool.get(), env.key, me, env.ttlMs))) {
      env.log('the lease is held elsewhere; skipping the job');
      return;
    }
    for (let i = 0; i < steps(env); i++) {
      await env.effect('write', { value: i });
      await sleep(stepMs(env));
    }
    await dropLease(pool.get(), env.key, me);
  },
});
