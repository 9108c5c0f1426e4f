// BAD for V315 on --store fs (a cached isLeader flag): a timer takes or extends the owner-record lease file (lease-leader.ts) and sets a flag; the write loop trusts the flag between polls, so a leader whose renewals stall at the filesystem keeps writing after its lease lapsed. Twin of leader-recheck-each-write.ts.
import { defineTarget } from '../contract.ts';
import { sleep, stepMs } from '../redis/job-params.ts';
import { pollEvery } from '../redis/leader/lease.ts';
import { leaseLocation } from './lease-record.ts';
import { takeOrExtendLease, type LeaderState } from './lease-leader.ts';

export default defineTarget({
  description: 'fs leader: a timer takes or extends the lease file and sets isLeader; each write trusts the flag',
  storeKey: leaseLocation,
  async leader(env) {
    const state: LeaderState = { token: null };
    let isLeader = false;
    const poll = () =>
      takeOrExtendLease(env, state).then(
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
