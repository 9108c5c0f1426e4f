/**
 * One node's wall clock stepped back as a link message arrived: the cluster family's fault,
 * landing itself at the message (./step-node-clock.ts).
 */
import type { LinkMessageFault } from './at-message.ts';
import { stepNodeClockAt } from './step-node-clock.ts';

export const NODE_CLOCK_BACK: LinkMessageFault = {
  name: 'node-clock-back',
  rank: 110,
  words: "a node's wall clock stepped back as it arrived",
  doc: "the link message is held at the link proxy while one node's wall clock (which one, the oracle's parameter says) is stepped back, then goes on",
  at: ['message'],
  topologies: ['single'],
  stores: ['cluster'],
  inWords: (_, at) =>
    `a node's wall clock was stepped back the moment the message ${at} reached the link proxy, then the message went on`,
  landAtMessage: (ctx) => stepNodeClockAt(ctx, 'node-clock-back', -1),
};
