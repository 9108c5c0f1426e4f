/**
 * V313's preconditions: their fixed names, what each checks (the definition declares them), and
 * each one's check from what play recorded, in the order the scenario met them. Pure: no store,
 * no process, no clock.
 */
import { CANDIDATE_PRECONDITIONS } from './judge-candidates.ts';
import { firstLine, type Check } from '../../src/core/judgement.ts';
import type { ParamValues } from '../../src/core/params.ts';
import { sameLock } from '../../src/judging/ownership.ts';
import type { EffectRecord } from '../../src/core/resource.ts';
import type { CallOutcome } from '../../src/holder/holder.ts';
import type { v313Params } from './params.ts';
import type { AStop, V313Observations } from './observations.ts';
import { FAILOVER_PRECONDITIONS, failoverChecks } from './failover-checks.ts';
import { acquireStopChecks, QUORUM_PRECONDITIONS, quorumChecks } from './quorum-checks.ts';

export const WRITES_LEFT = 'the job has writes left after its first';
export const A_REACHED = 'A reached its critical section';
export const A_STOPPED_AT_POINT = 'A was stopped at the explored point';
export const RENEWAL_HELD = "A's renewal was held at the wire";
export const CUT_OFF = "A's next write was held on its way to the resource";
export const STAGED_HELD = 'A was held between a staged write and its commit';
export const FAULT_LANDED = 'the fault landed on A at its first write';
export const SHUTDOWN_LANDED = "A's shutdown began while its job ran";
export const A_LEASE_AT_SHUTDOWN = "A's lease was live until its shutdown took effect";
export const B_DENIED_PAST_LEASE = 'B was denied past the end of a lease A stopped renewing';
export const B_TOOK_DURING_SHUTDOWN = 'B took the lock and wrote';
export const B_TOOK_WHILE_STOPPED = 'A was stopped past its lease and B took the lock';
export const B_CAME_AND_WENT = 'B came and went while A was stopped';
export const A_ON_OLD_LEASE = "A wrote after B's on its old lease";
export const A_LEASE_LAPSED = "A's lease lapsed in the store while A was stopped";
export const B_TOOK_AFTER_LIFT = "B took the lock and wrote after A's fault lifted";
export const A_RAN_ON = 'A ran on after resuming';
export const B_LEASE_LIVE = "B's lease was live at A's writes after B's first";

