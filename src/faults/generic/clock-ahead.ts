/**
 * A's wall clock stepped ahead before it prepares the command; lands at its point through
 * ./clock-step.ts (the step's size and sign are the oracle's skew: V317).
 */
import type { Fault } from '../../core/fault.ts';

export const CLOCK_AHEAD: Fault = {
  name: 'clock-ahead',
  rank: 50,
  words: "A's clock stepped ahead before it",
  doc: "A's wall clock (Date) steps forward by the oracle's skew right before A prepares the command (after the reply to its previous command on the lock reached it, or before its part begins for the first), so whatever A computes from its clock for that command and after is off",
  at: ['command'],
  topologies: ['single'],
  inWords: (boundary, at) => `A's wall clock was stepped ahead right before A prepared its ${boundary.text} (${at})`,
};
