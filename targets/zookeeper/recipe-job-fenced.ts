// GOOD for V313 on --store zookeeper: a job under ZooKeeper's lock recipe (zk-job.ts), each write fenced by the lock node's czxid, which the resource checks: a holder paused past its session is refused once the next holder wrote. Twin of recipe-job.ts.
import { defineTarget } from '../contract.ts';
import { jobUnderRecipe } from './zk-job.ts';
import { lockNode, prepareLock } from './zk-lock.ts';

export default defineTarget({
  description: "job under the ZooKeeper lock recipe; each write fenced by the lock node's czxid",
  storeKey: lockNode,
  connect: prepareLock,
  job: (env) => jobUnderRecipe(env, true),
});
