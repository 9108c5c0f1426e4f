// BAD for V315 (ORACLES.md row V315, a cached isLeader flag): a timer renews or takes the lease row and sets a flag; the write loop trusts the flag between polls, so a leader whose renewals stall or fail keeps writing after its lease lapsed.
import { randomUUID } from 'node:crypto';
import { defineTarget } from '../../contract.ts';
import { sleep, stepMs } from '../../redis/job-params.ts';
import { pgPoolSlot } from '../pool.ts';
import { pollEvery, takeOrRenew } from './lease.ts';
import { leaseRowMembers } from '../lease-row.ts';

const pool = pgPoolSlot();

export default defineTarget({
  description: 'pg leader: a timer renews or takes the lease row and sets isLeader; each write trusts the flag',
  ...leaseRowMembers(pool),
  async leader(env) {
    const me = `${env.holder}:${randomUUID()}`;
    let isLeader = false;
    const poll = () =>
      takeOrRenew(pool.get(), env, me).then(
        (held) => void (isLeader = held),
        (error: Error) => env.log(`poll failed: ${error.message}`),
      );
    await poll();
    const timer = setInterval(poll, pollEvery(env));
    try {
      for (let i = 0; !env.signal.aborted; i++) {
        if (isLeader) await env.effect('write', { value: i });
        await sleep(stepMs(env));
      }
    } finally {
      clearInterval(timer);
    }
  },
});
