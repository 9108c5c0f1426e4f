/**
 * V312's judge on recorded runs, with no store and no process: the same recorded histories with
 * one fact changed move the verdict the way the property and the preconditions say they must.
 */
import { describe, expect, it } from 'vitest';
import { FIXTURES, load, rejudge, type JudgeFixture } from './recorded.ts';
import { A_FINISHED, A_TRIED, HELD_AT_POINT, P_HELD, P_STILL_LIVE } from '../../oracles/V312/judge.ts';
import type { V312Observations } from '../../oracles/V312/observations.ts';
import type { ExplorePoint } from '../../src/oracle/explore-point.ts';

const bad = load(`${FIXTURES}/V312/bad-ignores-acquire.json`);
const good = load(`${FIXTURES}/V312/good-checks-acquire.json`);
const badPostgres = load(`${FIXTURES}/V312/bad-postgres-ignores-try-lock.json`);
const goodPostgres = load(`${FIXTURES}/V312/good-postgres-checks-try-lock.json`);
// A file store: A's 'wx' create of the lock file, its EEXIST ignored (bad) or checked (good).
const badFs = load(`${FIXTURES}/V312/bad-fs-ignores-create.json`);
const goodFs = load(`${FIXTURES}/V312/good-fs-checks-create.json`);
const waitsOutLease = load(`${FIXTURES}/V312/inconclusive-waits-then-keeps-lease.json`);
const observed = (f: { observations: unknown }) => f.observations as V312Observations;
const unmet = (judgement: { preconditions: Array<{ name: string; held: boolean }> }) =>
  judgement.preconditions.filter((c) => !c.held).map((c) => c.name);
/** A's job held before its acquire, as --explore lands it. */
const acquireHeld: ExplorePoint = {
  boundary: {
    part: 'job',
    index: 1,
    kind: 'command',
    name: 'SET',
    nth: 1,
    text: 'SET lock-oracles:V312',
    onKey: true,
    keyNth: 1,
  },
  fault: 'hold-before',
};
const withoutAWrites = (f: JudgeFixture) => {
  f.effects = f.effects.filter((e) => e.holder !== 'A');
};

