/**
 * ZooKeeper's lock recipe as users write it on node-zookeeper-client (which ships none), after
 * ZooKeeper's own "Recipes and Solutions" page: create `<lock>/lock-` EPHEMERAL_SEQUENTIAL, list the
 * lock's children, and hold the lock when yours has the lowest sequence number; a try-lock that is
 * not lowest deletes its node and says "denied". The node's path is the lease's token, its czxid
 * its fencing token. `persistent` makes the same recipe with PERSISTENT_SEQUENTIAL nodes (a lock
 * that no session's end frees). Not a reference by itself: targets/zookeeper/*.ts bind it.
 */
import { CreateMode } from 'node-zookeeper-client';
import type { Lease, TargetEnv } from '../contract.ts';
import { hexId, sessionOf, zxidNumber } from './zk-session.ts';

/** The lock node's path for the oracle's key: what storeKey returns, and the parent of every queued node. */
export const lockNode = (env: TargetEnv): string => `/locks/${env.key}`;

export interface RecipeLease extends Lease {
  token: string;
  fence: number;
}

/** Make the lock node (persistent, once, at connect: as apps do at start-up, outside every acquire). */
export async function prepareLock(env: TargetEnv): Promise<void> {
  await sessionOf(env).mkdirp(lockNode(env));
}

export async function tryLock(
  env: TargetEnv,
  mode: 'ephemeral' | 'persistent' = 'ephemeral',
): Promise<RecipeLease | null> {
  const zk = sessionOf(env);
  const created = await zk.create(
    `${lockNode(env)}/lock-`,
    env.holder,
    mode === 'ephemeral' ? CreateMode.EPHEMERAL_SEQUENTIAL : CreateMode.PERSISTENT_SEQUENTIAL,
  );
  const children = await zk.children(lockNode(env));
  if (children[0] !== created.slice(lockNode(env).length + 1)) {
    await zk.remove(created);
    return null;
  }
  const mine = await zk.get(created);
  await env.seam('acquire:after-set');
  return { token: created, fence: mine ? zxidNumber(mine.stat.czxid) : 0 };
}

/** Whether the lease's node is still there and this session's (a persistent node: still there). */
export async function stillMine(env: TargetEnv, lease: RecipeLease): Promise<boolean> {
  const zk = sessionOf(env);
  const node = await zk.get(lease.token);
  if (!node) return false;
  const owner = hexId(node.stat.ephemeralOwner);
  return owner === '0x0' || owner === (await zk.id());
}

/** Release: delete the lease's own node, if it is still there and this session's. */
export async function unlock(env: TargetEnv, lease: RecipeLease): Promise<boolean> {
  if (!(await stillMine(env, lease))) return false;
  await env.seam('release:before-delete');
  return sessionOf(env).remove(lease.token, -1, true);
}
