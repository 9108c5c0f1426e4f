/**
 * The cluster family: a project's own nodes as the store (their service, the target's `node`
 * member, one process each; docs/cluster.md). Holders take locks through a node: holder A through
 * one node, B through another, at the node's own address (env.url `tcp://127.0.0.1:PORT`). The
 * store's view of a lock is what the nodes report through the target's `inspect` member: the key's
 * home says who holds it and how long that has left by its own clock (./view.ts). There are no
 * store commands on a wire: the node-to-node messages are the boundaries (src/wire/link-mesh.ts).
 */
import { keyOf } from '../../stores/store-location.ts';
import type { StoreFamily } from '../family.ts';
import { clusterLayout } from './cluster-url.ts';
import { CLUSTER_FAULTS, NODE_PARTITIONED } from './faults/index.ts';
import { clusterRecipe } from './recipe.ts';
import { inspectedView } from './view.ts';

export const clusterFamily: StoreFamily = {
  name: 'cluster',
  recipes: [clusterRecipe],
  describe: (location) => `inspect(${JSON.stringify(keyOf(location))}) on its home node`,
  unreadable: (location) =>
    typeof location === 'string'
      ? undefined
      : `a cluster's lock is named by its key alone (the nodes' inspect member reads it), not ${JSON.stringify(location)}: return env.key (or another string) from storeKey`,
  view: () => {
    throw new Error('a cluster store is read through its nodes: the scenario opens its view (ownNodes.view)');
  },
  commands: {
    touches: ({ text }, location) => text.includes(keyOf(location)),
  },
  // The scenario hands each holder its node's tcp:// address (src/oracle/cluster-nodes.ts places them).
  holderUrl: (url, id) => {
    if (url.startsWith('tcp://')) return url;
    const { nodes } = clusterLayout(url);
    const node = nodes[(id.charCodeAt(0) - 65 + nodes.length) % nodes.length]!;
    return `tcp://${node.host}:${node.port}`;
  },
  clients: { node: [], python: [], java: [], go: [] },
  faults: CLUSTER_FAULTS,
  cutOff: NODE_PARTITIONED.name,
  expiryClock: 'nodes',
  boundaryKinds: ['message', 'seam', 'effect'],
  ownNodes: { layout: clusterLayout, view: inspectedView },
};
