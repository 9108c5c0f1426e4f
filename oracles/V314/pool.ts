/**
 * V314 scenario (a), "pool": A takes the lock through its pool; a parallel query from A's own
 * pool is then held at a server-side gate, so it occupies a pooled connection; A releases while
 * it waits; the harness reads pg_locks. A pool that hands the lock's idle connection to the
 * parallel query runs the unlock on another session, where it misses, and the lock stays.
 */
import { nothingProven, firstLine } from '../../src/core/judgement.ts';
import type { Check, Judgement } from '../../src/core/judgement.ts';
import { throwIfTargetThrew, type CallOutcome } from '../../src/holder/holder.ts';
import { describeSessionLocks } from '../../src/judging/session-locks.ts';
import type { ClientSession, SessionLock } from '../../src/families/family.ts';
import type { Scenario } from '../../src/oracle/scenario.ts';
import type { V314Params } from './params.ts';

export async function playPool(s: Scenario, p: V314Params): Promise<Judgement> {
  const gate = await s.sessionLocks().gate();
  s.onClose(() => gate.end());
  const a = await s.holder('A');
  const preconditions: Check[] = [];
  let parallel: ClientSession | undefined;
  let afterRelease: SessionLock[] | undefined;
  let afterQuery: SessionLock[] | undefined;
  let release: CallOutcome | undefined;

  const lease = await a.acquire();
  const held = (await s.observeSessionLocks('after A acquired')).filter((l) => l.granted);
  preconditions.push({
    name: 'A took the lock',
    held: lease !== null && held.length > 0,
    detail: lease
      ? `A's acquire returned a lease; pg_locks showed ${describeSessionLocks(held)}`
      : 'A was denied on an empty server, so there was no lock to release',
  });
  if (!lease || held.length === 0) return judge();

  await gate.close();
  const fault = s.faults.apply(
    'latch',
    'A',
    "parallel query held at a server-side table lock (occupies one of A's pooled connections)",
    { sql: gate.sql },
  );
  let querySettled = false;
  const query = a.call('query', [gate.sql]).finally(() => (querySettled = true));
  s.progress("a parallel query from A's pool waits at the gate; A releases meanwhile");
  const isGated = (session: ClientSession) =>
    session.holder === 'A' && session.waitEventType === 'Lock' && session.query === gate.sql;
  await s.waitUntil(
    async () => {
      parallel = (await s.observeSessions('waiting for the parallel query')).find(isGated);
      return parallel !== undefined || querySettled;
    },
    p.timeout,
    5,
  );
  // Nothing had been done to the query but the gate it waits at: a throw before it waited is the target's error.
  if (!parallel && querySettled)
    throwIfTargetThrew('A', 'query', await query, 'before it reached the server (nothing had been done to it)');
  const lockSessions = held.map((l) => l.session);
  preconditions.push({
    name: "a parallel query held one of A's pooled connections",
    held: parallel !== undefined,
    detail: parallel
      ? `A's query "${gate.sql}" waited on the server in session ${parallel.session} (${lockSessions.includes(parallel.session) ? "the session holding A's lock" : `not the lock's session ${lockSessions.join(', ')}`})`
      : `A's parallel query was not seen waiting within ${p.timeout} ms${querySettled ? ' (it ended first)' : ''}: its connection was never occupied`,
  });

  if (parallel) {
    release = await s.within(a.release(lease), p.timeout);
    afterRelease = await s.observeSessionLocks('after A released');
    const stillWaiting = (await s.observeSessions('after A released')).some(
      (x) => x.session === parallel!.session && isGated(x),
    );
    preconditions.push({
      name: "A's release ran while the parallel query held its connection",
      held: release?.ok === true && stillWaiting,
      detail:
        release === undefined
          ? `A's release did not return within ${p.timeout} ms: with the parallel query holding a connection it had none to run on (is the pool smaller than ${p.poolMax}?)`
          : !release.ok
            ? `A's release threw: ${firstLine(release.error)}`
            : `A's release returned ${JSON.stringify(release.value)} while session ${parallel.session} still waited at the gate`,
    });
  }
  await gate.open();
  s.faults.lift(fault);
  await s.within(query, p.timeout);
  afterQuery = await s.observeSessionLocks('after the parallel query finished');
  return judge();

  function judge(): Judgement {
    const leaked = (afterRelease ?? []).filter((l) => l.granted);
    const onLockSession = parallel !== undefined && held.some((l) => l.session === parallel!.session);
    return {
      preconditions,
      counts: {
        advisoryLocksAfterAcquire: held.length,
        advisoryLocksAfterRelease: leaked.length,
        advisoryLocksAfterParallelQuery: (afterQuery ?? []).filter((l) => l.granted).length,
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
          ? s.history
              .events()
              .filter(
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
}
