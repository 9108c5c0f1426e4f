/**
 * The facts of a store family or a topology that an oracle's explore spec or scenario may ask for
 * by the kind it was given, since an oracle imports no family or topology module: each is declared
 * where it belongs (StoreFamily in src/families/family.ts, src/stores/topology-pace.ts), and an
 * oracle reads the capability, never the name.
 */
import { familyOf } from '../families/index.ts';
import type { StoreKind } from '../stores/types.ts';
import type { TopologyKind } from '../stores/topology.ts';
import { topologyPace, type TopologyPace } from '../stores/topology-pace.ts';

export type { TopologyPace };

/** Whether a holder cut off from this store loses its lock when its lease lapses there (StoreFamily.lapsesWhenCutOff). */
export function lapsesWhenCutOff(store: StoreKind): boolean {
  return familyOf(store).lapsesWhenCutOff === true;
}

/** Whether the harness sees a lease lapse or a release in this store itself (StoreFamily.showsLeaseLapse). */
export function showsLeaseLapse(store: StoreKind): boolean {
  return familyOf(store).showsLeaseLapse === true;
}

/** How long this topology's own faults take to land (src/stores/topology-pace.ts). */
export function paceOf(topology: TopologyKind): TopologyPace {
  return topologyPace(topology);
}