export const V313_PRECONDITIONS = [
  {
    name: WRITES_LEFT,
    checks: 'run alone by B before A starts, the job finished within --timeout after at least 2 writes',
  },
  { name: A_REACHED, checks: 'A took the lock and made its first write within --timeout' },
  {
    name: A_STOPPED_AT_POINT,
    checks: "--explore: A reached the explored point's boundary after its first write and was stopped there",
  },
  {
    name: RENEWAL_HELD,
    checks: '--variant renewal-wire: A sent a renewal after its first write and its wire proxy held it',
  },
  {
    name: CUT_OFF,
    checks:
      "--variant partition / delay-write: A made another write after its first and it was held on its way to the resource (partition: A's store connections held from then on too)",
  },
  {
    name: STAGED_HELD,
    checks:
      '--variant staged: after its first write A reached its seam write:staged-before-commit (a write staged under the lock and unlocked, not yet committed) and was held there',
  },
  {
    name: FAULT_LANDED,
    checks:
      "--fault NAME of a fault that lands itself (--landed-fault): landed on A held at its first write, it did something there (connection-killed: the store closed at least one of A's connections)",
  },
  {
    name: SHUTDOWN_LANDED,
    checks:
      "--variant shutdown: A's shutdown (--shutdown close: its close member; sigterm: SIGTERM) began at its first write, A went on to its next write or the end of its job, and A's process did not die of the signal mid-job",
  },
  {
    name: A_LEASE_AT_SHUTDOWN,
    checks:
      "--variant shutdown, when no write of A's came after B's: A's lock, read just before its shutdown began, was still live by the store's clock when A reached its next write or ended its job (the shutdown took effect inside A's lease, not after a lapse the load caused, which a job that stops on a lost lock also passes)",
  },
  {
    name: B_DENIED_PAST_LEASE,
    checks:
      "--variant shutdown, when B did not write while A was held at its next write: a try of B that began more than --ttl after A was held there was denied (A had gone on past its shutdown's start, so a lease not renewed since had lapsed by then), and the lock read after B's last try was still live",
  },
  {
    name: B_TOOK_DURING_SHUTDOWN,
    checks: "--variant shutdown: B took the lock and wrote, while A was held at its next write or after A's job",
  },
  {
    name: B_TOOK_WHILE_STOPPED,
    checks: "--contender hold / come-and-go: B took the lock and wrote while A was still stopped (A's lease lapsed)",
  },
  {
    name: B_CAME_AND_WENT,
    checks:
      "--contender come-and-go: the key was live while B wrote, B's job ended and the key was gone from the store, all while A was stopped",
  },
  {
    name: A_ON_OLD_LEASE,
    checks:
      "--contender come-and-go: at A's next write after resuming the key held A's token from before its stop, or nothing (not a new lease A took)",
  },
  {
    name: A_LEASE_LAPSED,
    checks: "--contender after-lift: A's key was gone from the store while A was still stopped",
  },
  {
    name: B_TOOK_AFTER_LIFT,
    checks: "--contender after-lift: B took the lock and wrote after A's fault lifted",
  },
  ...FAILOVER_PRECONDITIONS,
  ...QUORUM_PRECONDITIONS,
  { name: A_RAN_ON, checks: 'A, resumed, finished its job within --timeout' },
  {
    name: B_LEASE_LIVE,
    checks:
      "--contender hold, on a violation: at least one of A's accepted writes after B's first came while B's lease was live, by B's lock read in the store just before the harness accepted that write",
  },
  ...CANDIDATE_PRECONDITIONS,
];

type Params = ParamValues<typeof v313Params>;

/** B's writes in the solo run: every effect up to the solo run's last sequence number. */
export function soloWrites(o: V313Observations, effects: readonly EffectRecord[]): number {
  return effects.filter((e) => e.seq <= o.solo.lastSeq && e.holder === 'B').length;
}

