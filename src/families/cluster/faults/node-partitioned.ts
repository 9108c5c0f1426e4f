/**
 * A holder's node partitioned from the other nodes (every message between them dropped at the
 * harness's link proxies) while the holder and its node keep running: on a cluster this is what
 * "A is cut off" means, for there is no wire between a holder and its node for the harness to cut
 * (V315). The cluster family's cut-off (`StoreFamily.cutOff`); lifting it heals the partition.
 * Not applicable before the nodes run.
 */
import type { StoreCutOff } from '../../fault-landing.ts';

export const NODE_PARTITIONED: StoreCutOff = {
  name: 'node-partitioned',
  rank: 135,
  words: "A's node partitioned from the other nodes",
  doc: "A's node is partitioned from the other nodes (every message between them dropped at the harness's link proxies, never delivered later) while A and its node keep running, so its node can renew nothing with the key's home; lifted, the partition heals",
  // The moment an oracle names (V315: at A's first write), not a boundary an exploration puts it at.
  at: [],
  topologies: ['single'],
  stores: ['cluster'],
  inWords: (_, at) => `A's node was partitioned from the other nodes (${at}) while A kept running`,
  async cutOff({ holder, nodes }) {
    if (!nodes)
      return {
        reached: false,
        why: "node-partitioned cuts a holder's node off from the other nodes, and this store runs no nodes of the target's own (--store cluster does)",
      };
    const node = nodes.nodeOf(holder.id).id;
    const others = nodes.ids.filter((id) => id !== node);
    const partition = nodes.links.partition([node], others);
    return {
      reached: true,
      took: true,
      words: `${holder.id}'s node ${node} partitioned from ${others.join(', ')}`,
      facts: { action: partition.what, node, others },
      lift: () => partition.heal(),
    };
  },
};
