/**
 * Hold the reply: the command (or filesystem call) ran, its reply or a write's receipt is kept from
 * A until the other holder has acted. Lands at its point itself (`landAt`).
 */
import type { PointFault } from '../landing.ts';
import { heldStop, latchStop } from '../stops.ts';

export const HOLD_REPLY: PointFault = {
  name: 'hold-reply',
  rank: 20,
  words: 'its reply held',
  doc: "the command ran, its reply (or the effect's receipt, the filesystem call's result) is kept from A until the other holder has acted",
  at: ['command', 'effect', 'fs'],
  topologies: ['single'],
  inWords: (boundary, at) =>
    boundary.kind === 'effect'
      ? `A's write "${boundary.name}" (${at}) was recorded, but its receipt was withheld from A`
      : boundary.kind === 'fs'
        ? `A's ${boundary.text} (${at}) ran, but its result was held from A`
        : `A's ${boundary.text} (${at}) ran in the store, but its reply was held from A at its wire proxy`,
  landAt: (ctx) =>
    ctx.boundary.kind === 'effect' || ctx.boundary.kind === 'seam'
      ? latchStop(ctx.latch(), ctx.label, ctx.missed)
      : heldStop(ctx.hold('result'), ctx.label, ctx.missed),
};
