/**
 * V314's judge on recorded runs of both scenarios, with no store and no process: the same recorded
 * histories with one fact changed move the verdict the way the property and the preconditions say
 * they must.
 */
import { describe, expect, it } from 'vitest';
import { FIXTURES, load, rejudge } from './recorded.ts';
import {
  A_TOOK_LOCK,
  DENIAL_FROM_A,
  DISTINCT_CLIENTS,
  QUERY_HELD_CONNECTION,
  RELEASE_WHILE_HELD,
} from '../../oracles/V314/judge.ts';
import type { V314PoolerObservations, V314PoolObservations } from '../../oracles/V314/observations.ts';

const fixture = (name: string) => load(`${FIXTURES}/V314/${name}.json`);
const badPool = fixture('bad-pool-query');
const goodPool = fixture('good-pool-checked-out-client');
const badPooler = fixture('bad-pooler-checked-out-client');
const goodPooler = fixture('good-pooler-xact-lock');
const goodSessionMode = fixture('good-pooler-session-checked-out-client');
const alwaysDenied = fixture('inconclusive-pooler-b-always-denied');
const pool = (f: { observations: unknown }) => f.observations as V314PoolObservations;
const pooler = (f: { observations: unknown }) => f.observations as V314PoolerObservations;
const unmet = (judgement: { preconditions: Array<{ name: string; held: boolean }> }) =>
  judgement.preconditions.filter((c) => !c.held).map((c) => c.name);

describe('V314 judge, pool scenario', () => {
  it("FAILs the recorded run whose unlock went through the pool, offending with A's release and the pg_locks read after it", async () => {
    const { verdict, judgement } = await rejudge(badPool);
    expect(verdict).toBe('FAIL');
    expect(judgement.counts.advisoryLocksAfterRelease).toBe(1);
    expect(judgement.property.offending.map((e) => ('kind' in e ? e.kind : 'effect'))).toEqual(
      expect.arrayContaining(['release', 'store-observed']),
    );
  });

  it('PASSes the same run had pg_locks shown no advisory lock after the release', async () => {
    const { verdict } = await rejudge(badPool, (f) => {
      pool(f).release!.locks = [];
    });
    expect(verdict).toBe('PASS');
  });

  it("FAILs the recorded checked-out-client run had A's lock still shown after its release", async () => {
    const { verdict } = await rejudge(goodPool, (f) => {
      const o = pool(f);
      o.release!.locks = o.locksAfterAcquire;
    });
    expect(verdict).toBe('FAIL');
  });

  it('is INCONCLUSIVE when the parallel query was never seen holding a pooled connection (the fault did not land)', async () => {
    const { verdict, judgement } = await rejudge(goodPool, (f) => {
      const o = pool(f);
      o.parallel!.waiting = null;
      o.release = null;
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([QUERY_HELD_CONNECTION]);
  });

  it('is INCONCLUSIVE when the release did not run while the query held its connection', async () => {
    const cases: Array<(o: V314PoolObservations) => void> = [
      (o) => (o.release!.queryStillWaiting = false),
      (o) => (o.release!.outcome = null),
      (o) => (o.release!.outcome = { ...o.release!.outcome!, ok: false, error: 'no connection' }),
    ];
    for (const change of cases) {
      const { verdict, judgement } = await rejudge(goodPool, (f) => change(pool(f)));
      expect(verdict).toBe('INCONCLUSIVE');
      expect(unmet(judgement)).toEqual([RELEASE_WHILE_HELD]);
    }
  });

  it('is INCONCLUSIVE, not FAIL, when A never took the lock', async () => {
    const { verdict, judgement } = await rejudge(badPool, (f) => {
      const o = pool(f);
      o.acquired = false;
      o.parallel = null;
      o.release = null;
      o.locksAfterQuery = null;
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(judgement.preconditions.map((c) => c.name)).toEqual([A_TOOK_LOCK]);
  });
});

describe('V314 judge, pooler scenario', () => {
  it("FAILs the recorded transaction-mode run whose B got the lock on A's server session", async () => {
    const { verdict, judgement } = await rejudge(badPooler);
    expect(verdict).toBe('FAIL');
    expect(judgement.counts).toMatchObject({ bGrantedWhileAHeld: 1, bRanOnLockSession: 1 });
    expect(judgement.property.offending.length).toBeGreaterThan(0);
    expect(judgement.property.offending.every((e) => 'kind' in e && e.kind === 'acquire-ok')).toBe(true);
  });

  it('PASSes the same run had B been denied on another session and taken the lock once A released', async () => {
    const { verdict } = await rejudge(badPooler, (f) => {
      const b = pooler(f).b!;
      b.granted = false;
      b.sessions = [b.sessions[0]! + 1];
      b.tookLockAfterA = true;
    });
    expect(verdict).toBe('PASS');
  });

  it('FAILs the recorded good runs (transaction-scoped lock, session mode) had B been granted while A held', async () => {
    for (const good of [goodPooler, goodSessionMode]) {
      expect((await rejudge(good)).verdict).toBe('PASS');
      const { verdict } = await rejudge(good, (f) => {
        pooler(f).b!.granted = true;
      });
      expect(verdict).toBe('FAIL');
    }
  });

  it("is INCONCLUSIVE when B's denial was not A's lock's doing", async () => {
    const cases: Array<(o: V314PoolerObservations) => void> = [
      (o) => (o.b!.tookLockAfterA = false),
      (o) => (o.b!.sessions = o.locksAfterAcquire.map((l) => l.session)),
      (o) => (o.b!.sessions = []),
      (o) => (o.b!.aRelease = { ...o.b!.aRelease, ok: false, error: 'gone' }),
    ];
    for (const change of cases) {
      const { verdict, judgement } = await rejudge(goodPooler, (f) => change(pooler(f)));
      expect(verdict).toBe('INCONCLUSIVE');
      expect(unmet(judgement)).toEqual([DENIAL_FROM_A]);
    }
  });

  it('is INCONCLUSIVE when A and B were not two distinct clients of the pooler', async () => {
    const { verdict, judgement } = await rejudge(goodPooler, (f) => {
      const b = pooler(f).b!;
      b.clients = b.clients.filter((c) => c.holder === 'A');
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([DISTINCT_CLIENTS]);
  });

  it('PASSes the recorded always-denied run had B been a client of its own, denied on another session, then taken the lock', async () => {
    expect((await rejudge(alwaysDenied)).verdict).toBe('INCONCLUSIVE');
    const { verdict } = await rejudge(alwaysDenied, (f) => {
      const o = pooler(f);
      o.b!.clients.push({ holder: 'B', state: 'active' });
      o.b!.sessions = [o.locksAfterAcquire[0]!.session + 1];
      o.b!.tookLockAfterA = true;
    });
    expect(verdict).toBe('PASS');
  });
});
