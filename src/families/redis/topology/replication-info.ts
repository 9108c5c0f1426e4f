/**
 * What a node says of its replication (INFO replication): its role, its offset, and, on a master,
 * each replica's state and acknowledged offset. The harness reads it straight from the node.
 */
import type { RedisNode } from './redis-node.ts';

export interface ReplicaLine {
  /** The replica's listening port, as it announced it to the master. */
  port: number;
  state: string;
  offset: number;
}

export interface ReplicationInfo {
  role: string;
  /** The master's replication offset, or on a replica the offset it has processed. */
  offset: number;
  /** On a master: every connected replica. */
  replicas: ReplicaLine[];
  /** On a replica: whether its link to the master is up. */
  linkUp?: boolean;
}

export function parseReplication(info: string): ReplicationInfo {
  const field = (name: string) => new RegExp(`^${name}:(.*)$`, 'm').exec(info)?.[1]?.trim();
  const role = field('role') ?? 'unknown';
  const replicas: ReplicaLine[] = [];
  for (const match of info.matchAll(/^slave\d+:(.*)$/gm)) {
    const parts = Object.fromEntries(match[1]!.split(',').map((kv) => kv.split('=') as [string, string]));
    replicas.push({ port: Number(parts.port), state: parts.state ?? '', offset: Number(parts.offset) });
  }
  const offset = Number(
    role === 'master' ? field('master_repl_offset') : (field('slave_repl_offset') ?? field('master_repl_offset')),
  );
  const link = field('master_link_status');
  return { role, offset, replicas, ...(link !== undefined ? { linkUp: link === 'up' } : {}) };
}

export async function replicationOf(node: RedisNode): Promise<ReplicationInfo> {
  const client = node.client();
  try {
    return parseReplication(await client.info('replication'));
  } finally {
    client.disconnect();
  }
}

/** Run one command on a node on a connection of its own. */
export async function onNode(node: RedisNode, ...args: [string, ...string[]]): Promise<unknown> {
  const client = node.client();
  try {
    return await client.call(...args);
  } finally {
    client.disconnect();
  }
}

/** Poll `condition` every 10 ms until it holds; throw naming `what` after `timeoutMs`. */
export async function waitFor(what: string, timeoutMs: number, condition: () => Promise<boolean>): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  let last: unknown;
  while (performance.now() < deadline) {
    try {
      if (await condition()) return;
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(
    `timed out after ${timeoutMs} ms waiting for ${what}${last ? ` (last error: ${(last as Error).message})` : ''}`,
  );
}
