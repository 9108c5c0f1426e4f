/**
 * What a fault that lands itself is given and gives back, in the layer the store families are
 * in, so a family's own faults (an etcd lease revoked, a ZooKeeper session expired) land
 * themselves from their folders just as the generic ones do (src/faults/landing.ts re-exports
 * these). The oracle names the moment ("A at its first write, until its lease lapsed and B
 * wrote"); `land` puts the fault in force then and returns a handle — reached, with the facts the
 * evidence records and a way to lift it — or says why it does not apply here. A store's own
 * cut-off (`StoreCutOff`: a cluster partitions a holder's node) lands the same way, and a fault
 * landing at a point of A's run returns a `Stop`, declared here for a family's faults to return.
 */
import type { StoreLocation } from '../../targets/contract.ts';
import type { Fault } from '../core/fault.ts';
import type { FaultLog } from '../core/fault-log.ts';
import type { StartedStore, StoreKind } from '../stores/types.ts';
import type { WireProxy } from '../wire/proxy.ts';
import type { WireFaultRecord } from '../wire/records.ts';
import type { StoreView } from './family.ts';
import type { RunningNodes } from './cluster/running-nodes.ts';

/** What a scenario offers a fault at the moment it lands. */
export interface LandingContext {
  /** The holder it lands on (its id, as the evidence names it). */
  readonly holder: { readonly id: string };
  /** The holder's wire proxy, when it talks to the store through one. */
  readonly wire: WireProxy | undefined;
  /** The harness's own connection to the store (its capabilities: killClients, sessionLocks…). */
  view(): StoreView;
  /** The store the run started (its kind for messages, its URL and port for a fault that talks to it). */
  readonly store: StartedStore;
  /** Where the lock lives in the store. */
  readonly lockLocation: StoreLocation;
  /** The lease the holders were asked to use (--ttl): a fault that waits for the store to end it is bounded by it. */
  readonly ttlMs: number;
  /** The run's fault log: what the fault did goes into the evidence. */
  readonly faults: FaultLog;
  /** The store's own nodes, once they run, where the store is the target's cluster (--store cluster). */
  readonly nodes?: RunningNodes | undefined;
}

/** A fault in force on the holder, until lifted. */
export interface Landed {
  readonly reached: true;
  /** The holder's wire record that stays in force while the fault does (it counts what it stopped), when the fault works at its wire proxy. */
  readonly record?: WireFaultRecord;
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
  /**
   * The stores it lands on (those whose family has what it needs: a connection the store can close,
   * an etcd lease, a ZooKeeper session). A run that names it on another store is refused before
   * anything starts, and `--explore` puts it only at boundaries on these stores.
   */
  readonly stores: readonly StoreKind[];
  /**
   * Optional: it lands only where the store's servers are the harness's local processes, and why
   * (a member cut off through the relays its peer links pass: containers' do not). Elsewhere it
   * says so and does not land; the container parity leaves such references out, naming this.
   */
  readonly localOnly?: string;
  land(ctx: LandingContext): Promise<Landing>;
}

/**
 * A store's own way to cut a holder off from it, where the harness does not stand between them (a
 * cluster: the holder's node partitioned from the other nodes), for an oracle whose moment is "A
 * is cut off while it runs" (V315). The family names it (`StoreFamily.cutOff`); `cutOff` puts it in
 * force and returns a handle whose `lift` ends it, or says why it does not apply.
 */
export interface StoreCutOff extends Fault {
  readonly stores: readonly StoreKind[];
  cutOff(ctx: LandingContext): Promise<Landing>;
}

export function cutsOff(fault: Fault): fault is StoreCutOff {
  return typeof (fault as Partial<StoreCutOff>).cutOff === 'function';
}

/**
 * "Stop a holder somewhere, then let it go", whatever stops it (src/faults/stops.ts builds the
 * generic ones; a family's fault that lands at a point of its own returns one too).
 */
export interface Stop {
  /** What stops the holder, for progress lines and the evidence ("release#2 DEL, held before it"). */
  readonly what: string;
  /** Resolves when the holder got there and is stopped. */
  readonly reached: Promise<unknown>;
  /** Why it was never reached, when the holder's part finished without it. */
  readonly missed: string;
  /** Let the holder go on (forward what was held, release the latch, SIGCONT). Safe to call twice. */
  release(): void;
  /** It was let go (or, never reached, disarmed). */
  readonly isReleased: boolean;
  /**
   * Reached, but the fault it was to land there said it does not apply (src/faults/land-at-point.ts),
   * and why: the oracle records it, and `--explore` leaves the point out.
   */
  readonly notApplicable?: string | undefined;
}
