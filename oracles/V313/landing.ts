/**
 * Whether a stop armed on A landed: A stopped there, or its job ended first, or neither within
 * --timeout; and a stop in force on A, with the harness ms it landed. Shared by A's stops
 * (./stop-a.ts), the cluster's held grant (./link-renewal.ts) and the quorum point (./quorum-point.ts).
 */
import type { ParamValues } from '../../src/core/params.ts';
import type { CallOutcome } from '../../src/holder/holder.ts';
import type { Scenario } from '../../src/oracle/scenario.ts';
import type { Stop } from '../../src/oracle/stops.ts';
import type { StopLanding } from './observations.ts';
import type { v313Params } from './params.ts';

type Params = ParamValues<typeof v313Params>;

/** A stop in force on A, and the harness ms it landed. */
export interface StoppedA {
  stop: Stop;
  since: number;
}

/** Which came first once the stop was armed: A stopped there, or A's job ended (or neither within --timeout). */
export async function landing(s: Scenario, p: Params, reached: Promise<unknown>, aJob: Promise<CallOutcome>) {
  const first = await s.within(
    Promise.race([reached.then(() => 'held' as const), aJob.then(() => 'ended' as const)]),
    p.timeout,
  );
  return first ?? ('timeout' satisfies StopLanding);
}
