/**
 * V311's judge on recorded runs, with no store and no process: the same recorded histories with
 * one fact changed move the verdict the way the property and the preconditions say they must.
 */
import { describe, expect, it } from 'vitest';
import { FIXTURES, load, rejudge, type JudgeFixture } from './recorded.ts';
import {
  A_KEY_STILL_HELD,
  KEY_EXISTED,
  KILLED,
  LAST_TRY_LAPSED,
  STOPPED_BETWEEN,
  TTL_AS_ASKED,
} from '../../oracles/V311/judge.ts';
import type { V311Observations } from '../../oracles/V311/observations.ts';

const bad = load(`${FIXTURES}/V311/bad-no-ttl-after-acquire.json`);
const good = load(`${FIXTURES}/V311/good-lock-correct-after-acquire.json`);
const badBetween = load(`${FIXTURES}/V311/bad-setnx-then-expire-between-commands.json`);
const observed = (f: JudgeFixture) => f.observations as V311Observations;
const unmet = (judgement: { preconditions: Array<{ name: string; held: boolean }> }) =>
  judgement.preconditions.filter((c) => !c.held).map((c) => c.name);

/** The run's reads of the key, as the history recorded them. */
const reads = (f: JudgeFixture) => f.history.filter((e) => e.kind === 'store-observed');

/** The same run had the key carried an expiry of `pttlMs` at every read (the history and the observations). */
function withExpiry(f: JudgeFixture, pttlMs: number) {
  for (const e of reads(f)) e.detail.pttlMs = pttlMs;
  const o = observed(f);
  for (const lock of [o.atKill, o.afterKill, o.stuck]) if (lock) lock.pttlMs = pttlMs;
}

describe('V311 judge', () => {
  it('FAILs the recorded no-TTL run, naming every read of the key that had no expiry', async () => {
    const { verdict, judgement } = await rejudge(bad);
    expect(verdict).toBe('FAIL');
    expect(judgement.counts.bAcquired).toBe(0);
    expect(judgement.property.offending.length).toBe(reads(bad).length);
    expect(judgement.explanation).toMatch(/had no expiry \(PTTL -1\)/);
  });

  it('PASSes the same run had the key carried an expiry and B then taken the lock', async () => {
    const { verdict } = await rejudge(bad, (f) => {
      withExpiry(f, 200);
      observed(f).b!.granted = true;
    });
    expect(verdict).toBe('PASS');
  });

  it('still FAILs when B took the lock but a read showed the key with no expiry', async () => {
    const { verdict } = await rejudge(bad, (f) => {
      observed(f).b!.granted = true;
    });
    expect(verdict).toBe('FAIL');
  });

  it("FAILs a key with an expiry that B, trying past it, still found holding A's token: the lock outlived its TTL", async () => {
    const { verdict, judgement } = await rejudge(bad, (f) => {
      withExpiry(f, 50);
      const o = observed(f);
      o.b!.lastAttemptAt = o.afterKill!.receivedAt + 51;
    });
    expect(verdict).toBe('FAIL');
    expect(judgement.explanation).toMatch(/the lock outlived its TTL/);
  });

  it("offends with B's refusals when the lock kept an expiry in every reading but outlived it", async () => {
    const { verdict, judgement } = await rejudge(bad, (f) => {
      withExpiry(f, 50);
      for (const e of f.history) if (e.kind === 'store-observed' && e.detail.pttlMs === -1) e.detail.pttlMs = 50;
      const o = observed(f);
      o.b!.lastAttemptAt = o.afterKill!.receivedAt + 51;
    });
    expect(verdict).toBe('FAIL');
    expect(judgement.counts.observationsWithNoExpiry).toBe(0);
    expect(judgement.property.offending.length).toBeGreaterThan(0);
    expect(
      judgement.property.offending.every((e) => 'kind' in e && e.kind === 'acquire-denied' && e.holder === 'B'),
    ).toBe(true);
  });

  it("is INCONCLUSIVE when B's last try came before the key's expiry by its PTTL", async () => {
    const { verdict, judgement } = await rejudge(bad, (f) => {
      withExpiry(f, 50);
      const o = observed(f);
      o.b!.lastAttemptAt = o.afterKill!.receivedAt + 49;
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([LAST_TRY_LAPSED]);
  });

  it("is INCONCLUSIVE when the key was gone by the time B gave up: B's denial is its own", async () => {
    const { verdict, judgement } = await rejudge(bad, (f) => {
      withExpiry(f, 50);
      const o = observed(f);
      o.b!.lastAttemptAt = o.afterKill!.receivedAt + 51;
      o.stuck = { ...o.stuck!, exists: false, value: null, pttlMs: -2 };
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([A_KEY_STILL_HELD]);
  });

  it('FAILs the recorded SET NX PX run had a read shown the key with no expiry', async () => {
    const { verdict } = await rejudge(good, (f) => {
      reads(f)[0]!.detail.pttlMs = -1;
    });
    expect(verdict).toBe('FAIL');
  });

  it('FAILs the recorded SET NX PX run had B never taken the lock past its expiry', async () => {
    const { verdict } = await rejudge(good, (f) => {
      const o = observed(f);
      o.b = { ...o.b!, granted: false, lastAttemptAt: o.afterKill!.receivedAt + o.afterKill!.pttlMs + 1 };
      o.stuck = { where: o.atKill!.where, exists: true, value: o.atKill!.value, pttlMs: 10 };
    });
    expect(verdict).toBe('FAIL');
  });

  it('is INCONCLUSIVE when A did not die by SIGKILL', async () => {
    const { verdict, judgement } = await rejudge(good, (f) => {
      observed(f).exit = { signal: null, code: 0, t: observed(f).exit!.t };
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([KILLED]);
  });

  it('is INCONCLUSIVE when the key carried a longer TTL than asked (the target ignores env.ttlMs)', async () => {
    const { verdict, judgement } = await rejudge(good, (f) => {
      observed(f).atKill!.pttlMs = Number(f.params.ttl) + 1;
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([TTL_AS_ASKED]);
  });

  it('is INCONCLUSIVE when the key was not found where the target says it lives when A was killed', async () => {
    const { verdict, judgement } = await rejudge(good, (f) => {
      const o = observed(f);
      o.atKill = { ...o.atKill!, exists: false, value: null, pttlMs: -2 };
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([KEY_EXISTED]);
    expect(judgement.preconditions[0]!.detail).toBe(observed(good).atKill!.notFound);
  });

  it('FAILs the recorded SETNX-then-EXPIRE run, and is INCONCLUSIVE had A not reached the seam', async () => {
    expect((await rejudge(badBetween)).verdict).toBe('FAIL');
    const { verdict, judgement } = await rejudge(badBetween, (f) => {
      const o = observed(f);
      Object.assign(o, { stop: { ...o.stop!, outcome: 'finished' }, heldSince: null, atKill: null, exit: null });
      Object.assign(o, { afterKill: null, b: null, stuck: null });
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([STOPPED_BETWEEN]);
    expect(judgement.preconditions[0]!.detail).toMatch(/acquire:after-set/);
  });
});
