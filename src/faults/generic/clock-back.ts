/**
 * A's wall clock stepped back before it prepares the command; lands at its point through
 * ./clock-step.ts (the step's size and sign are the oracle's skew: V317).
 */
import type { Fault } from '../../core/fault.ts';

export const CLOCK_BACK: Fault = {
  name: 'clock-back',
  rank: 60,
  words: "A's clock stepped back before it",
  doc: "A's wall clock (Date) steps back by the oracle's skew right before A prepares the command, so whatever A computes from its clock for that command and after is off",
  at: ['command'],
  topologies: ['single'],
  inWords: (boundary, at) => `A's wall clock was stepped back right before A prepared its ${boundary.text} (${at})`,
};
