/**
 * V317's judge on recorded runs, with no store and no process: the same recorded histories with
 * one fact changed move the verdict the way the property and the preconditions say they must.
 */
import { describe, expect, it } from 'vitest';
import { FIXTURES, load, rejudge, type JudgeFixture } from './recorded.ts';
import { A_TOOK_LEASE, CLOCK_STEPPED, EARLY_TRY_IN_LEASE, SKEW_HELD } from '../../oracles/V317/judge.ts';
import type { Variant } from '../../oracles/V317/legs.ts';
import type { LegObservation, V317Observations } from '../../oracles/V317/observations.ts';

// Redis, holder against holder: B takes over early in b-ahead and never in a-ahead.
const bad = load(`${FIXTURES}/V317/bad-redis-queue-app-clock-expiry.json`);
const good = load(`${FIXTURES}/V317/good-redis-queue-store-clock-expiry.json`);
// Postgres, the app's clock against the store's: app-ahead then store-ahead.
const goodPostgres = load(`${FIXTURES}/V317/good-db-clock-expiry.json`);
const fsMonotonic = load(`${FIXTURES}/V317/fs-good-mkdir-monotonic.json`);
const observed = (f: JudgeFixture) => f.observations as V317Observations;
const leg = (f: JudgeFixture, variant: Variant): LegObservation => observed(f).legs.find((l) => l.variant === variant)!;
const check = (judgement: { preconditions: Array<{ name: string; held: boolean }> }, name: string) =>
  judgement.preconditions.find((c) => c.name === name)?.held;

describe('V317 judge', () => {
  it('FAILs the recorded app-clock run: an early takeover in b-ahead, a skipped one in a-ahead, B named', async () => {
    const { verdict, judgement } = await rejudge(bad);
    expect(verdict).toBe('FAIL');
    expect(judgement.counts).toMatchObject({ earlyTakeovers: 1, skippedTakeovers: 1 });
    expect(judgement.property.offending.length).toBeGreaterThan(0);
    expect(judgement.property.offending.every((e) => 'holder' in e && e.holder === 'B')).toBe(true);
  });

  it('PASSes the same run had B been denied halfway and taken over on time in both legs', async () => {
    const { verdict, judgement } = await rejudge(bad, (f) => {
      const early = leg(f, 'b-ahead').early!;
      leg(f, 'b-ahead').late = { at: early.at + 800, lease: early.lease };
      early.lease = null;
      leg(f, 'a-ahead').late!.lease = { leaseId: 2, token: 'B' };
    });
    expect(verdict).toBe('PASS');
    expect(judgement.counts).toMatchObject({ earlyTakeovers: 0, skippedTakeovers: 0, 'b-ahead overlapMs': 0 });
  });

  it("is INCONCLUSIVE, not FAIL, when B's early takeover was answered after A's lease could have lapsed", async () => {
    const { verdict, judgement } = await rejudge(bad, (f) => {
      const b = leg(f, 'b-ahead');
      b.early!.answeredAt = b.aStartedAt + Number(f.params.ttl);
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(check(judgement, EARLY_TRY_IN_LEASE['b-ahead'])).toBe(false);
    expect(judgement.property.held).toBe(false);
  });

  it('FAILs the recorded store-clock run had B been granted the lease halfway through it', async () => {
    const { verdict, judgement } = await rejudge(good, (f) => {
      leg(f, 'a-ahead').early!.lease = { leaseId: 2, token: 'B' };
    });
    expect(verdict).toBe('FAIL');
    expect(check(judgement, EARLY_TRY_IN_LEASE['a-ahead'])).toBe(true);
    expect(judgement.counts.earlyTakeovers).toBe(1);
  });

  it('FAILs the recorded store-clock run had B still been denied after the lease lapsed', async () => {
    const { verdict, judgement } = await rejudge(good, (f) => {
      leg(f, 'b-ahead').late!.lease = null;
    });
    expect(verdict).toBe('FAIL');
    expect(judgement.counts.skippedTakeovers).toBe(1);
  });

  it("is INCONCLUSIVE when the store's clock was not skewed as asked (store-ahead did not land)", async () => {
    const { verdict, judgement } = await rejudge(goodPostgres, (f) => {
      leg(f, 'store-ahead').measuredStoreSkewMs = 0;
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(check(judgement, SKEW_HELD['store-ahead'])).toBe(false);
    expect(check(judgement, SKEW_HELD['app-ahead'])).toBe(true);
  });

  it("is INCONCLUSIVE when a holder's clock no longer had its offset after B's last try", async () => {
    const { verdict, judgement } = await rejudge(goodPostgres, (f) => {
      leg(f, 'app-ahead').appOffsetsAfterMs[1] = 0;
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(check(judgement, SKEW_HELD['app-ahead'])).toBe(false);
  });

  it('is INCONCLUSIVE, not PASS, when A was denied the lease in a leg (B was never tried)', async () => {
    const { verdict, judgement } = await rejudge(good, (f) => {
      const a = leg(f, 'a-ahead');
      a.aLease = null;
      a.early = null;
      a.late = null;
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(check(judgement, A_TOOK_LEASE['a-ahead'])).toBe(false);
    expect(judgement.property.held).toBe(true);
  });

  describe('an explored point (one leg, A stepped at a boundary)', () => {
    const asPoint = (stepLanded: boolean) => (f: JudgeFixture) => {
      const o = observed(f);
      o.legs = [leg(f, 'a-ahead')];
      o.point = {
        inWords: "A's wall clock was stepped ahead right before A prepared its EVAL (acquire#1 EVAL)",
        stepLanded,
        stepMissed: "A's acquire ended before the reply to its command on the lock before acquire#2 EVAL",
      };
    };

    it("is INCONCLUSIVE when A's clock step never landed, the boundary named in the detail", async () => {
      const { verdict, judgement } = await rejudge(good, asPoint(false));
      expect(verdict).toBe('INCONCLUSIVE');
      const stepped = judgement.preconditions.find((c) => c.name === CLOCK_STEPPED)!;
      expect(stepped.held).toBe(false);
      expect(stepped.detail).toMatch(/before acquire#2 EVAL/);
    });

    it('PASSes the same leg once the step landed', async () => {
      const { verdict, judgement } = await rejudge(good, asPoint(true));
      expect(verdict).toBe('PASS');
      expect(judgement.explanation).toMatch(/^A's wall clock was stepped ahead right before A prepared its EVAL/);
    });
  });

  it("FAILs the recorded monotonic file-lock run (--store fs) had B's first look taken A's live lock", async () => {
    expect((await rejudge(fsMonotonic)).verdict).toBe('PASS');
    const { verdict } = await rejudge(fsMonotonic, (f) => {
      const l = leg(f, 'b-ahead');
      l.early = { at: l.aAt + 5, answeredAt: l.aAt + 10, lease: { leaseId: 9 } };
      l.late = null;
    });
    expect(verdict).toBe('FAIL');
  });
});