/** The preconditions of the steps the run got to, in the order it met them (B's lease is judged with the property). */
export function scenarioChecks(o: V313Observations, effects: readonly EffectRecord[], p: Params): Check[] {
  const checks: Check[] = [writesLeft(o, effects, p)];
  // B's first write of the scenario proper (the solo run is not judged).
  const bFirst = effects.find((e) => e.holder === 'B' && e.seq > o.solo.lastSeq);
  const since = o.stop ? stoppedSince(o.stop) : undefined;
  if (o.aFirstWrite) checks.push(aReached(o.aFirstWrite, p));
  if (o.stop?.kind === 'point') checks.push(stoppedAtPoint(o.stop, p));
  if (o.stop?.kind === 'renewal-wire') checks.push(renewalHeld(o.stop, p));
  if (o.stop?.kind === 'partition' || o.stop?.kind === 'delay-write') checks.push(cutOff(o.stop, p));
  if (o.stop?.kind === 'staged') checks.push(stagedHeld(o.stop, p));
  if (o.stop?.kind === 'landed') checks.push(faultLanded(o.stop));
  if (o.shutdown) checks.push(...shutdownChecks(o.shutdown, o.aResumed?.job ?? null, bFirst, p));
  if (o.bWhileStopped) {
    const { wrote, attempts, aStopped } = o.bWhileStopped;
    const held = wrote && aStopped && bFirst !== undefined;
    checks.push({
      name: B_TOOK_WHILE_STOPPED,
      held,
      detail: held
        ? `B wrote (resource #${bFirst!.seq}) ${(bFirst!.t - since!).toFixed(1)} ms into A's stop, after ${attempts} attempt(s); the lease was ${p.ttl} ms`
        : `B did not take the lock and write within ${p.timeout} ms of A's stop (${attempts} attempt(s)): A's lease never lapsed, so the fault did not land`,
    });
  }
  if (o.failover) checks.push(...failoverChecks(o.failover, bFirst, p.timeout));
  if (o.quorum) checks.push(...quorumChecks(o.quorum, bFirst, p.ttl));
  if (o.acquireStop) checks.push(...acquireStopChecks(o.acquireStop, bFirst));
  if (o.bCameAndWent) checks.push(cameAndWent(o.bCameAndWent, p));
  if (o.aNextWrite) checks.push(onOldLease(o.aNextWrite, o.aTokenAtStop, o.aInoAtStop));
  if (o.aLeaseLapsed) {
    const { lapsed, seen, readAt, aStopped } = o.aLeaseLapsed;
    checks.push({
      name: A_LEASE_LAPSED,
      held: lapsed && !seen.exists && aStopped,
      detail: !seen.exists
        ? `the key was gone ${(readAt - since!).toFixed(1)} ms into A's stop; the lease was ${p.ttl} ms`
        : `the key was still there (PTTL ${seen.pttlMs} ms) ${p.timeout} ms into A's stop: A's lease never lapsed, so the fault did not land`,
    });
  }
  if (o.bAfterLift) {
    const { wrote, attempts, aAtNextWrite } = o.bAfterLift;
    checks.push({
      name: B_TOOK_AFTER_LIFT,
      held: wrote && bFirst !== undefined,
      detail: bFirst
        ? `B wrote (resource #${bFirst.seq}) ${(bFirst.t - since!).toFixed(1)} ms after A's stop began, after ${attempts} attempt(s)`
        : `B did not take the lock and write within ${p.timeout} ms of A resuming (${attempts} attempt(s))` +
          (aAtNextWrite ? ': A, resumed, held the lock again' : ''),
    });
  }
  if (o.aResumed) {
    const end = o.aResumed.job;
    checks.push({
      name: A_RAN_ON,
      held: end !== null,
      detail: end
        ? `A's job ${end.ok ? 'returned' : `threw (${firstLine(end.error)})`} at ${end.endedAt} ms`
        : `A's job did not finish within ${p.timeout} ms of resuming`,
    });
  }
  return checks;
}

/** When A's stop landed (harness ms); undefined for a renewal never held. */
function stoppedSince(stop: AStop): number | undefined {
  return stop.kind === 'renewal-wire' ? stop.held?.atMs : stop.since;
}

function writesLeft(o: V313Observations, effects: readonly EffectRecord[], p: Params): Check {
  const alone = o.solo.job;
  const writes = soloWrites(o, effects);
  return {
    name: WRITES_LEFT,
    held: alone !== null && writes >= 2,
    detail:
      alone === null
        ? `run alone, the job did not finish within ${p.timeout} ms`
        : `run alone, the job ${alone.ok ? 'returned' : `threw (${firstLine(alone.error)})`} after ${writes} write(s)` +
          (writes >= 2 ? '' : ': A is stopped after its first write, so there would be nothing left to judge'),
  };
}

function aReached({ at, attempts, lastTry }: NonNullable<V313Observations['aFirstWrite']>, p: Params): Check {
  return {
    name: A_REACHED,
    held: at !== null,
    detail:
      at !== null
        ? `A made its first write at ${at} ms`
        : `A made no write within ${p.timeout} ms (${attempts} attempt(s)${lastTry?.threw ? `, the last threw: ${firstLine(lastTry.error)}` : ''}): it never held the lock, so nothing can be judged`,
  };
}

