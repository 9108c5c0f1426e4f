/**
 * V318's judgement, a pure function of what play recorded: the later write in real order (B's)
 * must win. Judged only when each skew held across the writes, both writes happened in order, and
 * the clock gap outweighed the real gap between them (else a wall-clock LWW is right by luck).
 */
import { firstLine, nothingProven, type Check, type Judgement } from '../../src/core/judgement.ts';
import type { ParamValues } from '../../src/core/params.ts';
import type { Recorded } from '../../src/oracle/definition.ts';
import type { V318Observations } from './observations.ts';
import type { v318Params } from './params.ts';

export const SKEW_HELD = "each writer's skew was in force when it wrote";
export const IN_ORDER = "both writes happened, A's before B's in real time";
export const CLOCKS_CROSSED = "B's clock read earlier at its write than A's at A's";

export const V318_PRECONDITIONS = [
  { name: SKEW_HELD, checks: "A's and B's clock offsets, read before and after the writes, are the skews asked for" },
  {
    name: IN_ORDER,
    checks: "A's write returned and was read back before B's write began, and B's write returned",
  },
  {
    name: CLOCKS_CROSSED,
    checks:
      "the real time from A's write to the end of B's is under 2 × --skew, so B's clock read earlier than A's did",
  },
];

export function judgeV318(
  { observations: o, history }: Recorded<V318Observations>,
  p: ParamValues<typeof v318Params>,
): Judgement {
  const { values, offsets, aWrite, afterA, bWrite, final } = o;
  const preconditions: Check[] = [];
  const skewHeld =
    offsets.aBefore === p.skew &&
    offsets.aAfter === p.skew &&
    offsets.bBefore === -p.skew &&
    offsets.bAfter === -p.skew;
  preconditions.push({
    name: SKEW_HELD,
    held: skewHeld,
    detail: `A's offset ${offsets.aBefore} ms before and ${offsets.aAfter} ms after the writes; B's ${offsets.bBefore} ms before and ${offsets.bAfter} ms after`,
  });
  const inOrder =
    aWrite.ok && afterA.ok && afterA.value === values.a && bWrite.ok && aWrite.endedAt <= bWrite.startedAt;
  preconditions.push({
    name: IN_ORDER,
    held: inOrder,
    detail: inOrder
      ? `A wrote (${aWrite.startedAt}–${aWrite.endedAt} ms) and its value was read back; B wrote later (${bWrite.startedAt}–${bWrite.endedAt} ms)`
      : `A's write ${aWrite.ok ? 'returned' : `threw (${firstLine(aWrite.error)})`}, ${readBack()}; B's write ${bWrite.ok ? `returned at ${bWrite.endedAt} ms` : `threw (${firstLine(bWrite.error)})`}`,
  });
  // The skew only matters if it outweighs the real time between the writes.
  const realGap = bWrite.endedAt - aWrite.startedAt;
  preconditions.push({
    name: CLOCKS_CROSSED,
    held: 2 * p.skew > realGap,
    detail: `the writes were at most ${realGap.toFixed(1)} ms apart in real time against a clock gap of ${2 * p.skew} ms (A +${p.skew}, B −${p.skew})${2 * p.skew > realGap ? '' : ': raise --skew'}`,
  });

  const held = final.ok && final.value === values.b;
  const bEvents = history.filter((e) => e.holder === 'B' && (e.kind === 'call-end' || e.kind === 'call-error'));
  return {
    preconditions,
    counts: {
      skewMs: p.skew,
      realGapMs: Math.round((bWrite.startedAt - aWrite.endedAt) * 1000) / 1000,
      laterWriteWon: held ? 1 : 0,
    },
    property: {
      name: 'the later write (in real order) wins',
      held,
      detail: held
        ? `the record reads ${JSON.stringify(values.b)}, B's later write`
        : `the record reads ${JSON.stringify(final.value ?? final.error)}, not B's later write ${JSON.stringify(values.b)}`,
      offending: held ? [] : bEvents,
    },
    explanation: explain(),
  };

  function readBack(): string {
    if (!afterA.ok) return `reading the record back threw (${firstLine(afterA.error)})`;
    return afterA.value === values.a
      ? `its value was read back`
      : `the record read back ${JSON.stringify(afterA.value ?? null)}, not A's ${JSON.stringify(values.a)}: A's write is not in the record`;
  }

  function explain(): string {
    const unproven = nothingProven(preconditions);
    if (unproven) return unproven;
    const gap = (bWrite.startedAt - aWrite.endedAt).toFixed(1);
    return held
      ? `A (clock +${p.skew} ms) wrote the record, then B (clock −${p.skew} ms) wrote it ${gap} ms later in real time, and B's value stands although B's clock read ${2 * p.skew} ms earlier than A's: with this skew, the later write in real order won.`
      : `A (clock +${p.skew} ms) wrote the record, then B (clock −${p.skew} ms) wrote it ${gap} ms later in real time, but the record still reads A's value: ` +
          `the conflict was resolved by comparing wall-clock timestamps, and B's clock being ${2 * p.skew} ms behind A's made its later write look older. Order writes with a version counter, a sequence from the store, or a hybrid logical clock.`;
  }
}
