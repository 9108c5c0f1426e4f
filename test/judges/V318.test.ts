/**
 * V318's judge on recorded runs, with no store and no process: the same recorded histories with
 * one fact changed move the verdict the way the property and the preconditions say they must.
 */
import { describe, expect, it } from 'vitest';
import { FIXTURES, load, rejudge } from './recorded.ts';
import { CLOCKS_CROSSED, SKEW_HELD } from '../../oracles/V318/judge.ts';
import type { V318Observations } from '../../oracles/V318/observations.ts';

const bad = load(`${FIXTURES}/V318/bad-wall-clock.json`);
const good = load(`${FIXTURES}/V318/good-hybrid-logical-clock.json`);
const observed = (f: { observations: unknown }) => f.observations as V318Observations;

describe('V318 judge', () => {
  it('FAILs the recorded wall-clock run, naming B as the writer whose later write lost', async () => {
    const { verdict, judgement } = await rejudge(bad);
    expect(verdict).toBe('FAIL');
    expect(judgement.property.offending.every((e) => 'holder' in e && e.holder === 'B')).toBe(true);
    expect(judgement.counts.laterWriteWon).toBe(0);
  });

  it("PASSes the same run had the record ended with B's value", async () => {
    const { verdict } = await rejudge(bad, (f) => {
      const o = observed(f);
      o.final.value = o.values.b;
    });
    expect(verdict).toBe('PASS');
  });

  it('is INCONCLUSIVE, not FAIL, when the writes were further apart in real time than the clock gap', async () => {
    const { verdict, judgement } = await rejudge(bad, (f) => {
      const o = observed(f);
      o.bWrite.endedAt = o.aWrite.startedAt + 2 * Number(f.params.skew) + 1;
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(judgement.preconditions.find((c) => c.name === CLOCKS_CROSSED)?.held).toBe(false);
  });

  it("is INCONCLUSIVE when a writer's skew changed during the writes", async () => {
    const { verdict, judgement } = await rejudge(good, (f) => {
      observed(f).offsets.bAfter = 0;
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(judgement.preconditions.find((c) => c.name === SKEW_HELD)?.held).toBe(false);
  });

  it("FAILs the recorded hybrid-clock run had A's value stayed", async () => {
    const { verdict } = await rejudge(good, (f) => {
      const o = observed(f);
      o.final.value = o.values.a;
    });
    expect(verdict).toBe('FAIL');
  });
});
