/**
 * V312's judgement, a pure function of what play recorded: A, running the job while P holds the
 * lock, must make no write. Judged only when P really held the lock, A's job finished, A really
 * tried the lock, and P's lock was still live when A's job ended (and, explored, A was held at its
 * point first).
 */
import { firstLine, nothingProven, type Check, type Judgement } from '../../src/core/judgement.ts';
import type { ParamValues } from '../../src/core/params.ts';
import type { EffectRecord } from '../../src/core/resource.ts';
import { describeSessionLocks } from '../../src/judging/session-locks.ts';
import type { Recorded } from '../../src/oracle/definition.ts';
import { boundaryLabel, pointInWords } from '../../src/oracle/explore-point.ts';
import type { LockReading, V312Observations } from './observations.ts';
import type { v312Params } from './params.ts';

export const HELD_AT_POINT = 'A was held at the explored point';
export const P_HELD = 'P held the lock';
export const A_FINISHED = "A's job finished";
export const A_TRIED = 'A tried to take the lock while P held it';
export const P_STILL_LIVE = "P's lock was still live when A's job ended";

export const V312_PRECONDITIONS = [
  {
    name: HELD_AT_POINT,
    checks: "--explore: A's job reached the point's boundary and was held there before P took the lock",
  },
  {
    name: P_HELD,
    checks:
      'P reached its first write within --timeout, and the store showed its lock (the key on Redis, a granted advisory lock in pg_locks on Postgres)',
  },
  { name: A_FINISHED, checks: "A's job returned or threw within --timeout" },
  { name: A_TRIED, checks: "A's pass-through wire proxy saw at least one command of A's job on the lock" },
  {
    name: P_STILL_LIVE,
    checks:
      "when A's job ended, the key still held P's token or P's lease (its PTTL read while P held it) covered each of A's writes; on Postgres P's session still held the advisory lock",
  },
];

export function judgeV312(
  { observations: o, effects }: Recorded<V312Observations>,
  p: ParamValues<typeof v312Params>,
): Judgement {
  const preconditions: Check[] = [];
  const aEffects = effects.filter((e) => e.holder === 'A');
  const judgement = (): Judgement => {
    const judged = judgementOf(o, preconditions, aEffects, effects);
    const cannot = cannotApply(o);
    return cannot && !judged.preconditions.find((c) => c.name === P_HELD)?.held
      ? { ...judged, notApplicable: cannot }
      : judged;
  };

  if (o.point) {
    const { at, first, missed } = o.point;
    preconditions.push({
      name: HELD_AT_POINT,
      held: first === 'held',
      detail:
        first === 'held'
          ? pointInWords(at)
          : first === 'ended'
            ? missed
            : `A's job neither reached ${boundaryLabel(at.boundary)} nor ended within ${p.timeout} ms`,
    });
    if (first !== 'held') return judgement();
  }

  const held = o.p;
  const keyBefore = held?.key ?? null;
  const locksBefore = held?.sessionLocks ?? null;
  preconditions.push({
    name: P_HELD,
    held: held !== null && (keyBefore === null || keyBefore.exists) && (locksBefore === null || locksBefore.length > 0),
    detail: !held
      ? `P made no write within ${p.timeout} ms: the lock was never pre-held`
      : keyBefore
        ? keyBefore.exists
          ? `P reached its first write; ${keyBefore.where} gave ${JSON.stringify(keyBefore.value)} (PTTL ${keyBefore.pttlMs} ms)`
          : `P reached its first write, but ${held.notFound}`
        : locksBefore
          ? `P reached its first write; pg_locks showed ${describeSessionLocks(locksBefore)}`
          : `P reached its first write at ${held.heldAt} ms`,
  });
  const a = o.a;
  if (!held || !a) return judgement();

  const aEnd = a.job;
  preconditions.push({
    name: A_FINISHED,
    held: aEnd !== null,
    detail: aEnd
      ? `A's job ${aEnd.ok ? 'returned' : `threw (${firstLine(aEnd.error)})`}`
      : `A's job did not finish within ${p.timeout} ms`,
  });
  preconditions.push({
    name: A_TRIED,
    held: a.tries.length > 0,
    detail: a.tries.length
      ? `A was seen making ${a.tries.length} call(s) on the lock (at its wire proxy, or its filesystem boundaries), first: ${a.tries[0]!.slice(0, 80)}`
      : `A's job made no call on ${o.lock.readable ? o.lock.key : 'an advisory lock'} (none at its wire proxy or its filesystem boundaries): it never contended, so its writes (or their absence) prove nothing`,
  });
  const keyAfter = a.key;
  const locksAfter = a.sessionLocks;
  const liveFor = a.readAt - held.heldAt;
  const pSessions = new Set((locksBefore ?? []).map((l) => l.session));
  // On Redis, A's own SET may have overwritten P's key (and A's release removed it): P's lease
  // still counts as live while its PTTL, read when P held the lock, had not run out by A's writes.
  const pLeaseCoversWrites =
    keyBefore !== null && aEffects.length > 0 && aEffects.every((e) => e.t < liveUntil(keyBefore));
  // The key counts as P's only with P's token in it: A's token there may be a lock A took once
  // P's lease had lapsed (a job that waits for the lock and leaves its lease to run out).
  const stillPs = keyAfter !== null && keyAfter.exists && keyAfter.value === keyBefore?.value;
  preconditions.push({
    name: P_STILL_LIVE,
    held: keyAfter
      ? stillPs || pLeaseCoversWrites
      : locksAfter
        ? locksAfter.some((l) => pSessions.has(l.session))
        : liveFor < p.ttl,
    detail: keyAfter
      ? keyWhenAEnded(
          keyAfter.exists,
          stillPs,
          pLeaseCoversWrites,
          JSON.stringify(keyAfter.value),
          keyBefore?.pttlMs,
          aEffects.length,
        )
      : locksAfter
        ? `when A's job ended pg_locks showed ${describeSessionLocks(locksAfter)}`
        : `A's job ended ${liveFor.toFixed(0)} ms after P took a ${p.ttl} ms lease`,
  });
  return judgement();
}

