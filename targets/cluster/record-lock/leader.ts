/**
 * The cluster record lock (./target.ts) with a leader loop (V315's shape): the replica leads while
 * it holds the lock on `env.key` through its node, and writes every --step-ms. How it knows it
 * still leads is the guard: `recheck-each-write` takes the lock through its node before every write
 * and writes only on a grant that came within the lease (under a live delegation that is local and
 * costs no message; past its deadline the node asks the home); `cached-flag` polls the lock on a
 * timer and trusts the last answer between polls, and a poll that gets no answer leaves the flag as
 * it was (the V315 defect: a leader cut off from the home keeps writing).
 */
import { defineTarget } from '../../contract.ts';
import { nodeClient, recordLockTarget } from './target.ts';
import type { RecordLockOptions } from './node.ts';
import { ndjsonTransport } from './ndjson.ts';
import type { Transport } from './channel.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function recordLockLeader(
  options: RecordLockOptions,
  leading: 'recheck-each-write' | 'cached-flag',
  description: string,
  over: Transport = ndjsonTransport,
) {
  const base = recordLockTarget(options, description, over);
  return defineTarget({
    ...base,
    async leader(env) {
      const c = nodeClient(env, over);
      const stepMs = Number(env.params.stepMs ?? 20);
      // A lock answered later than the lease is no answer (null): the lease may have lapsed meanwhile.
      const lock = () => c.ask({ type: 'lock', key: env.key }, env.ttlMs);
      const unlock = (handle: unknown) => c.ask({ type: 'unlock', handle }, env.ttlMs);
      let isLeader = false;
      let timer: NodeJS.Timeout | undefined;
      if (leading === 'cached-flag') {
        const poll = async () => {
          const reply = await lock();
          if (reply?.ok) await unlock(reply.handle);
          if (reply) isLeader = reply.ok === true;
        };
        await poll();
        timer = setInterval(() => void poll(), Math.max(5, Math.round(env.ttlMs / 4)));
      }
      try {
        for (let i = 0; !env.signal.aborted; i++) {
          if (leading === 'cached-flag') {
            if (isLeader) await env.effect('write', { value: i });
          } else {
            const reply = await lock();
            if (reply?.ok) {
              await env.effect('write', { value: i });
              await unlock(reply.handle);
            }
          }
          await sleep(stepMs);
        }
      } finally {
        clearInterval(timer);
      }
    },
  });
}
