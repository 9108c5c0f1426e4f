// BAD for V313 on --store zookeeper: a job under ZooKeeper's lock recipe (zk-job.ts), unfenced: a holder paused past its session keeps writing after the next holder took the lock (Curator Tech Note 10). Twin of recipe-job-fenced.ts.
import { defineTarget } from '../contract.ts';
import { jobUnderRecipe } from './zk-job.ts';
import { lockNode, prepareLock } from './zk-lock.ts';

export default defineTarget({
  description: 'job under the ZooKeeper lock recipe; writes unfenced',
  storeKey: lockNode,
  connect: prepareLock,
  job: (env) => jobUnderRecipe(env, false),
});