function stoppedAtPoint(stop: Extract<V313Observations['stop'], { kind: 'point' }>, p: Params): Check {
  return {
    name: A_STOPPED_AT_POINT,
    held: stop.landed === 'held' && stop.notApplicable === undefined,
    detail:
      stop.notApplicable !== undefined
        ? `A was held at ${stop.label}, and ${stop.fault} did not apply there (A let go at once): ${stop.notApplicable}`
        : stop.landed === 'held'
          ? `${stop.words} from ${stop.since.toFixed(1)} ms`
          : stop.landed === 'ended'
            ? stop.missed
            : `A did not reach the point (${stop.label}) within ${p.timeout} ms of its first write`,
  };
}

function shutdownChecks(
  sd: NonNullable<V313Observations['shutdown']>,
  aEnd: CallOutcome | null,
  bFirst: EffectRecord | undefined,
  p: Params,
): Check[] {
  const how = sd.by === 'close' ? "A's close()" : 'SIGTERM to A';
  const died = sd.outcome && 'exited' in sd.outcome && aEnd !== null && !aEnd.ok && !aEnd.threw;
  const checks: Check[] = [
    {
      name: SHUTDOWN_LANDED,
      held: sd.aNextWrite !== 'timeout' && !died,
      detail: died
        ? `A's process ended (${sd.outcome && 'exited' in sd.outcome ? `killed by ${sd.outcome.exited}` : 'exited'}) before its job did: the target does not shut down gracefully on SIGTERM, so this is a kill, not a shutdown. Handle SIGTERM in the target (process.on('SIGTERM', ...)), or use --shutdown close`
        : sd.aNextWrite === 'timeout'
          ? `after ${how} at ${sd.at.toFixed(1)} ms A neither wrote again nor ended its job within ${p.timeout} ms`
          : `${how} at ${sd.at.toFixed(1)} ms, at A's first write; A then ${sd.aNextWrite === 'held' ? 'made its next write (held there, its receipt withheld while its process ran)' : 'ended its job without another write'}` +
            (sd.outcome && 'threw' in sd.outcome ? `; close() threw: ${firstLine(sd.outcome.threw)}` : ''),
    },
  ];
  const during = sd.bWhileHeld;
  if (during && !during.wrote) checks.push(deniedPastLease(sd, during, p));
  const tries = (during?.attempts ?? 0) + (sd.bAfter?.attempts ?? 0);
  checks.push({
    name: B_TOOK_DURING_SHUTDOWN,
    held: bFirst !== undefined && (during?.wrote === true || sd.bAfter?.wrote === true),
    detail: bFirst
      ? `B wrote (resource #${bFirst.seq}) ${(bFirst.t - sd.at).toFixed(1)} ms into A's shutdown, ${during?.wrote ? 'while A was held at its next write' : "after A's job ended"} (${tries} tries)`
      : `B did not take the lock and write within ${p.timeout} ms of A's job ending (${tries} tries)`,
  });
  return checks;
}

/**
 * B denied while A was held at its next write proves A kept renewing only past a lease A could
 * have renewed before its shutdown took effect: measured from when A was seen held there (A had
 * gone on past the shutdown's start), not from when the harness began it, since under load the
 * harness, the signal or A itself may lag by more than a lease. The lock read after B's last try
 * must still be live too: the store's own clock saying A renewed after that.
 */
function deniedPastLease(
  sd: NonNullable<V313Observations['shutdown']>,
  during: NonNullable<NonNullable<V313Observations['shutdown']>['bWhileHeld']>,
  p: Params,
): Check {
  const { heldAt, aLockAfter: lock } = sd;
  const late = heldAt !== undefined && during.lastDeniedAt !== null && during.lastDeniedAt > heldAt + p.ttl;
  const live = lock === undefined || lock.exists;
  const tries = `${during.attempts} tries`;
  return {
    name: B_DENIED_PAST_LEASE,
    held: late && live,
    detail:
      (heldAt === undefined
        ? `when A was held at its next write was not recorded (${tries}): whether A still renewed its lease is not known`
        : late
          ? `B's try begun ${(during.lastDeniedAt! - heldAt).toFixed(1)} ms after A was held at its next write (${(heldAt - sd.at).toFixed(1)} ms into its shutdown) was denied (${tries}), past the ${p.ttl} ms a lease not renewed since then could last`
          : `B made no try more than ${p.ttl} ms after A was held at its next write (${tries}): whether A still renewed its lease is not known`) +
      (lock
        ? `; ${lock.where} then gave ${lock.exists ? `${JSON.stringify(lock.value)} with ${lock.pttlMs} ms left` : 'nothing'}` +
          (live ? '' : ": B was denied a lock no one held, so B's denials say nothing of A's renewals")
        : '') +
      (late && live ? ': A kept its lease while its job ran' : ''),
  };
}

