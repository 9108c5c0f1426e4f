/**
 * The judgement of V314's pool scenario, a pure function of what it recorded: pg_locks shows no
 * advisory lock once A's release returned. Judged only when A took the lock, the parallel query
 * was seen holding one of A's pooled connections, and A's release returned while it still did.
 */
import { firstLine, nothingProven, type Check, type Judgement } from '../../src/core/judgement.ts';
import { describeSessionLocks } from '../../src/judging/session-locks.ts';
import type { Recorded } from '../../src/oracle/definition.ts';
import type { V314PoolObservations } from './observations.ts';
import type { V314Params } from './params.ts';

export const A_TOOK_LOCK = 'A took the lock';
export const QUERY_HELD_CONNECTION = "a parallel query held one of A's pooled connections";
export const RELEASE_WHILE_HELD = "A's release ran while the parallel query held its connection";

export function judgePool({ observations: o, history }: Recorded<V314PoolObservations>, p: V314Params): Judgement {
  const preconditions: Check[] = [];
  const held = o.locksAfterAcquire;
  preconditions.push({
    name: A_TOOK_LOCK,
    held: o.acquired && held.length > 0,
    detail: o.acquired
      ? `A's acquire returned a lease; pg_locks showed ${describeSessionLocks(held)}`
      : 'A was denied on an empty server, so there was no lock to release',
  });
  const lockSessions = held.map((l) => l.session);
  const parallel = o.parallel?.waiting ?? null;
  if (o.parallel) {
    preconditions.push({
      name: QUERY_HELD_CONNECTION,
      held: parallel !== null,
      detail: parallel
        ? `A's query "${o.parallel.sql}" waited on the server in session ${parallel.session} (${lockSessions.includes(parallel.session) ? "the session holding A's lock" : `not the lock's session ${lockSessions.join(', ')}`})`
        : `A's parallel query was not seen waiting within ${p.timeout} ms${o.parallel.endedFirst ? ' (it ended first)' : ''}: nothing showed its connection occupied`,
    });
  }
  const release = o.release?.outcome ?? undefined;
  if (parallel && o.release) {
    preconditions.push({
      name: RELEASE_WHILE_HELD,
      held: release?.ok === true && o.release.queryStillWaiting,
      detail:
        release === undefined
          ? `A's release did not return within ${p.timeout} ms: with the parallel query holding a connection it had none to run on (is the pool smaller than ${p.poolMax}?)`
          : !release.ok
            ? `A's release threw: ${firstLine(release.error)}`
            : `A's release returned ${JSON.stringify(release.value)} while session ${parallel.session} still waited at the gate`,
    });
  }

  const leaked = (o.release?.locks ?? []).filter((l) => l.granted);
  const onLockSession = parallel !== null && held.some((l) => l.session === parallel.session);
  return {
    preconditions,
    counts: {
      advisoryLocksAfterAcquire: held.length,
      advisoryLocksAfterRelease: leaked.length,
      advisoryLocksAfterParallelQuery: (o.locksAfterQuery ?? []).filter((l) => l.granted).length,
      parallelQueryOnLockSession: onLockSession ? 1 : 0,
    },
    property: {
      name: 'pg_locks shows 0 advisory locks after the unlock',
      held: leaked.length === 0,
      detail:
        leaked.length === 0
          ? 'no advisory lock was left after A released'
          : `after A's release returned, pg_locks still showed ${describeSessionLocks(leaked)}`,
      offending: leaked.length
        ? history.filter(
            (e) => e.kind === 'release' || (e.kind === 'store-observed' && e.detail.label === 'after A released'),
          )
        : [],
    },
    explanation:
      nothingProven(preconditions) ??
      (leaked.length
        ? `A took a session advisory lock through its pool (session ${held.map((l) => l.session).join(', ')}). A parallel query from the same pool then took ${onLockSession ? 'that very connection' : 'a pooled connection'} and was held on the server, and A released meanwhile: the unlock ran on another session, where it found no lock (release returned ${JSON.stringify(release?.value)}), and pg_locks still showed ${describeSessionLocks(leaked)}. The lock outlives the work and blocks every other holder until that pooled connection closes.`
        : `A took the lock, a parallel query from A's pool occupied ${onLockSession ? "the lock's own connection" : 'another pooled connection'} on the server, and A released meanwhile: pg_locks showed no advisory lock afterwards. The lock, its work and its unlock stay on one session (a checked-out client, or a transaction-scoped lock).`),
  };
}
