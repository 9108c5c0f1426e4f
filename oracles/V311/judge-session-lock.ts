/**
 * V311's judgement on a session advisory lock (Postgres, no lease row declared), a pure function of
 * what play recorded: such a lock has no TTL; it is freed when the server session holding it ends.
 * A killed holder's own session ends with its connection, so a contender must take the lock within
 * TTL + grace of A's take, or late within the patience bound (a FAIL with --strict-ttl on). Still
 * denied at the patience bound, the run FAILs only if the session that held A's lock at the kill
 * still holds it then: that session outlived A (a pooler's server connection, say). A lock free by
 * then, or held by another session, makes the denial the contenders' own (INCONCLUSIVE).
 */
import { nothingProven, type Check, type Judgement } from '../../src/core/judgement.ts';
import type { ParamValues } from '../../src/core/params.ts';
import type { HistoryEvent } from '../../src/core/history.ts';
import { heldAtOnce, type ContenderTry } from '../../scenarios/contenders.ts';
import type { V311Observations } from './observations.ts';
import type { v311Params } from './params.ts';
import { patienceWaited, type LockOutcome } from './outcome.ts';
import { sessionsInWords } from './session-lock.ts';

export const A_SESSION_LOCKED = "A's session held the advisory lock when A was killed";
export const LOCK_ON_A_SESSION = "the session that held A's lock at the kill still held it when the contenders gave up";

export const SESSION_LOCK_PRECONDITIONS = [
  {
    name: A_SESSION_LOCKED,
    checks:
      'a session advisory lock (Postgres, no lease row declared): pg_locks showed an advisory lock granted to a session of A right before the kill',
  },
  {
    name: LOCK_ON_A_SESSION,
    checks:
      "a session advisory lock, the contenders still denied (at the patience bound; with --strict-ttl on and the lock taken late, at TTL + grace): pg_locks then showed the lock granted to the session that held A's at the kill (else their denial is their own)",
  },
];

/**
 * Judges a session-lock run whose stop (if any) landed. `shared` are V311's own checks of the kill
 * and of two grants' overlap (judge.ts), appended to this judgement's.
 */
