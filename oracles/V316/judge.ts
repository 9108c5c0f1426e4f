/**
 * V316's judgement, a pure function of what play recorded: each guard fires --ttl ms (±--tolerance)
 * after its operation began, on the holder's own monotonic clock. Judged only when each clock step
 * landed mid-operation and each operation was still running when its timeout was due; a firing late
 * by more than the step explains is a starved process, not a guard on the wall clock.
 */
import { nothingProven, type Check, type Judgement } from '../../src/core/judgement.ts';
import type { HistoryEvent } from '../../src/core/history.ts';
import type { ParamValues } from '../../src/core/params.ts';
import type { EffectRecord } from '../../src/core/resource.ts';
import type { Recorded } from '../../src/oracle/definition.ts';
import type { LegHolder, V316Leg, V316Observations } from './observations.ts';
import type { v316Params } from './params.ts';

/** Each holder's preconditions, by name (fixed strings: one per holder). */
export const STEP_LANDED: Record<LegHolder, string> = {
  A: "A's wall-clock step landed mid-operation",
  B: "B's wall-clock step landed mid-operation",
};
export const STILL_RUNNING: Record<LegHolder, string> = {
  A: "A's operation was still running when its timeout was due",
  B: "B's operation was still running when its timeout was due",
};
export const LATE_BY_STEP: Record<LegHolder, string> = {
  A: "A's late firing is its wall-clock step's doing",
  B: "B's late firing is its wall-clock step's doing",
};

export const V316_PRECONDITIONS = (['A', 'B'] as const).flatMap((h) => [
  {
    name: STEP_LANDED[h],
    checks: `${h}'s clock was stepped after its operation began, before its limit, before its guard fired, and while the operation still ran`,
  },
  {
    name: STILL_RUNNING[h],
    checks: `${h}'s operation did not return on its own before its limit without its timeout firing (else its guard was never needed)`,
  },
  {
    name: LATE_BY_STEP[h],
    checks: `a firing of ${h}'s more than --tolerance late counts only when its clock was stepped back by about that much (a process starved of CPU fires a correct guard late, never early, and not by the step)`,
  },
]);

interface LegResult {
  leg: V316Leg;
  step: HistoryEvent | undefined;
  fired: EffectRecord | undefined;
  /** ms from the operation's start to its firing (the holder's own clock where it says), or undefined: it never fired. */
  elapsed: number | undefined;
  onTime: boolean;
  lateBy: number | undefined;
  /** Late by more than the tolerance, and not by about its step back: its process was late, not its guard. */
  lateNotByStep: boolean;
}

