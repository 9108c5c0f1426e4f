/**
 * A leader that acts on its lease (ioredis): once it has won the leader key it writes without asking
 * the store again until its lease ends by its own monotonic clock (when it sent the winning command,
 * plus the TTL minus a margin), renewing it at half the TTL with compare-and-pexpire and
 * stepping down the moment a renewal fails. That is sound only while winning a free key is one
 * atomic step: the twins elect-set-nx.ts (GOOD) and elect-get-then-set.ts (BAD) differ only in
 * `atomicElection`.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { defineTarget, type Target, type TargetEnv } from '../../contract.ts';
import { ioredisSlot } from '../ioredis/client.ts';
import { sleep, stepMs } from '../job-params.ts';
import { COMPARE_AND_PEXPIRE } from '../lua.ts';

export interface LeaseLeaderOptions {
  /**
   * true: a free key is won by `SET key token PX ttl NX`; false: by `GET key`, then, seeing it free,
   * `SET key token PX ttl` — two candidates that both saw it free both win, the later SET
   * overwriting the earlier winner's lease while that one still acts on it.
   */
  atomicElection: boolean;
}

export function leaseLeader({ atomicElection }: LeaseLeaderOptions): Target {
  const redis = ioredisSlot();

  async function elect(client: Redis, env: TargetEnv, token: string): Promise<boolean> {
    if (atomicElection) return (await client.set(env.key, token, 'PX', env.ttlMs, 'NX')) === 'OK';
    if ((await client.get(env.key)) !== null) return false;
    return (await client.set(env.key, token, 'PX', env.ttlMs)) === 'OK';
  }

  const renew = async (client: Redis, env: TargetEnv, token: string) =>
    (await client.eval(COMPARE_AND_PEXPIRE, 1, env.key, token, env.ttlMs)) === 1;

  return defineTarget({
    description: `ioredis leader acting on its lease until its own clock says it ends; elected by ${atomicElection ? 'SET NX PX' : 'GET, then SET PX (no NX)'}, renewed by compare-and-pexpire every ttl/2`,
    connect: (env) => redis.connect(env),
    async leader(env) {
      const token = randomUUID();
      const margin = Math.max(1, Math.floor(env.ttlMs / 10)); // transit and clock drift
      let leaseEnd = 0;
      let renewAt = 0;
      for (let i = 0; !env.signal.aborted; i++) {
        const sentAt = performance.now();
        if (sentAt >= renewAt) {
          const leading = sentAt < leaseEnd;
          const won = await (leading ? renew : elect)(redis.get(), env, token).catch(() => false);
          if (won) [leaseEnd, renewAt] = [sentAt + env.ttlMs - margin, sentAt + env.ttlMs / 2];
          else leaseEnd = 0;
        }
        if (performance.now() < leaseEnd) await env.effect('write', { value: i });
        await sleep(stepMs(env));
      }
    },
    close: () => redis.close(),
  });
}
