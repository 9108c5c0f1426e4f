// GOOD for V315 on --store zookeeper: ZooKeeper's election recipe (zk-election.ts); before each write the replica asks the server whether its node is still the lowest, and writes only on an answer that came within its session timeout minus a margin. Twin of election-cached-flag.ts.
import { defineTarget } from '../contract.ts';
import { sleep, stepMs } from '../redis/job-params.ts';
import { electionNode, leadsNow } from './zk-election.ts';

/** The answer, or false when it does not come within `ms` (or the call fails). */
function within(answer: Promise<boolean>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  return Promise.race([answer.catch(() => false), late]).finally(() => clearTimeout(timer));
}

export default defineTarget({
  description: 'ZooKeeper election: ask the server before each write; write only on a fresh yes',
  storeKey: electionNode,
  async leader(env) {
    const validFor = env.ttlMs - Math.max(1, Math.floor(env.ttlMs / 10)); // margin for the calls
    for (let i = 0; !env.signal.aborted; i++) {
      const sentAt = performance.now();
      const leads = await within(leadsNow(env), validFor);
      if (leads && performance.now() < sentAt + validFor) await env.effect('write', { value: i });
      await sleep(stepMs(env));
    }
  },
});
