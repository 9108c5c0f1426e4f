/**
 * One node's wall clock stepped ahead as a link message arrived: the cluster family's fault,
 * landing itself at the message (./step-node-clock.ts).
 */
import type { LinkMessageFault } from './at-message.ts';
import { stepNodeClockAt } from './step-node-clock.ts';

export const NODE_CLOCK_AHEAD: LinkMessageFault = {
  name: 'node-clock-ahead',
  rank: 100,
  words: "a node's wall clock stepped ahead as it arrived",
  doc: "the link message is held at the link proxy while one node's wall clock (which one, the oracle's parameter says) is stepped ahead, then goes on",
  at: ['message'],
  topologies: ['single'],
  stores: ['cluster'],
  inWords: (_, at) =>
    `a node's wall clock was stepped ahead the moment the message ${at} reached the link proxy, then the message went on`,
  landAtMessage: (ctx) => stepNodeClockAt(ctx, 'node-clock-ahead', 1),
};