export function judgeV316(
  { observations: o, history, effects }: Recorded<V316Observations>,
  p: ParamValues<typeof v316Params>,
): Judgement {
  const waitFor = p.ttl + 2 * p.tolerance;
  const preconditions: Check[] = [];
  const results = o.legs.map((leg): LegResult => {
    const id = leg.holder;
    // What play saw by the time it stopped watching: the holder's clock step and its guard's firing.
    const step = history
      .filter((e) => e.kind === 'clock-step' && e.holder === id && e.detail.op === 'step' && e.t <= o.watchedUntil)
      .at(-1);
    const fired = effects.find((e) => e.holder === id && e.name === 'timeout' && e.t <= o.watchedUntil);
    const stepAt = step?.t;
    const sentAt = Number(step?.detail.sentAt);
    const endedFirst = fired === undefined && leg.endedAt !== null && leg.endedAt <= sentAt;
    const landed =
      stepAt !== undefined &&
      stepAt > leg.startedAt &&
      stepAt < leg.startedAt + p.ttl &&
      (fired === undefined || fired.t > sentAt) &&
      !endedFirst;
    preconditions.push({
      name: STEP_LANDED[id],
      held: landed,
      detail:
        stepAt === undefined
          ? `${id}'s clock was never stepped`
          : `${id}'s operation began at ${leg.startedAt} ms; its clock was stepped ${leg.deltaMs > 0 ? '+' : ''}${leg.deltaMs} ms at ${stepAt} ms ` +
            `(limit at ${(leg.startedAt + p.ttl).toFixed(1)} ms)${fired && !landed ? `, but its timeout had already fired at ${fired.t} ms` : ''}` +
            (endedFirst
              ? `, but its operation had already returned at ${leg.endedAt} ms without its timeout firing: the guard was no longer running when the clock moved`
              : ''),
    });
    const returnedEarly = fired === undefined && leg.endedAt !== null && leg.endedAt < leg.startedAt + p.ttl;
    preconditions.push({
      name: STILL_RUNNING[id],
      held: !returnedEarly,
      detail: returnedEarly
        ? `${id}'s operation returned on its own at ${leg.endedAt} ms, ${(leg.endedAt! - leg.startedAt).toFixed(1)} ms after it began and before its ${p.ttl} ms limit, without its timeout firing: the guard was never needed, so its timing was not tested`
        : fired
          ? `${id}'s timeout fired at ${fired.t} ms`
          : `${id}'s operation ${leg.endedAt === null ? 'was still running' : `returned at ${leg.endedAt} ms`}, past its limit at ${(leg.startedAt + p.ttl).toFixed(1)} ms, without its timeout firing`,
    });
    const elapsed = fired
      ? fired.holderAt !== undefined && leg.span
        ? fired.holderAt - leg.span.began
        : fired.t - leg.startedAt
      : undefined;
    const onTime = elapsed !== undefined && Math.abs(elapsed - p.ttl) <= p.tolerance;
    // A process starved of CPU fires a timer late, never early, and by its own lateness, not the
    // step's: a late firing counts only when the clock was stepped back by about that much.
    const lateBy = elapsed === undefined ? undefined : elapsed - p.ttl;
    const lateNotByStep =
      lateBy !== undefined && lateBy > p.tolerance && !(leg.deltaMs < 0 && lateBy >= -leg.deltaMs - p.tolerance);
    return { leg, step, fired, elapsed, onTime, lateBy, lateNotByStep };
  });

  const late = results.filter((r) => !r.onTime && !r.lateNotByStep);
  const starved = results.filter((r) => r.lateNotByStep);
  if (late.length === 0) {
    for (const r of starved) {
      preconditions.push({
        name: LATE_BY_STEP[r.leg.holder],
        held: false,
        detail:
          `${r.leg.holder}'s timeout fired ${r.lateBy!.toFixed(1)} ms late by its own monotonic clock, but its wall clock was stepped ${r.leg.deltaMs > 0 ? 'forward' : 'back'} ${Math.abs(r.leg.deltaMs)} ms: ` +
          (r.leg.deltaMs > 0
            ? 'a step forward makes a guard on the wall clock fire early, never late'
            : `a guard on the wall clock would fire about ${Math.abs(r.leg.deltaMs)} ms late`) +
          ', so its process was late (starved of CPU on a loaded machine), not its guard following the wall clock',
      });
    }
  }
  const offending: Array<HistoryEvent | EffectRecord> = late.flatMap((r) => [
    ...(r.step ? [r.step] : []),
    ...(r.fired ? [r.fired] : []),
  ]);
  const describe = (r: LegResult) =>
    r.elapsed === undefined
      ? `${r.leg.holder} (clock ${r.leg.deltaMs > 0 ? 'forward' : 'back'}): no timeout within ${waitFor} ms`
      : `${r.leg.holder} (clock ${r.leg.deltaMs > 0 ? 'forward' : 'back'}): fired after ${r.elapsed.toFixed(1)} ms`;
  const counts: Record<string, number> = { limitMs: p.ttl, toleranceMs: p.tolerance, stepMs: p.step };
  for (const r of results) {
    counts[`${r.leg.holder}FiredAfterMs`] = r.elapsed === undefined ? -1 : Math.round(r.elapsed * 10) / 10;
    counts[`${r.leg.holder}ErrorMs`] = r.elapsed === undefined ? -1 : Math.round(Math.abs(r.elapsed - p.ttl) * 10) / 10;
  }
  const held = late.length === 0;
  return {
    preconditions,
    counts,
    property: {
      name: `each timeout fires ${p.ttl} ms (±${p.tolerance} ms) after its operation began`,
      held,
      detail: results.map(describe).join('; '),
      offending: held ? [] : offending,
    },
    explanation: explain(),
  };

  function explain(): string {
    const unproven = nothingProven(preconditions);
    if (unproven) return unproven;
    if (held) {
      return (
        `Each holder's wall clock was stepped by ${p.step} ms (${results.map((r) => `${r.leg.holder} ${r.leg.deltaMs > 0 ? 'forward' : 'back'}`).join(', ')}) halfway through a ${p.ttl} ms timeout, ` +
        `and every timeout still fired on time by the monotonic clock (${results.map(describe).join('; ')}): the guard does not read the wall clock.`
      );
    }
    return (
      `Halfway through a ${p.ttl} ms timeout the holders' wall clocks were stepped by ${p.step} ms, as NTP or a VM migration may do. ` +
      `The guard followed the wall clock: ${late.map(describe).join('; ')}, against a limit of ${p.ttl} ms (±${p.tolerance} ms). ` +
      `A step back delays a timeout or lease check by the size of the step; a step forward fires it early. Measure durations with performance.now() or process.hrtime.bigint(), or use a timer (setTimeout, AbortSignal.timeout).`
    );
  }
}
