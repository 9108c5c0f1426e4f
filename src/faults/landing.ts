/**
 * A fault that lands itself: given what the scenario has at the moment the oracle names (the
 * holder, its wire proxy, the store view, the fault log), `land` puts the fault in force and
 * returns a handle — reached, with the facts the evidence records and a way to lift it — or says
 * why it does not apply here (the shapes are in src/families/fault-landing.ts, so a family's own
 * faults land themselves too). The oracle names the moment ("A at its first write, until its lease
 * lapsed and B wrote"); the fault file owns what is done then, so a new fault is added in its file.
 * A fault that lands at an explored point (`PointFault.landAt`) is armed instead, before the holder
 * runs, at the boundary ./point.ts found: it returns a stop (./stops.ts) that is reached when the
 * holder gets there, which the oracle's flow then waits on and lets go.
 */
import type { Fault } from '../core/fault.ts';
import type { StoreKind } from '../stores/types.ts';
import type { LandableFault } from '../families/fault-landing.ts';
import type { PointContext } from './point.ts';
import type { Stop } from './stops.ts';

export type {
  LandableFault,
  Landed,
  Landing,
  LandingContext,
  NotApplicable,
  StoreCutOff,
} from '../families/fault-landing.ts';

/** Whether the fault lands itself (its landing lives in its file, not in an oracle's flow). */
export function landsItself(fault: Fault): fault is LandableFault {
  return typeof (fault as Partial<LandableFault>).land === 'function';
}

/**
 * Why the fault cannot land on this store and topology, in words that name where it does land;
 * undefined when it can (its declared stores and topologies: nothing has to start to know).
 */
export function whyNotOn(fault: LandableFault, store: StoreKind, topology: string): string | undefined {
  if (!fault.stores.includes(store))
    return `${fault.name} lands on ${fault.stores.map((s) => `--store ${s}`).join(' or ')}, not on ${store}`;
  if (!fault.topologies.includes(topology)) {
    const where = fault.topologies.map((t) => (t === 'single' ? 'one server' : `--topology ${t}:N`)).join(' or ');
    return `${fault.name} lands on ${where}, not on ${topology === 'single' ? 'one server' : `--topology ${topology}`}`;
  }
  return undefined;
}

/** A fault that lands at a boundary of a holder's run (an explored point): armed before the holder runs. */
export interface PointFault extends Fault {
  landAt(ctx: PointContext): Stop;
}

/** Whether the fault lands at a point by itself (its file holds how). */
export function landsAtPoint(fault: Fault): fault is PointFault {
  return typeof (fault as Partial<PointFault>).landAt === 'function';
}
