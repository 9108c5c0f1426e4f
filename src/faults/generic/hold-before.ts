/**
 * Hold before: A's command kept at its wire proxy (its filesystem call held, or A blocked at its
 * seam) until the other holder has acted. Lands at its point itself (`landAt`).
 */
import type { PointFault } from '../landing.ts';
import { heldStop, latchStop } from '../stops.ts';

export const HOLD_BEFORE: PointFault = {
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
  landAt: (ctx) =>
    ctx.boundary.kind === 'seam'
      ? latchStop(ctx.latch(), ctx.label, ctx.missed)
      : heldStop(ctx.hold('call'), ctx.label, ctx.missed),
};
