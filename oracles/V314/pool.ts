/**
 * V314 scenario (a), "pool": A takes the lock through its pool; a parallel query from A's own
 * pool is then held at a server-side gate, so it occupies a pooled connection; A releases while
 * it waits; the harness reads pg_locks. A pool that hands the lock's idle connection to the
 * parallel query runs the unlock on another session, where it misses, and the lock stays.
 * Records what happened (V314PoolObservations); judges nothing.
 */
import { throwIfTargetThrew } from '../../src/holder/holder.ts';
import type { ClientSession, Scenario } from '../../src/oracle/scenario.ts';
import type { V314PoolObservations } from './observations.ts';
import type { V314Params } from './params.ts';

export async function playPool(s: Scenario, p: V314Params): Promise<V314PoolObservations> {
  const gate = await s.sessionLocks().gate();
  s.onClose(() => gate.end());
  const a = await s.holder('A');

  const lease = await a.acquire();
  const held = (await s.observeSessionLocks('after A acquired')).filter((l) => l.granted);
  const observed: V314PoolObservations = {
    scenario: 'pool',
    acquired: lease !== null,
    locksAfterAcquire: held,
    parallel: null,
    release: null,
    locksAfterQuery: null,
  };
  if (!lease || held.length === 0) return observed;

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
  let parallel: ClientSession | undefined;
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
  observed.parallel = { sql: gate.sql, waiting: parallel ?? null, endedFirst: querySettled };

  if (parallel) {
    const release = await s.within(a.release(lease), p.timeout);
    const locks = await s.observeSessionLocks('after A released');
    const queryStillWaiting = (await s.observeSessions('after A released')).some(
      (x) => x.session === parallel!.session && isGated(x),
    );
    observed.release = { outcome: release ?? null, queryStillWaiting, locks };
  }
  await gate.open();
  s.faults.lift(fault);
  await s.within(query, p.timeout);
  observed.locksAfterQuery = await s.observeSessionLocks('after the parallel query finished');
  return observed;
}
