/**
 * The harness's read of every data node of a topology at once: each node's role and replication
 * offset (INFO replication) and the lock's key there (value, PTTL), straight from the node, so the
 * evidence shows where the lock lived when a master died or a majority changed.
 */
import type { StoreLocation } from '../../../../targets/contract.ts';
import type { StoreTopology } from '../../../stores/topology.ts';
import { RedisProbe } from '../probe.ts';
import { parseReplication } from './replication-info.ts';

export interface NodeReading {
  node: string;
  /** The role the node reports (master / slave), or "down" when its process is not running. */
  role: string;
  offset: number | null;
  exists: boolean;
  value: string | null;
  pttlMs: number;
}

export class TopologyView {
  readonly #probes = new Map<string, RedisProbe>();

  constructor(private readonly topology: StoreTopology) {}

  async read(location: StoreLocation): Promise<NodeReading[]> {
    const data = this.topology.nodes.filter((n) => n.role !== 'sentinel' && n.role !== 'counter');
    return Promise.all(
      data.map(async (node): Promise<NodeReading> => {
        const down = { node: node.name, role: 'down', offset: null, exists: false, value: null, pttlMs: -2 };
        if (!node.running) return down;
        const probe = this.#probe(node.name, node.url);
        try {
          const [state, info] = await Promise.all([probe.keyState(location), probe.info('replication')]);
          const replication = parseReplication(info);
          return { node: node.name, role: replication.role, offset: replication.offset, ...state };
        } catch {
          return down;
        }
      }),
    );
  }

  #probe(name: string, url: string): RedisProbe {
    let probe = this.#probes.get(name);
    if (!probe) this.#probes.set(name, (probe = new RedisProbe(url)));
    return probe;
  }

  async close(): Promise<void> {
    await Promise.all([...this.#probes.values()].map((p) => p.close()));
  }
}
