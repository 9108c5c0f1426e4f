/**
 * A's wall clock stepped back before it prepares the command; landed by src/oracle/arm-point.ts
 * (armClockStep).
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
