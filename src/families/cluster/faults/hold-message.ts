/**
 * A message on a cluster's node-to-node link held at the harness's link proxy until the other
 * holder has acted: the cluster family's fault, landing itself at the message (./at-message.ts).
 */
import { stopAtMessage, type LinkMessageFault } from './at-message.ts';

export const HOLD_MESSAGE: LinkMessageFault = {
  name: 'hold-message',
  rank: 30,
  words: 'held on its link',
  doc: "a message on a cluster's node-to-node link to or from A's node is held at the harness's link proxy until the other holder has acted, the messages behind it on its direction waiting too",
  at: ['message'],
  topologies: ['single'],
  stores: ['cluster'],
  inWords: (_, at) => `the message ${at} was held on its link at the harness's proxy`,
  landAtMessage: (ctx) => stopAtMessage(ctx, 'hold-message', () => undefined),
};