describe('V312 judge', () => {
  it("FAILs the recorded run whose job ignores its acquire, every one of A's writes offending", async () => {
    const { verdict, judgement } = await rejudge(bad);
    expect(verdict).toBe('FAIL');
    expect(judgement.counts.aEffects).toBeGreaterThan(0);
    expect(judgement.property.offending).toHaveLength(judgement.counts.aEffects!);
    expect(judgement.property.offending.every((e) => 'holder' in e && e.holder === 'A')).toBe(true);
  });

  it('PASSes the same run had A made no write', async () => {
    const { verdict } = await rejudge(bad, withoutAWrites);
    expect(verdict).toBe('PASS');
  });

  it('FAILs the recorded good run had A written while P held the lock', async () => {
    const { verdict } = await rejudge(good, (f) => {
      f.effects.push({ ...f.effects[0]!, holder: 'A', t: observed(f).a!.job!.endedAt - 1 });
    });
    expect(verdict).toBe('FAIL');
  });

  it("is INCONCLUSIVE, not FAIL, when the key no longer held P's token and P's lease ran out before A's writes", async () => {
    const { verdict, judgement } = await rejudge(bad, (f) => {
      const o = observed(f);
      o.a!.key!.value = 'a token of A';
      o.p!.key!.pttlMs = 1;
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([P_STILL_LIVE]);
  });

  it("FAILs when the key no longer held P's token but P's lease, read while it held, covered A's writes", async () => {
    const { verdict } = await rejudge(bad, (f) => {
      observed(f).a!.key!.value = 'a token of A';
    });
    expect(verdict).toBe('FAIL');
  });

  it('takes a key with no expiry (PTTL -1, kept as recorded through JSON) to be live at every write', async () => {
    const { verdict } = await rejudge(bad, (f) => {
      const o = observed(f);
      o.a!.key!.value = 'a token of A';
      o.p!.key!.pttlMs = -1;
    });
    expect(verdict).toBe('FAIL');
  });

  it("FAILs the recorded lease-waiting run had the key still held P's token when A's job ended", async () => {
    const { verdict } = await rejudge(waitsOutLease, (f) => {
      const o = observed(f);
      o.a!.key!.value = o.p!.key!.value;
    });
    expect(verdict).toBe('FAIL');
  });

  it('is INCONCLUSIVE when P never reached its first write (the lock was never pre-held)', async () => {
    const { verdict, judgement } = await rejudge(bad, (f) => {
      const o = observed(f);
      o.p = null;
      o.a = null;
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([P_HELD]);
  });

  it("is INCONCLUSIVE when the store did not show P's lock: no key on Redis, no advisory lock on Postgres", async () => {
    const noKey = await rejudge(good, (f) => {
      observed(f).p!.key!.exists = false;
    });
    expect(noKey.verdict).toBe('INCONCLUSIVE');
    expect(unmet(noKey.judgement)).toEqual([P_HELD]);
    const noLock = await rejudge(badPostgres, (f) => {
      observed(f).p!.sessionLocks = [];
    });
    expect(noLock.verdict).toBe('INCONCLUSIVE');
    expect(unmet(noLock.judgement)).toContain(P_HELD);
  });

  it('is INCONCLUSIVE when A never tried the lock, or its job never finished', async () => {
    const neverTried = await rejudge(good, (f) => {
      observed(f).a!.tries = [];
    });
    expect(neverTried.verdict).toBe('INCONCLUSIVE');
    expect(unmet(neverTried.judgement)).toEqual([A_TRIED]);
    const neverEnded = await rejudge(good, (f) => {
      observed(f).a!.job = null;
    });
    expect(neverEnded.verdict).toBe('INCONCLUSIVE');
    expect(unmet(neverEnded.judgement)).toEqual([A_FINISHED]);
  });

  it("is INCONCLUSIVE on Postgres when P's session no longer held the advisory lock when A's job ended", async () => {
    const { verdict, judgement } = await rejudge(goodPostgres, (f) => {
      observed(f).a!.sessionLocks = [];
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([P_STILL_LIVE]);
  });

  it('FAILs the recorded Postgres run, and PASSes it had A made no write', async () => {
    expect((await rejudge(badPostgres)).verdict).toBe('FAIL');
    expect((await rejudge(badPostgres, withoutAWrites)).verdict).toBe('PASS');
  });

  it('explored: judges the run once A was held at its point, and is INCONCLUSIVE when A never got there', async () => {
    const held = await rejudge(bad, (f) => {
      observed(f).point = { at: acquireHeld, first: 'held', missed: '' };
    });
    expect(held.verdict).toBe('FAIL');
    expect(held.judgement.explanation).toMatch(/^A started the job and A's SET lock-oracles:V312 \(job#1 SET\)/);
    const missed = await rejudge(bad, (f) => {
      const o = observed(f);
      o.point = { at: acquireHeld, first: 'ended', missed: 'A took another path' };
      o.p = null;
      o.a = null;
    });
    expect(missed.verdict).toBe('INCONCLUSIVE');
    expect(missed.judgement.preconditions).toEqual([
      { name: HELD_AT_POINT, held: false, detail: 'A took another path' },
    ]);
  });

  it('explored: a point where the store showed A already holding the lock is not applicable; one where it did not stays INCONCLUSIVE', async () => {
    const expireHeld: ExplorePoint = {
      boundary: { ...acquireHeld.boundary, index: 3, name: 'EXPIRE', text: 'EXPIRE lock-oracles:V312 5', keyNth: 3 },
      fault: 'hold-before',
    };
    const aHolds = { where: 'GET lock-oracles:V312', exists: true, value: 'a-token', pttlMs: -1, sentAt: 10 };
    const pRefused = (lockThen: NonNullable<V312Observations['point']>['lockThen']) => (f: JudgeFixture) => {
      const o = observed(f);
      o.point = { at: expireHeld, first: 'held', missed: '', lockThen };
      o.p = null;
      o.a = null;
    };
    const cannot = await rejudge(good, pRefused({ key: aHolds, sessionLocks: null }));
    expect(cannot.verdict).toBe('INCONCLUSIVE');
    expect(cannot.judgement.notApplicable).toMatch(
      /^A already held the lock at job#3 EXPIRE \(GET lock-oracles:V312 gave "a-token"/,
    );
    const could = await rejudge(
      good,
      pRefused({ key: { ...aHolds, exists: false, value: null, pttlMs: -2 }, sessionLocks: null }),
    );
    expect(could.verdict).toBe('INCONCLUSIVE');
    expect(could.judgement.notApplicable).toBeUndefined();
    expect(unmet(could.judgement)).toEqual([P_HELD]);
    // P took the lock after all: judged as usual, whatever the read at the point said.
    const judged = await rejudge(bad, (f) => {
      observed(f).point = { at: expireHeld, first: 'held', missed: '', lockThen: { key: aHolds, sessionLocks: null } };
    });
    expect(judged.verdict).toBe('FAIL');
    expect(judged.judgement.notApplicable).toBeUndefined();
  });

  it("FAILs the recorded file-store run (A's ignored EEXIST), PASSes its twin, and is INCONCLUSIVE had A made no call on the lock file", async () => {
    expect((await rejudge(badFs)).verdict).toBe('FAIL');
    expect((await rejudge(goodFs)).verdict).toBe('PASS');
    expect(observed(badFs).a!.tries[0]).toBe('writeFile lock-oracles:V312.lock');
    const neverTried = await rejudge(badFs, (f) => {
      observed(f).a!.tries = [];
    });
    expect(neverTried.verdict).toBe('INCONCLUSIVE');
    expect(unmet(neverTried.judgement)).toEqual([A_TRIED]);
  });
});
