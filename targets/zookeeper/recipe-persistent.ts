// BAD for V311 on --store zookeeper: ZooKeeper's lock recipe (zk-lock.ts) with PERSISTENT_SEQUENTIAL nodes: a killed holder's node outlives its session, so nobody takes the lock again. Twin of recipe-lock.ts.
import { defineTarget } from '../contract.ts';
import { lockNode, prepareLock, stillMine, tryLock, unlock, type RecipeLease } from './zk-lock.ts';

export default defineTarget({
  description: 'ZooKeeper lock recipe with PERSISTENT_SEQUENTIAL children: no session frees it',
  storeKey: lockNode,
  connect: prepareLock,
  acquire: (env) => tryLock(env, 'persistent'),
  release: (env, lease) => unlock(env, lease as RecipeLease),
  extend: (env, lease) => stillMine(env, lease as RecipeLease),
});
