// GOOD for V310 on --store zookeeper: one ephemeral lock node (zk-node-lock.ts); release deletes it only when it holds this lease's token and this session owns it, at the version read (a session that expired owns nothing). Twin of node-lock-by-path.ts.
import { defineTarget } from '../contract.ts';
import { lockNode, type RecipeLease } from './zk-lock.ts';
import { extendNodeLock, prepareNodeLock, releaseNodeLock, tryNodeLock } from './zk-node-lock.ts';

export default defineTarget({
  description: "ZooKeeper ephemeral lock node; release checks the node is this session's own",
  storeKey: lockNode,
  connect: prepareNodeLock,
  acquire: (env) => tryNodeLock(env),
  release: (env, lease) => releaseNodeLock(env, lease as RecipeLease, false),
  extend: (env, lease) => extendNodeLock(env, lease as RecipeLease),
});
