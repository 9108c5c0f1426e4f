/**
 * A's node stopped (SIGSTOP) as a link message reached the link proxy, the message then let go
 * (into the stopped node, or from it to its peer) and the node resumed on release: the cluster
 * family's fault, landing itself at the message (./at-message.ts).
 */
import { stopAtMessage, type LinkMessageFault } from './at-message.ts';

export const PAUSE_NODE: LinkMessageFault = {
  name: 'pause-node',
  rank: 90,
  words: "A's node stopped (SIGSTOP) as it arrived",
  doc: "A's node is stopped (SIGSTOP) the moment the link message reaches the link proxy, then the message goes on (into the stopped node, or from it to its peer) and the node stays stopped until the other holder has acted",
  at: ['message'],
  topologies: ['single'],
  stores: ['cluster'],
  inWords: (boundary, at) =>
    `A's node ${boundary.link?.aNode ?? ''} was stopped (SIGSTOP) the moment the message ${at} reached the link proxy, then the message went on`,
  landAtMessage(ctx) {
    const node = ctx.nodes.nodeOf('A').id;
    let paused = false;
    return stopAtMessage(
      ctx,
      'pause-node',
      async (hold) => {
        await ctx.nodes.pause(node);
        paused = true;
        hold.release();
      },
      {
        undo: () => {
          if (paused) ctx.nodes.resume(node);
          paused = false;
        },
        get undone() {
          return !paused;
        },
      },
    );
  },
};
