// BAD for V315 (ORACLES.md row V315, a cached isLeader flag): a background poll takes or extends the leader key and sets a flag; the write loop trusts the flag between polls, so a leader whose renewals stall keeps writing after its lease lapsed.
import { randomUUID } from 'node:crypto';
import { defineTarget } from '../../contract.ts';
import { ioredisSlot } from '../ioredis/client.ts';
import { sleep, stepMs } from '../job-params.ts';
import { pollEvery, takeOrExtend } from './lease.ts';

const redis = ioredisSlot();

export default defineTarget({
  description:
    'ioredis leader: a timer polls (SET NX PX, else compare-and-pexpire) and sets isLeader; each write trusts the flag',
  connect: (env) => redis.connect(env),
  async leader(env) {
    const token = randomUUID();
    let isLeader = false;
    const poll = () =>
      takeOrExtend(redis.get(), env, token).then(
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
  close: () => redis.close(),
});
