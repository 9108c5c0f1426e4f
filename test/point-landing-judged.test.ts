/**
 * The judge stage's rule for an explored point whose fault lands itself (src/run/stages/judge.ts
 * withPointLanded): where the landing said it cannot land there, the point is left out, never
 * judged — INCONCLUSIVE with the landing's reason — whatever the oracle's judgement read; with one
 * fact changed (it landed, or the oracle said so itself) the judgement stands as it was.
 */
import { describe, expect, it } from 'vitest';
import type { Judgement } from '../src/core/judgement.ts';
import { decideVerdict } from '../src/core/judgement.ts';
import { withPointLanded } from '../src/run/stages/judge.ts';

const violated: Judgement = {
  preconditions: [{ name: 'B took the lock while A was held', held: true, detail: 'B acquired at 1210 ms' }],
  property: { name: 'one holder at a time', held: false, detail: 'A wrote after B', offending: [] },
  counts: {},
  explanation: 'A wrote after B took the lock.',
};
const cannot = 'nothing holds lock-oracles:V312: revoking lease 4469156590579640583 cannot end the lock';

describe('the judge stage and a point whose fault could not land', () => {
  it('leaves the point out: INCONCLUSIVE, not applicable, with the reason, never the FAIL the flow read', () => {
    expect(decideVerdict(violated)).toBe('FAIL');
    const judged = withPointLanded(violated, cannot);
    expect(decideVerdict(judged)).toBe('INCONCLUSIVE');
    expect(judged.notApplicable).toBe(cannot);
    expect(judged.explanation).toContain(cannot);
    expect(judged.explanation).toContain("The scenario's own reading: A wrote after B took the lock.");
  });

  it('keeps the judgement when the fault landed', () => {
    expect(withPointLanded(violated, undefined)).toBe(violated);
  });

  it("keeps the oracle's own not-applicable judgement (V313 judges its landing itself)", () => {
    const own = { ...violated, notApplicable: 'A was held at job#3 and connection-killed did not apply there' };
    expect(withPointLanded(own, cannot)).toBe(own);
  });
});
