/**
 * The oracle layer's import of a holder's stops: they live with the faults that build them
 * (src/faults/stops.ts, below this layer, so a fault's file can land itself as one).
 */
export * from '../faults/stops.ts';
