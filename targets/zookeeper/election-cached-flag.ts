// BAD for V315 on --store zookeeper: ZooKeeper's election recipe (zk-election.ts) with a cached isLeader flag kept by a children watch; the write loop trusts the flag, so a leader cut off from the server writes on after its session ended and the next replica leads. Twin of election-recheck.ts.
import { defineTarget } from '../contract.ts';
import { sleep, stepMs } from '../redis/job-params.ts';
import { electionNode, watchLeadership } from './zk-election.ts';

export default defineTarget({
  description: 'ZooKeeper election: isLeader cached from a children watch; each write trusts the flag',
  storeKey: electionNode,
  async leader(env) {
    let isLeader = false;
    watchLeadership(env, (leads) => (isLeader = leads));
    for (let i = 0; !env.signal.aborted; i++) {
      if (isLeader) await env.effect('write', { value: i });
      await sleep(stepMs(env));
    }
  },
});
