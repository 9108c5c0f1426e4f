/**
 * The oracle layer's import of the two cut-offs (a partition, a delayed write): they live with the
 * faults that land them (src/faults/cut-off.ts, below this layer).
 */
export * from '../faults/cut-off.ts';
