/**
 * V319's judgement, a pure function of what play recorded: on every simulated local day the job
 * fired --per-day times across the fleet. Judged only when every replica's scheduler was armed,
 * every day ran to its end within its budgets (or was stopped after too many fires already), every fire's work
 * settled at its own instant, and the store's clock stayed in step with the simulated one.
 */
import { type Check, type Judgement, nothingProven } from '../../src/core/judgement.ts';
import type { HistoryEvent } from '../../src/core/history.ts';
import type { EffectRecord } from '../../src/core/resource.ts';
import type { ParamValues } from '../../src/core/params.ts';
import type { DeclaredCheck, Recorded } from '../../src/oracle/definition.ts';
import { localTime } from '../../scenarios/zone-days.ts';
import type { DayObservation, V319Observations } from './observations.ts';
import { dayRealBudgetMs, type v319Params } from './params.ts';

export const ARMED = "every replica's scheduler was armed";
export const WITHIN_BUDGET = 'every day ran to its end within its CPU and real-time budgets';
export const SETTLED = "each fire's work settled at its own simulated instant";
export const IN_STEP = "the store's clock was in step with the simulated clock";

export const V319_PRECONDITIONS: DeclaredCheck[] = [
  { name: ARMED, checks: 'after schedule() every replica had a timer pending, on each day' },
  {
    name: WITHIN_BUDGET,
    checks:
      "no replica spent more than --cpu-budget ms of CPU on a day's timers and no day took more than its real-time budget, or the day stopped had already fired more than --per-day times",
  },
  {
    name: SETTLED,
    checks: 'the work every instant started settled within --settle-timeout ms real, before the clocks moved on',
  },
  {
    name: IN_STEP,
    checks:
      "the store's clock, read at each day's start and end and after every instant that did work, was within --in-step ms of the simulated one, and moved through the whole day",
  },
];

