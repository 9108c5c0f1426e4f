/**
 * A fault that plays its own flow: a topology's fault whose landing is more than a stop of A (a
 * Redlock master faulted while A holds on a bare majority, A stopped inside its multi-master
 * acquire, the master failed over while A holds). The oracle names the moment — A and B, once B
 * ran the job alone — and the flow does the rest: it sets up what A connects through before any
 * holder starts, then plays A and B through the fault and returns what it saw. An oracle that plays
 * its own holders (V315's leaders) names another moment instead, where the flow has it (`onceLocked`):
 * armed before any holder starts, landed once A holds the lock and is held there. ./fault-flows.ts
 * finds the flow of a fault by its name; the fault's declaration (its doc, where it lands, its
 * not-applicable rule) is its family's (src/families/redis/topology/faults/).
 */
import type { ExploreFault } from '../src/core/fault.ts';
import type { CallOutcome, Holder } from '../src/holder/holder.ts';
import type { Scenario } from '../src/oracle/scenario.ts';
import type { WireProxy } from '../src/wire/proxy.ts';
import type { PointStop } from './stop-landing.ts';

/** The run's parameters a flow reads (an oracle's params satisfy it). */
export interface FlowParams {
  /** The lease TTL the target is asked to use (ms). */
  ttl: number;
  /** The longest wait for any step (ms). */
  timeout: number;
  /** What happens to a Redlock master (a NodeFaultKind of ./node-faults.ts), when the run did not explore a point that says. */
  nodeFault: string;
}

/** What every flow records of A, step by step (a step the run never got to is absent); each flow adds its own. */
export interface FlowRecords {
  /** A's tries to reach its first write: when it made it (null: never). */
  aFirstWrite?: { at: number | null; attempts: number; lastTry: CallOutcome | null };
  /** An explored point: A stopped at its boundary. */
  stop?: PointStop;
  /** A's job once let go: how it ended (null: not within the timeout). */
  aResumed?: { job: CallOutcome | null };
}

/** The two holders, once B ran the job alone, and A's wire proxy when it has one. */
export interface FlowHolders {
  a: Holder;
  b: Holder;
  wireA: WireProxy | undefined;
}

/** A flow made ready before any holder starts. */
export interface PreparedFlow<Records extends FlowRecords> {
  /** What A is started with: its own links to the masters (`urls`), or nothing more. */
  readonly aConnects: { urls?: string[] };
  play(holders: FlowHolders): Promise<Records>;
}

/**
 * The moment of an oracle that plays its own holders (V315's leaders): the fault armed before any
 * holder starts (a failover holds the master's replication from before A leads), landed by the
 * oracle once A holds the lock and is held there; `Landed`: what it did, for the evidence.
 */
export interface OnceLocked<Landed> {
  /** How A is held at an explored point while the fault lands (a failover: its reply withheld, the command run on the master). */
  readonly holdsAtPoint: ExploreFault;
  /** Arm it now; `why` names the run in a usage error (the topology cannot take the fault). Returns the landing, resolved once it landed. */
  arm(s: Scenario, p: { timeout: number }, why: string): Promise<() => Promise<Landed>>;
}

/**
 * A fault's flow; `Records`: what it saw (FlowRecords and its own step's record); `Landed`: what it
 * did when an oracle playing its own holders landed it (`onceLocked`).
 */
export interface FaultFlow<Records extends FlowRecords = FlowRecords, Landed = never> {
  /** Before any holder starts; a usage error when the run's store or topology cannot take the fault. */
  prepare(s: Scenario, p: FlowParams): Promise<PreparedFlow<Records>>;
  /** The moment an oracle playing its own holders lands it at. Absent: the fault lands only as `prepare`'s flow plays it. */
  readonly onceLocked?: OnceLocked<Landed>;
}