export function judgeSessionLockV311(
  o: V311Observations,
  history: readonly HistoryEvent[],
  p: ParamValues<typeof v311Params>,
  shared: readonly Check[],
  pairInWords: (pair: [ContenderTry, ContenderTry]) => string,
  out: LockOutcome | undefined,
): Judgement {
  const locks = o.sessionLocks!;
  const aSessions = locks.atKill.filter((lock) => lock.holder === 'A').map((lock) => lock.session);
  const tries = out?.everyTry ?? o.contenders ?? [];
  const atOnce = heldAtOnce(tries, p.ttl);
  const strict = p.strictTtl === 'on';
  const preconditions: Check[] = [
    {
      name: A_SESSION_LOCKED,
      held: aSessions.length > 0,
      detail: `pg_locks right before the kill: ${sessionsInWords(locks.atKill)}`,
    },
    ...shared,
  ];
  // The denial the verdict rests on: at the patience bound (still held), or at TTL + grace (taken late, --strict-ttl on).
  const deniedAt =
    out?.kind === 'held'
      ? { read: o.watch?.lastSessions ?? locks.stuck, when: 'at the patience bound' }
      : out?.kind === 'late' && strict
        ? { read: locks.stuck, when: 'at TTL + grace' }
        : undefined;
  if (out?.kind === 'held') preconditions.push(patienceWaited(out, o));
  const keptBy = (deniedAt?.read ?? []).filter((lock) => aSessions.includes(lock.session));
  if (deniedAt)
    preconditions.push({
      name: LOCK_ON_A_SESSION,
      held: keptBy.length > 0,
      detail:
        keptBy.length > 0
          ? `pg_locks ${deniedAt.when}: ${sessionsInWords(deniedAt.read ?? [])}, the session that held A's lock at the kill`
          : `pg_locks ${deniedAt.when}: ${sessionsInWords(deniedAt.read ?? [])}, not the session that held A's lock at the kill (${aSessions.join(', ')}): A's lock was freed, so the contenders' denial is their own`,
    });
  const judged = out !== undefined && aSessions.length > 0;
  const taken = out !== undefined && out.kind !== 'held';
  const held = judged && taken && (out.kind === 'in-time' || !strict) && atOnce.length === 0;
  const waitedMs = out?.lifetimeMs ?? 0;
  const taker = out?.taker ?? 'B';
  const afterKill = locks.afterKill ?? [];
  return {
    preconditions,
    counts: {
      bAcquired: taken ? 1 : 0,
      contendersAfterA: Math.max(1, (o.contenders ?? []).length),
      contendersGranted: tries.length ? tries.filter((t) => t.granted).length : taken ? 1 : 0,
      pairsHoldingAtOnce: atOnce.length,
      bWaitedMs: Math.round(waitedMs),
      bAttempts: out?.attempts ?? 0,
      observationsWithNoExpiry: 0,
      sessionsKeepingALockAfterTheKill: afterKill.filter((lock) => aSessions.includes(lock.session)).length,
      tookLate: out?.kind === 'late' ? 1 : 0,
      patienceMs: out?.patienceMs ?? 0,
      waitedToPatience: out?.waitedToBound ? 1 : 0,
    },
    property: {
      name: "the dead holder's lock frees: a contender takes it within TTL + grace, or late within the patience bound (a FAIL with --strict-ttl on); no two hold it at once",
      held,
      detail: !judged
        ? 'not judged'
        : atOnce.length
          ? `${atOnce.map(pairInWords).join('; ')}: two contenders held the dead holder's lock at once`
          : out.kind === 'in-time'
            ? `${taker} took the lock ${waitedMs.toFixed(0)} ms after A took it; A's session lock was freed when its connection closed`
            : out.kind === 'late'
              ? `${strict ? 'the lock frees, but not within its TTL' : 'freed late'}: ${taker} took the lock ${waitedMs.toFixed(0)} ms after A took it, past TTL ${p.ttl} + grace ${p.grace} ms`
              : `${out.waitedToBound ? `still held after the ${out.patienceMs} ms patience bound: ` : ''}every contender was still denied ${waitedMs.toFixed(0)} ms after A took it (${out.attempts} attempts); the lock stayed on ${sessionsInWords(keptBy)}, which outlived A`,
      offending: held
        ? []
        : history.filter((e) =>
            atOnce.length
              ? e.kind === 'acquire-ok' && e.holder !== 'A'
              : e.kind === 'acquire-denied' && e.holder !== 'A',
          ),
    },
    explanation: explain(),
  };

  function explain(): string {
    const unproven = nothingProven(preconditions);
    if (unproven || !judged || !out) return unproven ?? 'Nothing was proven.';
    const killed = `A was killed (SIGKILL) holding a session advisory lock (pg_locks: ${sessionsInWords(locks.atKill)}).`;
    if (atOnce.length)
      return `${killed} ${atOnce.map(pairInWords).join('; ')}: two contenders took the dead holder's lock and held it at once.`;
    if (out.kind === 'in-time')
      return `${killed} The lock was freed once A's connection closed (its server session ended, or its pooler reset it): ${taker} took it ${waitedMs.toFixed(0)} ms after A had taken it (TTL ${p.ttl} + grace ${p.grace} ms allowed)${tries.length > 1 ? `, and no other of the ${tries.length} contenders held it meanwhile` : ''}.`;
    if (out.kind === 'late')
      return `${killed} ${strict ? 'The lock frees, but not within its TTL (--strict-ttl on)' : 'The lock freed late'}: ${taker} took it ${waitedMs.toFixed(0)} ms after A had taken it, past TTL ${p.ttl} + grace ${p.grace} ms (patience bound ${out.patienceMs} ms).${strict ? '' : ' The lock frees, so this PASSes with its lifetime; run with --strict-ttl on to hold it to its TTL.'}`;
    return (
      `${killed} ${waitedMs.toFixed(0)} ms after A took it, past the ${out.patienceMs} ms patience bound, the contenders were still denied, and pg_locks still showed the lock granted to ${sessionsInWords(keptBy)}: ` +
      `the server session holding it outlived A's process (a pooler's server connection returned to its pool without a reset, e.g. PgBouncer in session mode with an empty server_reset_query), so nothing frees the lock until that session ends. ` +
      `Take a session lock only on a session that ends with its holder (its own connection, or a pooler that runs DISCARD ALL when a client leaves), or use a transaction-scoped lock (pg_advisory_xact_lock).`
    );
  }
}
