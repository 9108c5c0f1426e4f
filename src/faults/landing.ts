/**
 * A fault that lands itself: given what the scenario has at the moment the oracle names (the
 * holder, its wire proxy, the store view, the fault log), `land` puts the fault in force and
 * returns a handle — reached, with the facts the evidence records and a way to lift it — or says
 * why it does not apply here. The oracle names the moment ("A at its first write, until its lease
 * lapsed and B wrote"); the fault file owns what is done then, so a new fault is added in its file.
 * A fault that lands at an explored point (`PointFault.landAt`) is armed instead, before the holder
 * runs, at the boundary ./point.ts found: it returns a stop (./stops.ts) that is reached when the
 * holder gets there, which the oracle's flow then waits on and lets go.
 */
import type { Fault } from '../core/fault.ts';
import type { FaultLog } from '../core/fault-log.ts';
import type { StoreView } from '../families/family.ts';
import type { Holder } from '../holder/holder.ts';
import type { WireProxy } from '../wire/proxy.ts';
import type { WireFaultRecord } from '../wire/records.ts';
import type { PointContext } from './point.ts';
import type { Stop } from './stops.ts';

/** What a scenario offers a fault at the moment it lands. */
export interface LandingContext {
  /** The holder it lands on. */
  readonly holder: Holder;
  /** The holder's wire proxy, when it talks to the store through one. */
  readonly wire: WireProxy | undefined;
  /** The harness's own connection to the store (its capabilities: killClients, sessionLocks…). */
  view(): StoreView;
  /** The store kind, for messages ("redis", "postgres", "fs"). */
  readonly storeKind: string;
  /** The run's fault log: what the fault did goes into the evidence. */
  readonly faults: FaultLog;
}

/** A fault in force on the holder, until lifted. */
export interface Landed {
  readonly reached: true;
  /** The holder's wire record that stays in force while the fault does (it counts what it stopped). */
  readonly record: WireFaultRecord;
  /** Whether it did anything to the holder (connection-killed: the store closed at least one connection). */
  readonly took: boolean;
  /** What it did, in words, for the verdict's explanation. */
  readonly words: string;
  /** What the fault did, for the evidence ("CLIENT KILL ADDR …", connections killed). */
  readonly facts: { readonly action: string } & Readonly<Record<string, unknown>>;
  /** Lift it; safe to call twice. */
  lift(): void;
}

/** The fault cannot land in this scenario, and why, in words a user can act on. */
export interface NotApplicable {
  readonly reached: false;
  readonly why: string;
}

export type Landing = Landed | NotApplicable;

export interface LandableFault extends Fault {
  land(ctx: LandingContext): Promise<Landing>;
}

/** Whether the fault lands itself (its landing lives in its file, not in an oracle's flow). */
export function landsItself(fault: Fault): fault is LandableFault {
  return typeof (fault as Partial<LandableFault>).land === 'function';
}

/** A fault that lands at a boundary of a holder's run (an explored point): armed before the holder runs. */
export interface PointFault extends Fault {
  landAt(ctx: PointContext): Stop;
}

/** Whether the fault lands at a point by itself (its file holds how). */
export function landsAtPoint(fault: Fault): fault is PointFault {
  return typeof (fault as Partial<PointFault>).landAt === 'function';
}
