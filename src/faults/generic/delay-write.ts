/**
 * Delayed write: only this write held on its way to the resource, A's store traffic flowing. Lands
 * at its point itself (`landAt`: ../cut-off.ts delayedWriteStop).
 */
import type { PointFault } from '../landing.ts';
import { delayedWriteStop } from '../cut-off.ts';

export const DELAY_WRITE: PointFault = {
  name: 'delay-write',
  rank: 120,
  words: 'the write held on its way to the resource',
  doc: "only this write is held on its way to the resource, then delivered, arriving after whatever came meanwhile (A's store traffic flowing)",
  at: ['effect'],
  topologies: ['single'],
  inWords: (boundary, at) =>
    `A's write "${boundary.name}" (${at}) was held on its way to the resource (A waiting for its receipt, its store traffic flowing)`,
  landAt(ctx) {
    if (ctx.boundary.kind !== 'effect') throw new Error(`point ${ctx.label}: only a write can be delayed on its way`);
    return delayedWriteStop(ctx.holder, ctx.boundary.nth, ctx.label, ctx.missed);
  },
};
