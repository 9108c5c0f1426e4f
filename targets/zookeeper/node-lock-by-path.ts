// BAD for V310 on --store zookeeper: one ephemeral lock node (zk-node-lock.ts); release deletes the node's path without checking whose it is, so a holder whose session expired (and whose client opened a new one) deletes the next holder's node. Twin of node-lock.ts.
import { defineTarget } from '../contract.ts';
import { lockNode, type RecipeLease } from './zk-lock.ts';
import { extendNodeLock, prepareNodeLock, releaseNodeLock, tryNodeLock } from './zk-node-lock.ts';

export default defineTarget({
  description: 'ZooKeeper ephemeral lock node; release deletes the path unchecked',
  storeKey: lockNode,
  connect: prepareNodeLock,
  acquire: (env) => tryNodeLock(env),
  release: (env, lease) => releaseNodeLock(env, lease as RecipeLease, true),
  extend: (env, lease) => extendNodeLock(env, lease as RecipeLease),
});
