/**
 * V313's judge with --contenders 3 on recorded runs, with no store and no process: every pair of
 * writers is judged, and one recorded fact changed at a time moves the verdict the way the property
 * (no two holders write under the lock at once) and its preconditions say it must.
 */
import { describe, expect, it } from 'vitest';
import { pairsOfWriters } from '../../src/judging/leaders-at-once.ts';
import {
  LATER_LEASE_LIVE,
  OTHERS_WROTE_WHILE_HELD,
  SUCCESSOR_WROTE_WHILE_STOPPED,
} from '../../oracles/V313/judge-candidates.ts';
import type { CandidatesSeen, V313Observations } from '../../oracles/V313/observations.ts';
import { FIXTURES, load, rejudge, type JudgeFixture } from './recorded.ts';

const fixture = (name: string) => load(`${FIXTURES}/V313/${name}.json`);
/** Explored (replayed): B's GET ran, its reply held while C took the stale lock over and wrote. */
const heldAtGet = fixture('stale-takeover-job-del-b-held-at-get-reply');
/** Explored (replayed): the compare-and-swap twin, B held before its swap while C took over. */
const heldBeforeSwap = fixture('stale-takeover-job-cas-b-held-before-swap');
const raced = fixture('stale-takeover-job-cas-contenders-3');
const seen = (f: JudgeFixture) => (f.observations as V313Observations).contenders as CandidatesSeen;
const held = (judgement: { preconditions: Array<{ name: string; held: boolean }> }, name: string) =>
  judgement.preconditions.find((c) => c.name === name)?.held;
/** The earlier writer's accepted writes after the later one's first, over every pair (B's solo run left out, as the judge does). */
const lateWrites = (f: JudgeFixture) => {
  const judged = f.effects.filter((e) => e.seq > (f.observations as V313Observations).solo.lastSeq);
  return pairsOfWriters(judged, seen(f).readings).flatMap((pair) => pair.takeover.staleAcceptedAfter);
};

describe('V313 judge, --contenders 3', () => {
  it("FAILs the recorded point where B's GET reply was held: C's writes after B's first, inside B's lease", async () => {
    const { verdict, judgement } = await rejudge(heldAtGet);
    expect(verdict).toBe('FAIL');
    expect(judgement.property.offending.length).toBeGreaterThan(0);
    expect(judgement.property.offending.every((e) => 'holder' in e && e.holder === 'C')).toBe(true);
  });

  it('is INCONCLUSIVE there had no other successor written while B was held', async () => {
    const { verdict, judgement } = await rejudge(heldAtGet, (f) => {
      seen(f).held!.othersWrote = null;
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(held(judgement, OTHERS_WROTE_WHILE_HELD)).toBe(false);
  });

  it("is INCONCLUSIVE, not FAIL, had B's lease been found gone before each of C's late writes", async () => {
    const { verdict, judgement } = await rejudge(heldAtGet, (f) => {
      const late = new Set(lateWrites(f).map((e) => e.seq));
      for (const r of seen(f).readings)
        if (late.has(r.seq)) r.reading = { ...r.reading, exists: false, pttlMs: -2 } as typeof r.reading;
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(held(judgement, LATER_LEASE_LIVE)).toBe(false);
  });

  it("PASSes the same point had C's writes come before B's first", async () => {
    const { verdict } = await rejudge(heldAtGet, (f) => {
      const late = new Set(lateWrites(f).map((e) => e.seq));
      f.effects = f.effects.filter((e) => !late.has(e.seq));
    });
    expect(verdict).toBe('PASS');
  });

  it('PASSes the compare-and-swap twin held before its swap, and the plain three-holder run', async () => {
    expect((await rejudge(heldBeforeSwap)).verdict).toBe('PASS');
    expect((await rejudge(raced)).verdict).toBe('PASS');
  });

  it('is INCONCLUSIVE when the first successor wrote only once A was let go', async () => {
    const { verdict, judgement } = await rejudge(raced, (f) => {
      seen(f).wroteWhileStopped = false;
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(held(judgement, SUCCESSOR_WROTE_WHILE_STOPPED)).toBe(false);
  });
});