/**
 * A PASS needs A's shutdown to take effect inside A's lease: A, read live just before its shutdown
 * began, was still surely live (by the store's clock) when A was seen held at its next write or
 * its job ended. A lease that had lapsed by then was lost to the load, not handed on by the
 * shutdown, and a job that stops on a lost lock then writes nothing after B's whatever its
 * shutdown does. Not judged where the store cannot show the lock (its reading says why); a run
 * recorded with no reading at all proves nothing.
 */
export function aLeaseAtShutdown(
  sd: NonNullable<V313Observations['shutdown']>,
  aEnd: CallOutcome | null,
): Check | undefined {
  const lock = sd.aLockAtStart;
  if (sd.aNextWrite === 'timeout' || (lock && 'unreadable' in lock)) return undefined;
  if (!lock)
    return {
      name: A_LEASE_AT_SHUTDOWN,
      held: false,
      detail:
        "A's lock was not read as its shutdown began (a run recorded before the harness read it), so whether the shutdown took effect inside A's lease is not known",
    };
  const tookEffect = sd.aNextWrite === 'held' ? sd.heldAt : aEnd?.endedAt;
  const what = sd.aNextWrite === 'held' ? 'A was held at its next write' : "A's job ended without another write";
  const live = lock.exists && tookEffect !== undefined && tookEffect < lock.liveUntil;
  const read = `${lock.where} just before the shutdown (${lock.sentAt.toFixed(1)} ms) gave ${lock.exists ? `${JSON.stringify(lock.value)} with ${lock.pttlMs} ms left` : 'nothing'}`;
  return {
    name: A_LEASE_AT_SHUTDOWN,
    held: live,
    detail:
      tookEffect === undefined
        ? `${read}; when ${what} was not recorded, so whether the shutdown took effect inside A's lease is not known`
        : live
          ? `${read}, so A's lease was surely live until ${lock.liveUntil.toFixed(1)} ms; ${what} at ${tookEffect.toFixed(1)} ms, inside it`
          : `${read}${lock.exists ? `, so A's lease was surely live only until ${lock.liveUntil.toFixed(1)} ms` : ''}; ${what} at ${tookEffect.toFixed(1)} ms, after: the lease may have lapsed under load before the shutdown took effect (a job that stops on a lost lock then writes nothing after B's whatever its shutdown does), so the fault did not land inside the window`,
  };
}

function cutOff(stop: Extract<AStop, { kind: 'partition' | 'delay-write' }>, p: Params): Check {
  return {
    name: CUT_OFF,
    held: stop.landed === 'held',
    detail:
      stop.landed === 'held'
        ? `${stop.words}, from ${stop.since.toFixed(1)} ms`
        : stop.landed === 'ended'
          ? "A's job ended without another write after its first: nothing to hold"
          : `A made no other write within ${p.timeout} ms of its first`,
  };
}

function faultLanded(stop: Extract<AStop, { kind: 'landed' }>): Check {
  return {
    name: FAULT_LANDED,
    held: stop.took,
    detail: stop.notLanded
      ? `${stop.fault} was tried at A's first write and did not land: ${stop.words}`
      : stop.took
        ? `${stop.words}, from ${stop.since.toFixed(1)} ms`
        : `${stop.fault} did nothing at A's first write (${stop.words})`,
  };
}