export function judgeV319(
  { observations: o, history, effects }: Recorded<V319Observations>,
  p: ParamValues<typeof v319Params>,
): Judgement {
  const { days, skipped } = o;
  const label = (day: DayObservation) => `${day.zone} ${day.date}`;
  const preconditions: Check[] = [];
  const unarmed = days.filter((d) => d.unarmed.length);
  preconditions.push({
    name: ARMED,
    held: unarmed.length === 0,
    detail: unarmed.length
      ? unarmed.map((d) => `${label(d)}: ${d.unarmed.join(', ')} had no timer pending after schedule()`).join('; ')
      : `after schedule() every replica had a timer pending on each of ${days.length} day(s)`,
  });
  // A day stopped early is only judged when it had already fired too often.
  const unjudged = days.filter((d) => d.stopped && d.fires.length <= p.perDay);
  const mostCpu = (d: DayObservation) => Math.max(0, ...Object.values(d.cpuMs));
  preconditions.push({
    name: WITHIN_BUDGET,
    held: unjudged.length === 0,
    detail: days.some((d) => d.stopped)
      ? days
          .filter((d) => d.stopped)
          .map((d) => `${label(d)}: ${stopText(d)}`)
          .join('; ') + (skipped.length ? `; not simulated after it: ${skipped.join(', ')}` : '')
      : `every day ran to its end; the most CPU a replica spent on a day: ${(Math.max(0, ...days.map(mostCpu)) / 1000).toFixed(1)} s (budget ${p.cpuBudget / 1000} s), the most timers: ${Math.max(0, ...days.flatMap((d) => Object.values(d.timers)))}`,
  });
  const unsettled = days.flatMap((d) => d.unsettled.map((u) => `${u.replica} at ${localTime(d.zone, u.simMs)}`));
  preconditions.push({
    name: SETTLED,
    held: unsettled.length === 0,
    detail: unsettled.length
      ? `work was still pending after ${p.settleTimeout} ms real: ${unsettled.slice(0, 5).join('; ')}`
      : `the work of every instant that did work settled before the clocks moved on (${days.reduce((n, d) => n + d.workingAdvances, 0)} such instants)`,
  });
  const readings = days.reduce((n, d) => n + d.storeSkew.readings, 0);
  const maxSkew = Math.max(0, ...days.map((d) => d.storeSkew.maxAbsMs));
  const drift = days.map((d) => ({
    day: d,
    storeMoved: d.storeEndMs - d.storeStartMs,
    simulated: d.endedMs - d.startMs,
  }));
  const moved = drift.every((d) => Math.abs(d.storeMoved - d.simulated) <= p.inStep + d.day.wallMs);
  preconditions.push({
    name: IN_STEP,
    held: readings > 0 && maxSkew <= p.inStep && moved,
    detail:
      `${readings} reading(s) of the store's clock (TIME), at each day's start and end and right after every instant that did work settled, differed from the simulated instant by at most ${maxSkew.toFixed(1)} ms (accepted: ${p.inStep} ms); ` +
      drift
        .map(
          (d) =>
            `${label(d.day)}: store clock moved ${(d.storeMoved / 3_600_000).toFixed(3)} h for ${(d.simulated / 3_600_000).toFixed(3)} h simulated`,
        )
        .join('; ') +
      `; mechanism: ${o.storeClockMechanism}`,
  });

  const counts: Record<string, number> = {};
  const wrong: DayObservation[] = [];
  for (const day of days) {
    counts[`${label(day)} fires`] = day.fires.length;
    for (const id of o.replicas) counts[`${label(day)} ${id}`] = day.fires.filter((f) => f.replica === id).length;
    counts[`${label(day)} wallMs`] = Math.round(day.wallMs);
    counts[`${label(day)} cpuMs`] = Math.round(mostCpu(day));
    counts[`${label(day)} timers`] = Math.max(0, ...Object.values(day.timers));
    if (day.stopped) counts[`${label(day)} stoppedAtSimulatedMs`] = day.stopped.simulatedMs;
    if (day.stopped ? day.fires.length > p.perDay : day.fires.length !== p.perDay) wrong.push(day);
  }
  counts.storeSkewMaxMs = Math.round(maxSkew * 10) / 10;
  const held = wrong.length === 0;
  const describe = (day: DayObservation) =>
    `${label(day)}: ${day.fires.length} fire(s)${day.fires.length ? ` (${day.fires.map((f) => `${f.replica} at ${localTime(day.zone, f.simMs)}`).join(', ')})` : ''}`;
  // A day's summary (its fires, or none) and every fire it had.
  const bySeq = new Map(effects.map((e) => [e.seq, e]));
  const offending = wrong.flatMap((d): Array<HistoryEvent | EffectRecord> => [
    ...history.filter((e) => e.i === d.summaryEvent),
    ...d.fires.flatMap((f) => bySeq.get(f.seq) ?? []),
  ]);
  return {
    preconditions,
    counts,
    property: {
      name: `the job fires ${p.perDay} time(s) on every local day across the fleet`,
      held,
      detail: days.map(describe).join('; '),
      offending,
    },
    explanation: explain(),
  };

  /** How far a stopped day got, what it cost, and its fires until then. */
  function stopText(day: DayObservation): string {
    const stop = day.stopped!;
    const budget =
      stop.spent === 'cpu'
        ? `replica ${stop.replica} spent its CPU budget (${(stop.cpuMs / 1000).toFixed(1)} s of ${p.cpuBudget / 1000} s)`
        : `the day spent its real-time budget (${dayRealBudgetMs(p) / 1000} s; replica ${stop.replica} had spent ${(stop.cpuMs / 1000).toFixed(1)} s of CPU)`;
    const fires = day.fires.length
      ? `${day.fires.length} fire(s) until then (${day.fires.map((f) => `${f.replica} at ${localTime(day.zone, f.simMs)}`).join(', ')})`
      : 'no fire until then';
    const verdict =
      day.fires.length > p.perDay
        ? `already more than the ${p.perDay} documented`
        : `the rest of the day could still change that count (documented: ${p.perDay}), so it is not judged`;
    return `stopped at ${localTime(day.zone, day.endedMs)} (${(stop.simulatedMs / 3_600_000).toFixed(2)} h into the day): ${budget} on ${stop.timers} timers, the last ones at ${stop.perSimulatedSecond} per simulated second; ${fires}: ${verdict}`;
  }

  function explain(): string {
    const unproven = nothingProven(preconditions);
    if (unproven) return unproven;
    const setting =
      `${p.replicas} replicas ran the target's scheduler on their own simulated clocks through ${days.map(label).join(', ')}, ` +
      `each day in ${Math.round(Math.max(...days.map((d) => d.wallMs)))} ms or less of real time (${(Math.max(...days.map(mostCpu)) / 1000).toFixed(1)} s of CPU or less a replica), with the store's clock stepped along (within ${maxSkew.toFixed(0)} ms) so the ${p.ttl} ms fleet lock lapsed in simulated time.`;
    if (held) return `${setting} The job fired ${p.perDay} time(s) on every day.`;
    return (
      `${setting} The job did not fire the documented ${p.perDay} time(s) a day: ${wrong.map(describe).join('; ')}. ` +
      `A local-time schedule meets a missing hour in spring and a repeated hour in autumn; a fleet lock shorter than the repeat (or keyed by the instant rather than the local date) does not stop a second run, and nothing makes up a skipped one. ` +
      `Schedule in UTC, keep the job's local time outside the transition hour, or key the lock (or a dedupe record) by the local date.`
    );
  }
}
