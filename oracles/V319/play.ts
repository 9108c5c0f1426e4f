/**
 * V319's scenario: a fleet of replicas, each behind its own wire proxy, runs the target's scheduler
 * through each local day on simulated clocks (scenarios/simulated-day.ts), the store's clock kept in
 * step and read with the store's own clock query. Records what each day did; judges nothing.
 */
import { UsageError } from '../../src/core/errors.ts';
import type { ParamValues } from '../../src/core/params.ts';
import type { Scenario } from '../../src/oracle/scenario.ts';
import { runSimulatedDay, type DayRun } from '../../scenarios/simulated-day.ts';
import { localTime, parseZoneDays } from '../../scenarios/zone-days.ts';
import type { DayObservation, V319Observations } from './observations.ts';
import { dayRealBudgetMs, type v319Params } from './params.ts';

export async function playV319(s: Scenario, p: ParamValues<typeof v319Params>): Promise<V319Observations> {
  const storeClock = s.store.capabilities.clock;
  if (!storeClock)
    throw new Error(
      `the ${s.store.kind} store was started without a clock; V319 needs the store's clock in step with the simulated one`,
    );
  const view = s.view();
  const clockMs = view.clockMs?.bind(view);
  if (!clockMs) throw new UsageError(`V319 reads the store's clock, which a ${s.family.name} store does not offer`);
  const ids = Array.from({ length: p.replicas }, (_, i) => `R${i + 1}`);
  // Each replica behind its own wire proxy: what it sends is held there while its clock is ahead of the store's.
  const replicas = await Promise.all(
    ids.map(async (id) => {
      const wire = await s.wire(id);
      return { holder: await s.holder(id, { url: wire.url }), wire };
    }),
  );
  const days = parseZoneDays(p.days);

  const observed: DayObservation[] = [];
  for (const day of days) {
    s.progress(
      `simulating ${day.date} in ${day.zone} (${(day.endMs - day.startMs) / 3_600_000} h) on ${p.replicas} replicas`,
    );
    const run = await runSimulatedDay(s, replicas, storeClock, day, {
      settleTimeoutMs: p.settleTimeout,
      storeNow: clockMs,
      cpuBudgetMs: p.cpuBudget,
      realBudgetMs: dayRealBudgetMs(p),
      ...(p.hostTz ? { hostZone: p.hostTz } : {}),
    });
    const maxAbsSkewMs = run.storeSkewsMs.reduce((most, skew) => Math.max(most, Math.abs(skew)), 0);
    const summary = s.history.add('note', undefined, {
      text: `simulated ${day.zone} ${day.date}`,
      fires: run.fires.map((f) => ({ replica: f.replica, at: localTime(day.zone, f.simMs), seq: f.effect.seq })),
      advances: run.advances,
      workingAdvances: run.workingAdvances,
      timers: run.timers,
      cpuMs: Object.fromEntries(Object.entries(run.cpuMs).map(([id, ms]) => [id, Math.round(ms)])),
      ...(run.stopped ? { stopped: run.stopped } : {}),
      wallMs: Math.round(run.wallMs),
      storeSkewMaxMs: Math.round(maxAbsSkewMs),
    });
    observed.push(dayObservation(run, summary.i, maxAbsSkewMs));
    // A day stopped by a budget decides the run (INCONCLUSIVE, or FAIL when it had already fired too
    // often); the next days would cost as much and only spend the run's deadline.
    if (run.stopped) break;
  }
  return {
    replicas: ids,
    storeClockMechanism: storeClock.mechanism,
    days: observed,
    skipped: days.slice(observed.length).map((d) => `${d.zone} ${d.date}`),
  };
}

/** A day as the judge needs it: its fires by effect seq, and the store's clock readings summed up (a poller's day has tens of thousands). */
function dayObservation(run: DayRun, summaryEvent: number, maxAbsSkewMs: number): DayObservation {
  return {
    zone: run.day.zone,
    date: run.day.date,
    startMs: run.day.startMs,
    summaryEvent,
    fires: run.fires.map((f) => ({ replica: f.replica, simMs: f.simMs, seq: f.effect.seq })),
    unarmed: run.unarmed,
    unsettled: run.unsettled,
    storeSkew: { readings: run.storeSkewsMs.length, maxAbsMs: maxAbsSkewMs },
    storeStartMs: run.storeStartMs,
    storeEndMs: run.storeEndMs,
    endedMs: run.endedMs,
    wallMs: run.wallMs,
    workingAdvances: run.workingAdvances,
    timers: run.timers,
    cpuMs: run.cpuMs,
    stopped: run.stopped ?? null,
  };
}
