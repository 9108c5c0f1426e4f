/**
 * Hold before: A's command kept at its wire proxy (its filesystem call held, or A blocked at its
 * seam) until the other holder has acted; landed by src/oracle/arm-point.ts.
 */
import type { Fault } from '../../core/fault.ts';

export const HOLD_BEFORE: Fault = {
  name: 'hold-before',
  rank: 10,
  words: 'held before it',
  doc: "A's command is kept at its wire proxy (or its filesystem call held, or A blocks at its seam) until the other holder has acted",
  at: ['command', 'seam', 'fs'],
  topologies: ['single'],
  inWords: (boundary, at) =>
    boundary.kind === 'fs'
      ? `A's ${boundary.text} (${at}) was held before it ran`
      : `A's ${boundary.text} (${at}) was held at its wire proxy before it reached the store`,
};
