// GOOD for V313 (ORACLES.md row V313, renewal checked before each write): the lease row is renewed (only while still ours and unexpired) before every write, and the job stops when the renewal fails.
import { randomUUID } from 'node:crypto';
import { defineTarget } from '../contract.ts';
import { sleep, stepMs, steps } from '../redis/job-params.ts';
import { dropLease, leaseRowMembers, renewLease, takeLease } from './lease-row.ts';
import { pgPoolSlot } from './pool.ts';

const pool = pgPoolSlot();

export default defineTarget({
  description: 'pg job: lease row taken with INSERT … ON CONFLICT, renewed and checked before each write, delete',
  ...leaseRowMembers(pool),
  async job(env) {
    const me = `${env.holder}:${randomUUID()}`;
    if (!(await takeLease(pool.get(), env.key, me, env.ttlMs))) {
      env.log('the lease is held elsewhere; skipping the job');
      return;
    }
    for (let i = 0; i < steps(env); i++) {
      if (!(await renewLease(pool.get(), env.key, me, env.ttlMs))) {
        env.log('lost the lease');
        return;
      }
      await env.effect('write', { value: i });
      await sleep(stepMs(env));
    }
    await dropLease(pool.get(), env.key, me);
  },
});
