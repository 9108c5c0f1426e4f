/**
 * Partition: from this command or write on, everything A sends and receives held while A runs.
 * Lands at its point itself (`landAt`: ../cut-off.ts partitionStop).
 */
import type { PointFault } from '../landing.ts';
import { partitionStop } from '../cut-off.ts';

export const PARTITION: PointFault = {
  name: 'partition',
  rank: 130,
  words: 'A cut off from the store and the resource from it on',
  doc: 'from this command or write on, everything A sends and receives (its store connections both ways, its writes on their way to the resource) is held while A keeps running, then delivered in order (a helper renewing on its own timer loses its lease: its renewals never reach the store)',
  at: ['command', 'effect'],
  topologies: ['single'],
  inWords: (boundary, at) =>
    `from A's ${boundary.kind === 'effect' ? `write "${boundary.name}"` : boundary.text} (${at}) on, everything A sent and received (its store connections both ways, its writes on their way to the resource) was held while A kept running`,
  landAt: (ctx) => partitionStop(ctx.holder, ctx.wire, ctx.cutFrom(), ctx.label, ctx.missed),
};
