/**
 * The cluster store: a run dir with one state directory per node and a free loopback port per node,
 * named in the store's URL (`cluster://127.0.0.1:<first port>/?ports=…&dir=…`). The nodes themselves
 * are the target's own `node` member, each in its own process, started by the scenario once the
 * target has loaded (src/oracle/cluster-nodes.ts); the local runtime removes the run dir after the
 * run, and the reaper removes it after a SIGKILLed harness (the node processes die with the harness).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { StoreRecipe } from '../../stores/types.ts';
import { CLUSTER_SIZE, nodeId } from './cluster-url.ts';

export const clusterRecipe: StoreRecipe = {
  kind: 'cluster',
  noContainer:
    "a cluster store is the target's own nodes run as processes on this machine; it has no container, so use --runtime local (the default) or auto",
  missing: async () => null,
  async startLocal({ dir, port, freePort }) {
    const ports = [port];
    while (ports.length < CLUSTER_SIZE) ports.push(await freePort());
    ports.forEach((_, index) => mkdirSync(join(dir, nodeId(index))));
    const query = new URLSearchParams({ ports: ports.join(','), dir });
    return {
      kind: 'cluster',
      url: `cluster://127.0.0.1:${port}/?${query.toString()}`,
      host: '127.0.0.1',
      port,
      version: `the target's own nodes: ${CLUSTER_SIZE} local processes, their links through the harness`,
      capabilities: {},
      // The node processes are the scenario's; the local runtime removes the run dir after this.
      stop: async () => undefined,
    };
  },
};