/**
 * Why an explored point cannot let P in, when the store showed A already holding the lock at it
 * (read while A was held there, before P started): P is then refused by the lock itself, so a hold
 * at that boundary tests nothing about whether A checks its acquire. Undefined when it could.
 */
function cannotApply(o: V312Observations): string | undefined {
  const then = o.point?.lockThen;
  if (!o.point || !then) return undefined;
  const at = boundaryLabel(o.point.at.boundary);
  if (then.key?.exists)
    return `A already held the lock at ${at} (${then.key.where} gave ${JSON.stringify(then.key.value)}, PTTL ${then.key.pttlMs} ms, read while A was held there, before P started), so P could not take it there`;
  if (then.sessionLocks?.length)
    return `A already held the lock at ${at} (pg_locks showed ${describeSessionLocks(then.sessionLocks)} while A was held there, before P started), so P could not take it there`;
  return undefined;
}

/** Harness ms before which the key surely still lived by the store's clock (sent + PTTL; unbounded without expiry). */
function liveUntil(key: LockReading): number {
  if (!key.exists) return key.sentAt;
  return key.pttlMs < 0 ? Number.POSITIVE_INFINITY : key.sentAt + key.pttlMs;
}

function keyWhenAEnded(
  exists: boolean,
  stillPs: boolean,
  covers: boolean,
  value: string,
  pttlWhenPHeld: number | undefined,
  aWrites: number,
): string {
  if (stillPs) return `the key still held P's token ${value} when A's job ended`;
  const seen = exists ? `the key held ${value}, not P's token,` : 'the key was gone';
  return covers
    ? `${seen} when A's job ended, but P's lease (PTTL ${pttlWhenPHeld} ms when P held it) was live by the store's clock at each of A's ${aWrites} write(s)`
    : `${seen} when A's job ended` +
        (exists
          ? `, and P's lease (PTTL ${pttlWhenPHeld} ms when P held it) had run out by the store's clock before A's last write: A may have taken a lock P's lease no longer held`
          : '');
}

/** The property (A made no write) with the preconditions checked so far. */
function judgementOf(
  o: V312Observations,
  preconditions: Check[],
  aEffects: EffectRecord[],
  effects: readonly EffectRecord[],
): Judgement {
  const held = aEffects.length === 0;
  return {
    preconditions,
    counts: { aEffects: aEffects.length, pEffects: effects.filter((e) => e.holder === 'P').length },
    property: {
      name: 'A performs 0 effects while another holder has the lock',
      held,
      detail: held ? 'A made no write' : `A made ${aEffects.length} write(s) while P held the lock`,
      offending: aEffects,
    },
    explanation: nothingProven(preconditions) ?? explain(o, held, aEffects.length),
  };
}

function explain(o: V312Observations, held: boolean, writes: number): string {
  const how = o.point
    ? `A started the job and ${pointInWords(o.point.at)} while P took the lock and was held at its first write; then A went on`
    : 'P held the lock (held at its first write) while A ran the job';
  return held
    ? `${how}: A was denied the lock and made no write. The job checks its acquire before its first effect.`
    : `${how}: A made ${writes} write(s) anyway. The job does the work without holding the lock (it ignores its acquire's result, or checks and then takes the lock in two steps).`;
}
