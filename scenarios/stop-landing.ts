/**
 * Whether a stop armed on a holder landed: the holder stopped there, or its job ended first, or
 * neither within the timeout; a stop in force, with the harness ms it landed; and the records of
 * the stops the fault flows share (a stop at an explored point, a renewal held). Used by A's stops
 * in an oracle and by the flows in this folder (./cluster-grant-hold.ts, ./redlock-quorum-point.ts).
 */
import type { CallOutcome } from '../src/holder/holder.ts';
import type { ExploreFault } from '../src/oracle/explore-point.ts';
import type { Scenario } from '../src/oracle/scenario.ts';
import type { Stop } from '../src/faults/stops.ts';

/** Which came first after a stop was armed: the holder stopped there, its job ended, or neither within the timeout. */
export type StopLanding = 'held' | 'ended' | 'timeout';

/** A stop in force on A, and the harness ms it landed. */
export interface StoppedA {
  stop: Stop;
  since: number;
}

/** --explore: A stopped at the point's boundary. */
export interface PointStop {
  kind: 'point';
  landed: StopLanding;
  /** The boundary ("job#3 EVALSHA") and the point in words. */
  label: string;
  words: string;
  /** Why the point was missed, when A's job ended first. */
  missed: string;
  since: number;
  /** The point's fault (absent in runs recorded before it was kept). */
  fault?: ExploreFault;
  /** A fault that lands itself, landed once A was held there, said it does not apply there, and why (the point is left out). */
  notApplicable?: string;
}

/** A's next renewal held: at its wire proxy, or (a cluster) the grant answering its node's renewal, on its link. */
export interface RenewalHeldStop {
  kind: 'renewal-wire';
  landed: StopLanding;
  /** The renewal held and when it reached the proxy; null when none was. */
  held: { command: string; atMs: number } | null;
  /** What the hold looked for, in words. */
  holdWhat: string;
  lockKey: string;
  /** Whether the harness can read where the lock lives on this store. */
  lockReadable: boolean;
  /** Where it was held, when not at A's wire proxy: a cluster's link ("the link n3→n1"). */
  at?: string;
}

/** Which came first once the stop was armed: A stopped there, or A's job ended (or neither within `timeoutMs`). */
export async function landing(
  s: Scenario,
  timeoutMs: number,
  reached: Promise<unknown>,
  aJob: Promise<CallOutcome>,
): Promise<StopLanding> {
  const first = await s.within(
    Promise.race([reached.then(() => 'held' as const), aJob.then(() => 'ended' as const)]),
    timeoutMs,
  );
  return first ?? 'timeout';
}
