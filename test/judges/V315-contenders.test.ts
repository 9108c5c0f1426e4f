/**
 * V315's judge with --contenders 3 on recorded runs, with no store and no process: every pair of
 * leaders is judged, and one recorded fact changed at a time moves the verdict the way the property
 * (no two leaders act at once) and its preconditions say it must.
 */
import { describe, expect, it } from 'vitest';
import { pairsOfWriters } from '../../src/judging/leaders-at-once.ts';
import {
  CANDIDATE_LED_WHILE_CUT,
  LATER_LEASE_LIVE,
  OTHERS_LED_WHILE_HELD,
} from '../../oracles/V315/judge-contenders.ts';
import type { ContendersSeen, V315Observations } from '../../oracles/V315/observations.ts';
import { FIXTURES, load, rejudge, type JudgeFixture } from './recorded.ts';

const fixture = (name: string) => load(`${FIXTURES}/V315/${name}.json`);
const raced = fixture('elect-get-then-set-contenders-3');
const alone = fixture('elect-set-nx-contenders-3');
/** Explored (replayed): B held before the SET of its GET-then-SET election while C led. */
const heldB = fixture('elect-get-then-set-b-held-before-set');
const seen = (f: JudgeFixture) => (f.observations as V315Observations).contenders as ContendersSeen;
const held = (judgement: { preconditions: Array<{ name: string; held: boolean }> }, name: string) =>
  judgement.preconditions.find((c) => c.name === name)?.held;
/** The earlier leader's accepted writes after the later one's first, over every pair. */
const lateWrites = (f: JudgeFixture) =>
  pairsOfWriters(f.effects, seen(f).readings).flatMap((pair) => pair.takeover.staleAcceptedAfter);

describe('V315 judge, --contenders 3', () => {
  it('FAILs the recorded GET-then-SET race: two candidates led at once, offending with the earlier one’s writes', async () => {
    const { verdict, judgement } = await rejudge(raced);
    expect(verdict).toBe('FAIL');
    expect(judgement.counts.pairsActingAtOnce).toBeGreaterThan(0);
    const earlier = new Set(judgement.property.offending.map((e) => ('holder' in e ? e.holder : '')));
    expect(earlier.size).toBe(1);
    expect([...earlier][0]).not.toBe('A');
  });

  it("PASSes the same run had the earlier leader's writes stopped before the later one's first", async () => {
    const { verdict, judgement } = await rejudge(raced, (f) => {
      const late = new Set(lateWrites(f).map((e) => e.seq));
      f.effects = f.effects.filter((e) => !late.has(e.seq));
    });
    expect(verdict).toBe('PASS');
    expect(judgement.counts.pairsWritingAfterTheNext).toBe(0);
  });

  it("is INCONCLUSIVE, not FAIL, when the later leader's lease was found gone before each such write", async () => {
    const { verdict, judgement } = await rejudge(raced, (f) => {
      const late = new Set(lateWrites(f).map((e) => e.seq));
      for (const r of seen(f).readings)
        if (late.has(r.seq)) r.reading = { ...r.reading, exists: false, pttlMs: -2 } as typeof r.reading;
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(held(judgement, LATER_LEASE_LIVE)).toBe(false);
  });

  it('is INCONCLUSIVE when the first candidate wrote only once the cut was lifted', async () => {
    const { verdict, judgement } = await rejudge(raced, (f) => {
      seen(f).ledWhileCut = false;
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(held(judgement, CANDIDATE_LED_WHILE_CUT)).toBe(false);
  });

  it('PASSes the recorded SET NX run, and FAILs it had one leader written again inside the next one’s lease', async () => {
    expect((await rejudge(alone)).verdict).toBe('PASS');
    const { verdict } = await rejudge(alone, (f) => {
      const [earlier, later] = [...new Set(f.effects.map((e) => e.holder))].slice(-2);
      const laterFirst = f.effects.find((e) => e.holder === later)!;
      const atLaterFirst = seen(f).readings.find((r) => r.seq === laterFirst.seq)!;
      const seq = Math.max(...f.effects.map((e) => e.seq)) + 1;
      f.effects.push({ ...laterFirst, holder: earlier!, seq, t: laterFirst.t + 1 });
      seen(f).readings.push({ writer: earlier!, seq, reading: atLaterFirst.reading });
      (f.observations as V315Observations).watchedUntil = Math.max(
        (f.observations as V315Observations).watchedUntil,
        laterFirst.t + 2,
      );
    });
    expect(verdict).toBe('FAIL');
  });

  it('FAILs the recorded point where B was held before its SET, and is INCONCLUSIVE had no other candidate led meanwhile', async () => {
    const { verdict, judgement } = await rejudge(heldB);
    expect(verdict).toBe('FAIL');
    expect(seen(heldB).held?.holder).toBe('B');
    expect(judgement.property.offending.every((e) => 'holder' in e && e.holder === 'C')).toBe(true);
    const unled = await rejudge(heldB, (f) => {
      seen(f).held!.othersLed = null;
    });
    expect(unled.verdict).toBe('INCONCLUSIVE');
    expect(held(unled.judgement, OTHERS_LED_WHILE_HELD)).toBe(false);
  });
});
