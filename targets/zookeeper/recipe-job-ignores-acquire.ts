// BAD for V312 on --store zookeeper: a job under ZooKeeper's lock recipe (zk-job.ts) that runs its writes whether or not its try took the lock. Twin of recipe-job.ts.
import { defineTarget } from '../contract.ts';
import { jobUnderRecipe } from './zk-job.ts';
import { lockNode, prepareLock } from './zk-lock.ts';

export default defineTarget({
  description: 'job under the ZooKeeper lock recipe; writes even when the try was denied',
  storeKey: lockNode,
  connect: prepareLock,
  job: (env) => jobUnderRecipe(env, false, false),
});
