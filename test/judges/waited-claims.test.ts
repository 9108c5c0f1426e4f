/**
 * No verdict claims more than its run observed: every recorded judge fixture of every oracle is
 * judged again, and each sentence of its explanation or verdict line that says "never", "can ever",
 * "no later holder", "no holder could" or "forever" must be one this table accounts for — a claim
 * the run waited for (its bound named in the sentence, and the observations showing that wait), or
 * a sentence that is advice or a fact about what the run itself saw. A new such sentence fails here
 * until it is reworded or accounted for.
 */
import { describe, expect, it } from 'vitest';
import type { V311Observations } from '../../oracles/V311/observations.ts';
import { fixtures, rejudge, type JudgeFixture } from './recorded.ts';

const CLAIM = /\b(never|can ever|no later holder|no holder could|forever)\b/i;

interface Account {
  oracle: string;
  /** The sentence this account covers. */
  sentence: RegExp;
  /** Why the sentence claims no more than the run observed. */
  why: string;
  /** Checks the wait behind the claim, from the sentence and what the run recorded; throws if it was not waited. */
  waited?: (sentence: string, fixture: JudgeFixture) => void;
}

/** The span of the run's recorded history (ms): how long the run at least watched. */
const historySpan = (f: JudgeFixture) =>
  Math.max(...f.history.map((e) => e.t)) - Math.min(...f.history.map((e) => e.t));

/** "… within 5000 ms …": the run's history spans at least the stated bound. */
function spansStatedBound(sentence: string, fixture: JudgeFixture): void {
  const bound = Number(/within (\d+) ms/.exec(sentence)?.[1]);
  expect(bound, `no bound stated in: ${sentence}`).toBeGreaterThan(0);
  expect(historySpan(fixture), `the run's history spans less than the ${bound} ms it claims`).toBeGreaterThanOrEqual(
    bound,
  );
}

/** V311: the patience bound named, and the contenders denied from A's take until at least then. */
function waitedPatience(sentence: string, fixture: JudgeFixture): void {
  const bound = Number(/after the (\d+) ms patience bound/.exec(sentence)?.[1]);
  expect(bound, `no patience bound named in: ${sentence}`).toBeGreaterThan(0);
  const o = fixture.observations as V311Observations;
  expect(o.watch?.patienceMs).toBe(bound);
  const stoppedAt = Math.max(...o.watch!.tries.map((t) => t.endedAt));
  expect(o.watch!.tries.every((t) => !t.granted)).toBe(true);
  expect(stoppedAt - o.heldSince!).toBeGreaterThanOrEqual(bound);
}

const ACCOUNTS: Account[] = [
  {
    oracle: 'V311',
    sentence: /still held after the \d+ ms patience bound/,
    why: 'a lock said never to free is one the contenders were denied to the patience bound, named',
    waited: waitedPatience,
  },
  {
    oracle: 'V310',
    sentence: /within \d+ ms: A's lease never lapsed, so the fault did not land/,
    why: 'an INCONCLUSIVE reason bounded by the timeout it states (wording to tighten: "had not lapsed by then")',
    waited: spansStatedBound,
  },
  {
    oracle: 'V315',
    sentence: /within \d+ ms of A being cut off: A's lease never lapsed, so the fault did not land/,
    why: 'an INCONCLUSIVE reason bounded by the timeout it states (wording to tighten: "had not lapsed by then")',
    waited: spansStatedBound,
  },
  {
    oracle: 'V313',
    sentence: /A never acted on a lock the failover could lose/,
    why: "a fact of the run: A's job ended before its first write",
  },
  {
    oracle: 'V315',
    sentence: /^Elect in one atomic step \(on Redis SET key token PX ttl NX, never GET then SET/,
    why: 'advice: how to elect, not a claim about the run',
  },
  {
    oracle: 'V317',
    sentence:
      /^Count a delegation on the delegate's own monotonic clock .*never a remote timestamp against a local clock/,
    why: 'advice: how to count a delegation, not a claim about the run',
  },
  {
    oracle: 'V316',
    sentence: /returned on its own .* before its \d+ ms limit, without its timeout firing: the guard was never needed/,
    why: 'a fact of the run: the operation returned before its limit, so its guard had nothing to do',
  },
  {
    oracle: 'V316',
    sentence: /a step forward makes a guard on the wall clock fire early, never late/,
    why: 'a rule of clocks the reason rests on, not a claim about how long the run watched',
  },
];

/** The sentences of a text (split after a full stop that ends one). */
const sentences = (text: string) => text.split(/(?<=\.)\s+(?=[A-Z])/);

const all = fixtures();

describe('claims of "never" in verdicts', () => {
  it('has recorded runs to read, and V311 claims among them (a suite with none checks nothing)', async () => {
    expect(all.length).toBeGreaterThan(0);
    const v311 = await Promise.all(all.filter((f) => f.fixture.oracle === 'V311').map((f) => rejudge(f.fixture)));
    expect(v311.some(({ judgement }) => CLAIM.test(judgement.explanation))).toBe(true);
  });

  it.each(all.map(({ name, fixture }) => [name, fixture] as const))(
    '%s claims "never" only as waited for, as advice, or as a fact of the run',
    async (_, fixture) => {
      const { judgement } = await rejudge(fixture);
      const claims = [judgement.property.detail, ...sentences(judgement.explanation)].filter((s) => CLAIM.test(s));
      for (const claim of claims) {
        const account = ACCOUNTS.find((a) => a.oracle === fixture.oracle && a.sentence.test(claim));
        expect(
          account,
          `unaccounted claim (reword it, or say in ${import.meta.filename} why it holds): ${claim}`,
        ).toBeDefined();
        account!.waited?.(claim, fixture);
      }
    },
  );

  it("finds V311's claim unwaited had the contenders stopped short of the bound it names", () => {
    const never = all.find((f) => f.name === 'V311/bad-never-mkdir-no-stale')!.fixture;
    const cut = structuredClone(never);
    const o = cut.observations as V311Observations;
    for (const t of o.watch!.tries) t.endedAt = o.heldSince! + o.watch!.patienceMs - 1;
    const sentence = `still held after the ${o.watch!.patienceMs} ms patience bound`;
    expect(() => waitedPatience(sentence, never)).not.toThrow();
    expect(() => waitedPatience(sentence, cut)).toThrow();
  });
});
