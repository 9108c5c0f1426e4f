/**
 * One node's wall clock stepped ahead as a link message arrived; the cluster family's fault, landed
 * by src/oracle/arm-node-clock-step.ts.
 */
import type { Fault } from '../../../core/fault.ts';

export const NODE_CLOCK_AHEAD: Fault = {
  name: 'node-clock-ahead',
  rank: 100,
  words: "a node's wall clock stepped ahead as it arrived",
  doc: "the link message is held at the link proxy while one node's wall clock (which one, the oracle's parameter says) is stepped ahead, then goes on",
  at: ['message'],
  topologies: ['single'],
  inWords: (_, at) =>
    `a node's wall clock was stepped ahead the moment the message ${at} reached the link proxy, then the message went on`,
};
