/**
 * The simplest ZooKeeper lock users write: one EPHEMERAL node at the lock's path, created or not
 * (NODE_EXISTS: denied), its data the owner's token, its czxid the fencing token; it goes when the
 * owner's session ends. Its release either deletes the path as it is (`byPath`: whoever made it)
 * or first checks that the node is this session's own and deletes that version on that session
 * only, checking again after a lost answer (a version check cannot tell a node made anew). Not a reference
 * by itself: targets/zookeeper/node-lock*.ts bind it.
 */
import { randomUUID } from 'node:crypto';
import { CreateMode } from 'node-zookeeper-client';
import type { TargetEnv } from '../contract.ts';
import { lockNode, type RecipeLease } from './zk-lock.ts';
import { hexId, lostConnection, nodeExists, sessionOf, zxidNumber } from './zk-session.ts';

/** Make the lock node's parent (persistent, once, at connect: as apps do at start-up). */
export async function prepareNodeLock(env: TargetEnv): Promise<void> {
  const path = lockNode(env);
  await sessionOf(env).mkdirp(path.slice(0, path.lastIndexOf('/')));
}

export async function tryNodeLock(env: TargetEnv): Promise<RecipeLease | null> {
  const zk = sessionOf(env);
  const path = lockNode(env);
  const token = `${env.holder}:${randomUUID()}`;
  try {
    await zk.create(path, token, CreateMode.EPHEMERAL);
  } catch (error) {
    if (nodeExists(error)) return null;
    throw error;
  }
  const made = await zk.get(path);
  await env.seam('acquire:after-set');
  return { token, fence: made ? zxidNumber(made.stat.czxid) : 0 };
}

/** Whether the lock node is there, holds this lease's token and is this session's; its version to delete. */
async function ownVersion(env: TargetEnv, lease: RecipeLease): Promise<number | null> {
  const zk = sessionOf(env);
  const node = await zk.get(lockNode(env));
  if (!node || node.data !== lease.token || hexId(node.stat.ephemeralOwner) !== (await zk.id())) return null;
  return node.stat.version;
}

export async function releaseNodeLock(env: TargetEnv, lease: RecipeLease, byPath: boolean): Promise<boolean> {
  if (byPath) {
    await env.seam('release:before-delete');
    return sessionOf(env).remove(lockNode(env), -1);
  }
  // A delete whose answer was lost may have run: the node there now may be another holder's made
  // anew (at the same version), so the owner check is made again before any second delete.
  for (;;) {
    const version = await ownVersion(env, lease);
    if (version === null) return false;
    await env.seam('release:before-delete');
    try {
      return await sessionOf(env).remove(lockNode(env), version, true, false);
    } catch (error) {
      if (!lostConnection(error)) throw error;
    }
  }
}

export async function extendNodeLock(env: TargetEnv, lease: RecipeLease): Promise<boolean> {
  return (await ownVersion(env, lease)) !== null;
}
