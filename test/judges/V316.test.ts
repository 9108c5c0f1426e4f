/**
 * V316's judge on recorded runs, with no store and no process: the same recorded histories with
 * one fact changed move the verdict the way the property and the preconditions say they must.
 */
import { describe, expect, it } from 'vitest';
import { FIXTURES, load, rejudge, type JudgeFixture } from './recorded.ts';
import { LATE_BY_STEP, STEP_LANDED, STILL_RUNNING } from '../../oracles/V316/judge.ts';
import type { LegHolder, V316Observations } from '../../oracles/V316/observations.ts';

const bad = load(`${FIXTURES}/V316/bad-wall-clock.json`);
const good = load(`${FIXTURES}/V316/good-monotonic.json`);
const leg = (f: JudgeFixture, holder: LegHolder) =>
  (f.observations as V316Observations).legs.find((l) => l.holder === holder)!;
const firing = (f: JudgeFixture, holder: LegHolder) =>
  f.effects.find((e) => e.holder === holder && e.name === 'timeout');
/** Moves `holder`'s recorded firing to `elapsedMs` after its operation began, by the holder's own clock. */
const firedAfter = (f: JudgeFixture, holder: LegHolder, elapsedMs: number) => {
  firing(f, holder)!.holderAt = leg(f, holder).span!.began + elapsedMs;
};
const held = (judgement: { preconditions: Array<{ name: string; held: boolean }> }, name: string) =>
  judgement.preconditions.find((c) => c.name === name)?.held;

describe('V316 judge', () => {
  it("FAILs the recorded wall-clock run, offending with A's step and B's early firing", async () => {
    const { verdict, judgement } = await rejudge(bad);
    expect(verdict).toBe('FAIL');
    const offending = judgement.property.offending;
    expect(offending.some((e) => 'kind' in e && e.kind === 'clock-step' && e.holder === 'A')).toBe(true);
    expect(offending).toContainEqual(firing(bad, 'B'));
    expect(judgement.counts.AFiredAfterMs).toBe(-1);
  });

  it('PASSes the same run had both guards fired on time', async () => {
    const { verdict } = await rejudge(bad, (f) => {
      const a = leg(f, 'A');
      const seq = Math.max(...f.effects.map((e) => e.seq)) + 1;
      f.effects.push({ ...firing(f, 'B')!, holder: 'A', seq, t: a.startedAt + Number(f.params.ttl) });
      delete f.effects.at(-1)!.holderAt;
      firedAfter(f, 'B', Number(f.params.ttl));
    });
    expect(verdict).toBe('PASS');
  });

  it('does not judge a firing recorded after play stopped watching', async () => {
    const { verdict, judgement } = await rejudge(good, (f) => {
      (f.observations as V316Observations).watchedUntil = firing(f, 'A')!.t - 0.001;
    });
    expect(judgement.counts.AFiredAfterMs).toBe(-1);
    expect(verdict).toBe('FAIL');
  });

  it("FAILs the recorded monotonic run had B's guard fired halfway through its operation", async () => {
    const { verdict } = await rejudge(good, (f) => firedAfter(f, 'B', Number(f.params.ttl) / 2));
    expect(verdict).toBe('FAIL');
  });

  it("FAILs the recorded monotonic run had A's guard fired a step late (its clock stepped back)", async () => {
    const { verdict } = await rejudge(good, (f) => firedAfter(f, 'A', Number(f.params.ttl) + Number(f.params.step)));
    expect(verdict).toBe('FAIL');
  });

  it("is INCONCLUSIVE, not FAIL, had A's guard fired late by much less than its step (a starved process)", async () => {
    const { verdict, judgement } = await rejudge(good, (f) =>
      firedAfter(f, 'A', Number(f.params.ttl) + 2 * Number(f.params.tolerance)),
    );
    expect(verdict).toBe('INCONCLUSIVE');
    expect(held(judgement, LATE_BY_STEP.A)).toBe(false);
  });

  it("is INCONCLUSIVE, not FAIL, had B's guard fired late (a step forward never delays a wall-clock guard)", async () => {
    const { verdict, judgement } = await rejudge(good, (f) =>
      firedAfter(f, 'B', Number(f.params.ttl) + 2 * Number(f.params.tolerance)),
    );
    expect(verdict).toBe('INCONCLUSIVE');
    expect(held(judgement, LATE_BY_STEP.B)).toBe(false);
  });

  it("is INCONCLUSIVE when B's clock was never stepped", async () => {
    const { verdict, judgement } = await rejudge(good, (f) => {
      f.history = f.history.filter((e) => !(e.kind === 'clock-step' && e.holder === 'B' && e.detail.op === 'step'));
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(held(judgement, STEP_LANDED.B)).toBe(false);
  });

  it("is INCONCLUSIVE when A's operation returned on its own before its limit, its guard never needed", async () => {
    const { verdict, judgement } = await rejudge(good, (f) => {
      f.effects = f.effects.filter((e) => e.holder !== 'A');
      const a = leg(f, 'A');
      a.endedAt = a.startedAt + 0.75 * Number(f.params.ttl);
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(held(judgement, STILL_RUNNING.A)).toBe(false);
    expect(held(judgement, STEP_LANDED.A)).toBe(true);
  });
});
