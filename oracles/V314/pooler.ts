/**
 * V314 scenario (b), "pooler": A and B are two clients of one PgBouncer. A takes the lock; while
 * A holds it, B tries. Through a transaction-mode pooler a session advisory lock belongs to
 * whichever server session ran the statement, and the pooler hands that session to the next
 * client: B's try can land on A's session, where the lock is re-entrant, and succeed.
 * Records what happened (V314PoolerObservations); judges nothing.
 */
import type { Scenario } from '../../src/oracle/scenario.ts';
import type { V314PoolerObservations } from './observations.ts';
import type { V314Params } from './params.ts';

export async function playPooler(s: Scenario, p: V314Params): Promise<V314PoolerObservations> {
  if (!s.store.backend)
    throw new Error(
      `V314's pooler scenario runs through a pooler in front of the store (PgBouncer), but the ${s.store.kind} store has none`,
    );
  const [a, b] = await Promise.all([s.holder('A'), s.holder('B')]);

  const leaseA = await a.acquire();
  const held = (await s.observeSessionLocks('after A acquired')).filter((l) => l.granted);
  const observed: V314PoolerObservations = {
    scenario: 'pooler',
    acquired: leaseA !== null,
    locksAfterAcquire: held,
    b: null,
  };
  if (!leaseA || held.length === 0) return observed;

  s.progress(`A holds the lock through PgBouncer (${p.poolMode} mode); B tries`);
  const hold = s.faults.apply('latch', 'A', "interleaving forced: the harness withholds A's release while B tries", {
    poolMode: p.poolMode,
  });
  const leaseB = await b.acquire();
  const sessions = (await s.observeSessions("after B's attempt")).filter((x) => x.holder === 'B').map((x) => x.session);
  await s.observeSessionLocks("after B's attempt");
  const poolerClients = s.sessionLocks().poolerClients;
  if (!poolerClients) throw new Error('V314 pooler needs a pooler in front of the store (--store pgbouncer)');
  const clients = (await poolerClients()).filter((c) => ['A', 'B'].includes(c.holder));

  s.faults.lift(hold);
  const aRelease = await a.release(leaseA);
  const locksAfterARelease = await s.observeSessionLocks('after A released');
  let tookLockAfterA: boolean | null = null;
  if (leaseB) {
    await b.release(leaseB);
  } else {
    // A denial only counts if B can take the lock once A has let go: a target that is always
    // denied would otherwise pass.
    const later = await b.acquire();
    tookLockAfterA = later !== null;
    if (later) await b.release(later);
  }
  await Promise.all([a.close(), b.close()]);
  const locksAfterAll = await s.observeSessionLocks('after both holders released and disconnected');
  observed.b = {
    granted: leaseB !== null,
    sessions,
    clients,
    aRelease,
    tookLockAfterA,
    locksAfterARelease,
    locksAfterAll,
  };
  return observed;
}
