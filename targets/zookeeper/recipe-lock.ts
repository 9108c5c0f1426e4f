// GOOD for V311 and V310 on --store zookeeper: ZooKeeper's lock recipe (zk-lock.ts), ephemeral-sequential nodes under the lock node; a killed holder's node goes with its session, and release deletes only its own node. Twin of recipe-persistent.ts.
import { defineTarget } from '../contract.ts';
import { lockNode, prepareLock, stillMine, tryLock, unlock, type RecipeLease } from './zk-lock.ts';

export default defineTarget({
  description: 'ZooKeeper lock recipe: EPHEMERAL_SEQUENTIAL child, lowest sequence holds',
  storeKey: lockNode,
  connect: prepareLock,
  acquire: (env) => tryLock(env, 'ephemeral'),
  release: (env, lease) => unlock(env, lease as RecipeLease),
  extend: (env, lease) => stillMine(env, lease as RecipeLease),
});