function stagedHeld(stop: Extract<AStop, { kind: 'staged' }>, p: Params): Check {
  return {
    name: STAGED_HELD,
    held: stop.landed === 'held',
    detail:
      stop.landed === 'held'
        ? `${stop.words}, from ${stop.since.toFixed(1)} ms`
        : stop.landed === 'ended'
          ? "A's job ended without reaching its seam write:staged-before-commit after its first write: the target stages no write (env.seam(STAGED_WRITE_SEAM) between its unlock and its commit: targets/contract.ts), so nothing was held"
          : `A reached no seam write:staged-before-commit within ${p.timeout} ms of its first write`,
  };
}

function renewalHeld(stop: Extract<V313Observations['stop'], { kind: 'renewal-wire' }>, p: Params): Check {
  const { held, landed, holdWhat, lockKey, lockReadable, at = 'its wire proxy' } = stop;
  return {
    name: RENEWAL_HELD,
    held: held !== null,
    detail: held
      ? `A's renewal (${held.command}) was held at ${at} from ${held.atMs} ms`
      : landed === 'ended'
        ? `A's job ended without renewing its lease (${holdWhat}) after its first write: nothing to hold. A helper with no renewal is judged by --variant pause; one that renews on a timer needs --steps × --stepMs longer than its renewal period` +
          (lockReadable ? `; one whose lock does not live under ${lockKey} must declare where with storeKey(env)` : '')
        : `A sent no renewal ${at === 'its wire proxy' ? 'the wire proxy recognises' : `held at ${at}`} within ${p.timeout} ms of its first write (${holdWhat})` +
          (lockReadable
            ? `; if the lock does not live under ${lockKey}, declare where with storeKey(env) (targets/contract.ts)`
            : ''),
  };
}

function cameAndWent(went: NonNullable<V313Observations['bCameAndWent']>, p: Params): Check {
  const { during, job, gone, after, aStopped } = went;
  return {
    name: B_CAME_AND_WENT,
    held: job !== null && gone && !after.exists && aStopped && during.exists && during.pttlMs > 0,
    detail:
      `while B wrote the key ${during.exists ? `was live in the store (PTTL ${during.pttlMs} ms)` : 'was absent'}; ` +
      (job === null
        ? `B's job did not end within ${p.timeout} ms`
        : `B's job ${job.ok ? 'returned' : `threw (${firstLine(job.error)})`} at ${job.endedAt} ms and the key was ${after.exists ? `still there (PTTL ${after.pttlMs} ms)` : 'gone'}` +
          (aStopped ? ', all while A was stopped' : ', but A was no longer stopped')),
  };
}

/**
 * come-and-go: A's writes after B's break A's section only on A's old lease (its token still in
 * the key, or no lock at all). A new token there is a new lease A took on the free lock, in a
 * new critical section that B's no longer overlaps (B came and went before): not judged.
 */
function onOldLease(
  atNext: NonNullable<V313Observations['aNextWrite']>,
  aTokenAtStop: string | null | undefined,
  aInoAtStop: number | undefined,
): Check {
  const newLease =
    atNext.exists &&
    aTokenAtStop !== undefined &&
    !sameLock({ exists: true, value: aTokenAtStop, ino: aInoAtStop ?? null }, atNext);
  return {
    name: A_ON_OLD_LEASE,
    held: !newLease,
    detail: !atNext.exists
      ? `at A's next write after resuming ${atNext.where} ${atNext.free ?? 'found nothing'}: A wrote holding no lock`
      : newLease
        ? `at A's next write after resuming ${atNext.where} gave ${JSON.stringify(atNext.value)}, not the lock A held when stopped (${JSON.stringify(aTokenAtStop)}${atNext.value === aTokenAtStop ? `, inode ${aInoAtStop}; now inode ${atNext.ino}` : ''}): A took the free lock again with a new lease after B had come and gone, so its writes after B's are in a new critical section`
        : `at A's next write after resuming ${atNext.where} still gave A's token from before its stop (${JSON.stringify(atNext.value)}): A's old lease went on`,
  };
}
