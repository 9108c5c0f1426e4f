/**
 * V311's judgement on a session advisory lock (Postgres, no lease row declared), a pure function of
 * what play recorded: such a lock has no TTL; it is freed when the server session holding it ends.
 * A killed holder's own session ends with its connection, so a contender must take the lock within
 * TTL + grace of A's take. Still denied, the run FAILs only if the session that held A's lock at
 * the kill still holds it when the contenders give up: that session outlived A (a pooler's server
 * connection, say). A lock free by then, or held by another session, makes the denial the
 * contenders' own (INCONCLUSIVE).
 */
import { nothingProven, type Check, type Judgement } from '../../src/core/judgement.ts';
import type { ParamValues } from '../../src/core/params.ts';
import type { HistoryEvent } from '../../src/core/history.ts';
import { heldAtOnce, type ContenderTry } from '../../scenarios/contenders.ts';
import type { V311Observations } from './observations.ts';
import type { v311Params } from './params.ts';
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
      "a session advisory lock, the contenders still denied: pg_locks, read when they gave up, showed the lock granted to the session that held A's at the kill (else their denial is their own)",
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
): Judgement {
  const locks = o.sessionLocks!;
  const aSessions = locks.atKill.filter((lock) => lock.holder === 'A').map((lock) => lock.session);
  const tries = o.contenders ?? [];
  const atOnce = heldAtOnce(tries, p.ttl);
  const b = o.b;
  const preconditions: Check[] = [
    {
      name: A_SESSION_LOCKED,
      held: aSessions.length > 0,
      detail: `pg_locks right before the kill: ${sessionsInWords(locks.atKill)}`,
    },
    ...shared,
  ];
  const keptBy = (locks.stuck ?? []).filter((lock) => aSessions.includes(lock.session));
  if (b && !b.granted)
    preconditions.push({
      name: LOCK_ON_A_SESSION,
      held: keptBy.length > 0,
      detail:
        keptBy.length > 0
          ? `pg_locks when the contenders gave up: ${sessionsInWords(locks.stuck!)}, the session that held A's lock at the kill`
          : `pg_locks when the contenders gave up: ${sessionsInWords(locks.stuck ?? [])}, not the session that held A's lock at the kill (${aSessions.join(', ')}): A's lock was freed, so the contenders' denial is their own`,
    });
  const judged = b !== null && aSessions.length > 0;
  const held = judged && b.granted && atOnce.length === 0;
  const waitedMs = b && o.heldSince !== null ? b.endedAt - o.heldSince : 0;
  const taker = tries.find((t) => t.granted)?.holder ?? 'B';
  const afterKill = locks.afterKill ?? [];
  return {
    preconditions,
    counts: {
      bAcquired: b?.granted ? 1 : 0,
      contendersAfterA: Math.max(1, tries.length),
      contendersGranted: tries.length ? tries.filter((t) => t.granted).length : b?.granted ? 1 : 0,
      pairsHoldingAtOnce: atOnce.length,
      bWaitedMs: Math.round(waitedMs),
      bAttempts: b?.attempts ?? 0,
      observationsWithNoExpiry: 0,
      sessionsKeepingALockAfterTheKill: afterKill.filter((lock) => aSessions.includes(lock.session)).length,
    },
    property: {
      name: "a contender takes the dead holder's lock within TTL + grace; no two hold it at once",
      held,
      detail: !judged
        ? 'not judged'
        : atOnce.length
          ? `${atOnce.map(pairInWords).join('; ')}: two contenders held the dead holder's lock at once`
          : b.granted
            ? `${taker} took the lock ${waitedMs.toFixed(0)} ms after A took it; A's session lock was freed when its connection closed`
            : `every contender was still denied ${waitedMs.toFixed(0)} ms after A took it (${b.attempts} attempts); the lock stayed on ${sessionsInWords(keptBy)}, which outlived A`,
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
    if (unproven || !judged || !b) return unproven ?? 'Nothing was proven.';
    const killed = `A was killed (SIGKILL) holding a session advisory lock (pg_locks: ${sessionsInWords(locks.atKill)}).`;
    if (atOnce.length)
      return `${killed} ${atOnce.map(pairInWords).join('; ')}: two contenders took the dead holder's lock and held it at once.`;
    if (b.granted)
      return `${killed} The lock was freed once A's connection closed (its server session ended, or its pooler reset it): ${taker} took it ${waitedMs.toFixed(0)} ms after A had taken it (TTL ${p.ttl} + grace ${p.grace} ms allowed)${tries.length > 1 ? `, and no other of the ${tries.length} contenders held it meanwhile` : ''}.`;
    return (
      `${killed} ${waitedMs.toFixed(0)} ms after A took it, past TTL ${p.ttl} + grace ${p.grace} ms, the contenders were still denied, and pg_locks still showed the lock granted to ${sessionsInWords(keptBy)}: ` +
      `the server session holding it outlived A's process (a pooler's server connection returned to its pool without a reset, e.g. PgBouncer in session mode with an empty server_reset_query), so nothing frees the lock until that session ends. ` +
      `Take a session lock only on a session that ends with its holder (its own connection, or a pooler that runs DISCARD ALL when a client leaves), or use a transaction-scoped lock (pg_advisory_xact_lock).`
    );
  }
}
