/**
 * Delayed write: only this write held on its way to the resource, A's store traffic flowing; landed
 * by src/oracle/arm-cut-off.ts (src/oracle/partition.ts).
 */
import type { Fault } from '../../core/fault.ts';

export const DELAY_WRITE: Fault = {
  name: 'delay-write',
  rank: 120,
  words: 'the write held on its way to the resource',
  doc: "only this write is held on its way to the resource, then delivered, arriving after whatever came meanwhile (A's store traffic flowing)",
  at: ['effect'],
  topologies: ['single'],
  inWords: (boundary, at) =>
    `A's write "${boundary.name}" (${at}) was held on its way to the resource (A waiting for its receipt, its store traffic flowing)`,
};
