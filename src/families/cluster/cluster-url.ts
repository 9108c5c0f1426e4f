/** A cluster store's nodes as its URL names them: their ids, listen addresses and state directories. */
import { join } from 'node:path';
import type { NodeAddress } from '../../wire/link-mesh.ts';

/** How many nodes a cluster store runs. */
export const CLUSTER_SIZE = 3;

export function nodeId(index: number): string {
  return `n${index + 1}`;
}

export interface ClusterLayout {
  readonly nodes: readonly NodeAddress[];
  /** Each node's state directory, by node id. */
  stateDir(id: string): string;
}

export function clusterLayout(url: string): ClusterLayout {
  const parsed = new URL(url);
  const ports = (parsed.searchParams.get('ports') ?? '').split(',').map(Number);
  const dir = parsed.searchParams.get('dir');
  if (parsed.protocol !== 'cluster:' || !dir || ports.some((port) => !Number.isInteger(port) || port <= 0))
    throw new Error(`${url} is not a cluster store's URL (cluster://127.0.0.1:PORT/?ports=P1,P2,…&dir=DIR)`);
  return {
    nodes: ports.map((port, index) => ({ index, id: nodeId(index), host: parsed.hostname, port })),
    stateDir: (id) => join(dir, id),
  };
}
