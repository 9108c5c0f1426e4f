/**
 * V313's scenario: B runs the job alone once (to count its writes); A runs the job and is stopped
 * after its first write (./stop-a.ts); the contenders act around the stop (./contenders.ts); A
 * runs on. Records what happened (./observations.ts); judges nothing.
 */
import { UsageError } from '../../src/core/errors.ts';
import type { ParamValues } from '../../src/core/params.ts';
import { NO_LANDED_FAULT } from '../../src/oracle/landed-fault.ts';
import { throwIfTargetThrew } from '../../src/holder/holder.ts';
import type { Scenario } from '../../src/oracle/scenario.ts';
import { runJobUntilFirstEffect } from '../../scenarios/run-job-until-effect.ts';
import { contenderIds } from '../../scenarios/contenders.ts';
import { contendAfterLift, contendWhileStopped } from './contenders.ts';
import { playFailover } from './failover.ts';
import { playPauseInAcquire } from './pause-in-acquire.ts';
import { playQuorum } from './quorum.ts';
import { nodeFaultOfPoint } from './quorum-point.ts';
import { redlockMasters, startHolderLinks } from '../../scenarios/redlock-links.ts';
import { isTopologyFault } from '../../src/faults/registry.ts';
import type { V313Observations } from './observations.ts';
import type { v313Params } from './params.ts';
import { raceAtCandidatePoint, raceWhileStopped } from './race.ts';
import { shutDownA } from './shutdown.ts';
import { markLeaseEnd, stopA } from './stop-a.ts';

/** The variants whose A talks through a wire proxy only so that where its lock lives can be inferred. */
const INFERRED_ON: readonly string[] = ['pause', 'delay-write', 'shutdown'];

export async function playV313(s: Scenario, p: ParamValues<typeof v313Params>): Promise<V313Observations> {
  // An explored point (--explore) stops A after its first write like --variant renewal-wire, at its own boundary.
  // On a cluster store A has no wire: the renewal (./link-renewal.ts) and a point are on node-to-node links.
  // Where the family can tell a lock from a command, A talks through its wire proxy on the plain
  // variants too: a target that declares no storeKey then has its lock's location inferred from A's job.
  // (One server: on a --topology the lock lives on several nodes, read node by node.)
  // A fault that lands itself (--fault NAME) is landed at A's first write by ./stop-a.ts.
  const landing = p.landedFault !== NO_LANDED_FAULT;
  if (landing && (p.variant !== 'pause' || s.point))
    throw new UsageError(
      `--fault ${p.landedFault} lands at A's first write: it does not run with --variant ${p.variant} or --explore`,
    );
  const inferable =
    s.family.commands.lockLocations !== undefined && s.store.topology === undefined && INFERRED_ON.includes(p.variant);
  const wireA =
    (p.variant === 'renewal-wire' || p.variant === 'partition' || s.point || inferable || landing) && !s.family.ownNodes
      ? await s.wire('A')
      : undefined;
  // A (and come-and-go's C) load while B counts the job's writes alone: both are awaited before
  // A runs, so each is ready the moment it is needed.
  // On Postgres B connects under its own application_name: pg_locks then shows which session is B's.
  // A Redlock variant: A reaches every master through its own link, which the scenario can hold.
  // An explored point that restarts a master or steps its clock (--explore --topology redlock:N) is the quorum flow;
  // one that stops A inside its acquire is the pause-in-acquire flow.
  const quorumPoint = nodeFaultOfPoint(s.point) !== undefined;
  const acquirePoint = s.point?.fault === 'pause-in-acquire';
  const redlockVariant = p.variant === 'quorum' || p.variant === 'pause-in-acquire' || quorumPoint || acquirePoint;
  const aLinks = redlockVariant
    ? await startHolderLinks(s, 'A', redlockMasters(s, `--variant ${p.variant}`).masters)
    : undefined;
  // --contenders 3 or more (--contender hold): C, D, … race B for the lock (./race.ts); a point on
  // one of them (--explore) holds it inside its take of the dead holder's lock, at its wire proxy.
  const racing = p.contenders >= 3 && p.contender === 'hold' && p.variant === 'pause';
  const onCandidate = racing && s.point?.holder !== undefined && s.point.holder !== 'A' ? s.point.holder : undefined;
  const wireHeld = onCandidate ? await s.wire(onCandidate) : undefined;
  const via = (id: string) => (id === onCandidate && wireHeld ? { url: wireHeld.url } : {});
  const b = await s.holder('B', via('B'));
  const others = Promise.all([
    s.holder('A', { ...(wireA ? { url: wireA.url } : {}), ...(aLinks ? { urls: aLinks.urls } : {}) }),
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
  if (aLinks && (p.variant === 'quorum' || quorumPoint)) return playQuorum(s, p, a, b, aLinks, o).then(() => o);
  if (aLinks) return playPauseInAcquire(s, p, a, b, aLinks, o).then(() => o);
  // A failover, or an explored point that is one (--explore --topology replicated|sentinel).
  if (p.variant === 'failover' || (s.point && isTopologyFault(s.point.fault)))
    return playFailover(s, p, a, b, o, wireA).then(() => o);
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
  if (!aIn.job) return o;
  const aJob = aIn.job;
  // A at its first write holds the lock: nothing at env.key and no storeKey, it is where A's job took it.
  if (wireA && s.lockUnreadable === undefined && !(await s.readLock()).exists)
    o.inferred = s.inferLockLocation('A', aJobStartedAt) ?? null;

  if (p.variant === 'shutdown') return await shutDownA(s, p, { a, b }, aIn.latch, aJob, retryEvery, o).then(() => o);
  const race = { s, p, a, candidates: [b, ...more], retryEvery, o };
  if (onCandidate) return await raceAtCandidatePoint(race, s.point!, wireHeld!, o.aFirstWrite.at!).then(() => o);
  const { observed, stopped } = await stopA(s, p, a, aIn.latch, aJob, wireA);
  o.stop = observed;
  if (!stopped) return o;
  await markLeaseEnd(s, p, stopped, o);
  if (racing) return await raceWhileStopped(race, stopped.stop, aJob).then(() => o);
  const contest = { s, p, a, b, c, aJob, stopped, retryEvery, o };
  if (p.contender === 'after-lift') await contendAfterLift(contest);
  else await contendWhileStopped(contest);
  return o;
}
