/**
 * V313's scenario: B runs the job alone once (to count its writes); A runs the job and, at its
 * first write, the run's fault lands on it (./stop-a.ts: stopped, its renewal held, the explored
 * point's fault, a fault that lands itself; or its shutdown begins, scenarios/shutdown.ts) until its
 * lease lapsed and B wrote; the contenders act around it (./contenders.ts, ./race.ts); A runs on.
 * A fault that plays its own flow (scenarios/fault-flows.ts: --fault, its --variant alias, or the
 * explored point's) takes A and B from B's solo run on. Records what happened (./observations.ts).
 */
import { UsageError } from '../../src/core/errors.ts';
import type { ParamValues } from '../../src/core/params.ts';
import { throwIfTargetThrew } from '../../src/holder/holder.ts';
import { NO_LANDED_FAULT } from '../../src/oracle/landed-fault.ts';
import type { Scenario } from '../../src/oracle/scenario.ts';
import { contenderIds } from '../../scenarios/contenders.ts';
import { flowOf } from '../../scenarios/fault-flows.ts';
import { wireIfAny } from '../../scenarios/holder-wire.ts';
import { shutDownA } from '../../scenarios/shutdown.ts';
import { runAToFirstWrite } from './a-first-write.ts';
import { contendAfterLift, contendWhileStopped } from './contenders.ts';
import type { V313Observations } from './observations.ts';
import { faultOfVariant, type v313Params } from './params.ts';
import { raceAtCandidatePoint, raceWhileStopped } from './race.ts';
import { markLeaseEnd, stopA } from './stop-a.ts';

/** The variants whose A talks through a wire proxy only so that where its lock lives can be inferred. */
const INFERRED_ON: readonly string[] = ['pause', 'delay-write', 'shutdown'];
/** The variants that hold A's traffic at its wire proxy. */
const ON_A_WIRE: readonly string[] = ['renewal-wire', 'partition'];

export async function playV313(s: Scenario, p: ParamValues<typeof v313Params>): Promise<V313Observations> {
  const landing = p.landedFault !== NO_LANDED_FAULT;
  if (landing && (p.variant !== 'pause' || s.point))
    throw new UsageError(
      `--fault ${p.landedFault} lands at A's first write: it does not run with --variant ${p.variant} or --explore`,
    );
  // A talks through its wire proxy where a stop or a point holds its traffic, or (one server, where
  // the family can tell a lock from a command) so a target with no storeKey has its lock located.
  const inferable =
    s.family.commands.lockLocations !== undefined && s.store.topology === undefined && INFERRED_ON.includes(p.variant);
  const wireA = await wireIfAny(s, 'A', ON_A_WIRE.includes(p.variant) || !!s.point || inferable || landing);
  // A fault with its own flow sets up what A connects through (a Redlock master's links) first.
  const flow = await flowOf(s.point?.fault ?? faultOfVariant(p.variant))?.prepare(s, p);
  // --contenders 3 or more (--contender hold): C, D, … race B for the lock (./race.ts); a point on
  // one of them (--explore) holds it inside its take of the dead holder's lock, at its wire proxy.
  const racing = p.contenders >= 3 && p.contender === 'hold' && p.variant === 'pause';
  const onCandidate = racing && s.point?.holder !== undefined && s.point.holder !== 'A' ? s.point.holder : undefined;
  const wireHeld = onCandidate ? await s.wire(onCandidate) : undefined;
  const via = (id: string) => (id === onCandidate && wireHeld ? { url: wireHeld.url } : {});
  // A (and come-and-go's C, the racing contenders) load while B counts the job's writes alone.
  const b = await s.holder('B', via('B'));
  const others = Promise.all([
    s.holder('A', { ...(wireA ? { url: wireA.url } : {}), ...flow?.aConnects }),
    p.contender === 'come-and-go' ? s.holder('C') : undefined,
    Promise.all(
      racing
        ? contenderIds(p.contenders)
            .slice(1)
            .map((id) => s.holder(id, via(id)))
        : [],
    ),
  ]);
  others.catch(() => undefined); // awaited below; a run that ends before then is checked by the engine

  // A is stopped after its first write, so a job with a single write would have nothing left to
  // judge. Learn the job's shape first: B runs it alone, unobstructed, once.
  s.progress('B runs the job alone once, to count the writes it makes unobstructed');
  s.phase('solo', 'B alone, counting writes (not judged)');
  const alone = await s.within(b.call('job'), p.timeout);
  throwIfTargetThrew('B', 'job', alone, 'running alone on a free lock, with no fault (the run that counts the writes)');
  const o: V313Observations = { solo: { job: alone ?? null, lastSeq: s.resource.effects().length } };
  if (alone === undefined || s.resource.effects().filter((e) => e.holder === 'B').length < 2) return o;

  const [a, c, more] = await others;
  if (flow) {
    const seen: Partial<V313Observations> = await flow.play({ a, b, wireA });
    return Object.assign(o, seen);
  }
  const atFirst = await runAToFirstWrite(s, p, a, alone, o, wireA);
  if (!atFirst) return o;
  const { aJob, first } = atFirst;
  const retryEvery = Math.max(5, Math.round(p.ttl / 10));
  if (p.variant === 'shutdown') return Object.assign(o, await shutDownA(s, p, { a, b }, first, aJob, retryEvery));
  const race = { s, p, a, candidates: [b, ...more], retryEvery, o };
  if (onCandidate) return await raceAtCandidatePoint(race, s.point!, wireHeld!, o.aFirstWrite!.at!).then(() => o);
  const { observed, stopped } = await stopA(s, p, a, first, aJob, wireA);
  o.stop = observed;
  if (!stopped) return o;
  await markLeaseEnd(s, p, stopped, o);
  if (racing) return await raceWhileStopped(race, stopped.stop, aJob).then(() => o);
  const contest = { s, p, a, b, c, aJob, stopped, retryEvery, o };
  if (p.contender === 'after-lift') await contendAfterLift(contest);
  else await contendWhileStopped(contest);
  return o;
}
