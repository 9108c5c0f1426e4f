/** The facts V313's judge tests read off a recorded run: B's first write, A's writes after it, the unmet preconditions. */
import type { EffectRecord } from '../../src/core/resource.ts';
import type { V313Observations } from '../../oracles/V313/observations.ts';
import type { JudgeFixture } from './recorded.ts';

export const observed = (f: JudgeFixture) => f.observations as V313Observations;
export const effects = (f: JudgeFixture) => f.effects as EffectRecord[];
/** B's first write of the scenario proper (after the solo run). */
export const bFirst = (f: JudgeFixture) =>
  effects(f).find((e) => e.holder === 'B' && e.seq > observed(f).solo.lastSeq)!;
/** A's writes that reached the resource after B's first. */
export const aAfterB = (f: JudgeFixture) => effects(f).filter((e) => e.holder === 'A' && e.seq > bFirst(f).seq);
/** The names of the preconditions a judgement found unmet. */
export const unmet = (j: { preconditions: Array<{ name: string; held: boolean }> }) =>
  j.preconditions.filter((c) => !c.held).map((c) => c.name);
