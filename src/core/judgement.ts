/**
 * What a run concludes, and from what: a judgement (preconditions, the property with its offending
 * events, counts, an explanation) and the one rule that turns it into a verdict. Any precondition
 * that did not hold makes the run INCONCLUSIVE (nothing was proven), whatever the property says.
 */
import type { HistoryEvent } from './history.ts';
import type { EffectRecord } from './resource.ts';

/** What a run concludes. INTERRUPTED: a signal stopped it before anything was judged. */
export type Verdict = 'PASS' | 'FAIL' | 'INCONCLUSIVE' | 'ERROR' | 'INTERRUPTED';

/** A condition the scenario needs for its result to mean anything (the fault really landed...). */
export interface Check {
  name: string;
  held: boolean;
  /** What was observed, in a sentence with the numbers. */
  detail: string;
}

export interface PropertyResult {
  /** The property, in words ("B's lock survives A's release"). */
  name: string;
  held: boolean;
  detail: string;
  /** The events that show the violation (empty when it held). */
  offending: Array<HistoryEvent | EffectRecord>;
  /** When the violation lasted (harness ms), if it spans an interval: the timeline draws it as a band. */
  window?: { from: number; to: number; what: string };
}

export interface Judgement {
  preconditions: Check[];
  property: PropertyResult;
  /** The numbers the property is judged on (effects, overlaps, leaked locks...). */
  counts: Record<string, number>;
  /** One paragraph a reviewer can read without the history. */
  explanation: string;
  /**
   * An explored point whose fault cannot land here, and why, as the run showed it (A already held
   * the lock at that boundary, so P could not enter): the point is INCONCLUSIVE on its own, and
   * `--explore` leaves it out of its verdict and says so. Never set for a point that could have
   * landed and did not.
   */
  notApplicable?: string;
}

/** The verdict rule, in one place. */
export function decideVerdict(judgement: Judgement): Verdict {
  if (judgement.preconditions.some((check) => !check.held)) return 'INCONCLUSIVE';
  return judgement.property.held ? 'PASS' : 'FAIL';
}

/** The explanation of an INCONCLUSIVE run, from the preconditions that did not hold; undefined when all held. */
export function nothingProven(preconditions: readonly Check[]): string | undefined {
  const failed = preconditions.filter((check) => !check.held);
  if (!failed.length) return undefined;
  return `Nothing was proven. ${failed.map((check) => `${check.name}: ${check.detail}`).join('; ')}.`;
}

/** The first line of a text (a one-line summary of an explanation or an error). */
export function firstLine(text: string | undefined): string {
  return (text ?? '').split('\n')[0] ?? '';
}
