/**
 * A runs the job until its first write (held there), tried again while denied: B's solo run may
 * have left a lease behind that lapses within --ttl. Records when A got there and, where the lock's
 * location is inferred from A's job (no storeKey, nothing at env.key), where A's job took it.
 */
import type { ParamValues } from '../../src/core/params.ts';
import { throwIfTargetThrew, type CallOutcome, type Holder } from '../../src/holder/holder.ts';
import type { Latch } from '../../src/holder/latch.ts';
import type { Scenario } from '../../src/oracle/scenario.ts';
import type { WireProxy } from '../../src/wire/proxy.ts';
import { runJobUntilFirstEffect } from '../../scenarios/run-job-until-effect.ts';
import type { V313Observations } from './observations.ts';
import type { v313Params } from './params.ts';

/** A at its first write: its job (held there) and the latch that holds it; undefined when A never got there. */
export async function runAToFirstWrite(
  s: Scenario,
  p: ParamValues<typeof v313Params>,
  a: Holder,
  alone: CallOutcome,
  o: V313Observations,
  wireA: WireProxy | undefined,
): Promise<{ aJob: Promise<CallOutcome>; first: Latch } | undefined> {
  s.progress('A runs the job');
  s.phase('scenario', 'A runs the job, is stopped; B contends');
  const retryEvery = Math.max(5, Math.round(p.ttl / 10));
  const aJobStartedAt = s.now();
  const aIn = await runJobUntilFirstEffect(a, p.timeout, retryEvery);
  // A lease B's solo run left behind lapses within --ttl: a throw on a try begun later is no denial.
  const lastTry = aIn.job ? undefined : aIn.lastOutcome;
  if (lastTry && lastTry.startedAt - alone.endedAt > p.ttl) {
    throwIfTargetThrew(
      'A',
      'job',
      lastTry,
      `on its try #${aIn.attempts} to reach its first write, begun ${(lastTry.startedAt - alone.endedAt).toFixed(0)} ms after B's solo run ended (longer than the ${p.ttl} ms lease: nobody could hold the lock)`,
    );
  }
  o.aFirstWrite = { at: aIn.job ? aIn.latch.hit!.t : null, attempts: aIn.attempts, lastTry: lastTry ?? null };
  if (!aIn.job) return undefined;
  // A at its first write holds the lock: nothing at env.key and no storeKey, it is where A's job took it.
  if (wireA && s.lockUnreadable === undefined && !(await s.readLock()).exists)
    o.inferred = s.inferLockLocation('A', aJobStartedAt) ?? null;
  return { aJob: aIn.job, first: aIn.latch };
}
