/**
 * Runs a fleet of replicas through one local day on simulated clocks, with the store's clock kept
 * in step: before every advance the store's wall clock is set to the instant the replicas are
 * advanced to, so a lock TTL the store keeps lapses in simulated time as it would in real time.
 *
 * Each replica has its own simulated clock (its own process). The harness advances all of them to
 * the earliest timer any of them has pending, and each holds its clock still until the work its
 * fired timers started (lock commands, effects) has settled, so that work happens at the simulated
 * instant it was fired for. Quiet advances (timers that started no async work) are counted but not
 * put in the history one by one.
 *
 * A replica also runs ahead inside its own process, up to `quietMs` past the instant it was
 * advanced to, through timers that start no async work (a scheduler polling with zero-delay
 * timers): those touch nothing the harness or another replica can see, so they need no round trip
 * each. The first instant that starts work ends the run-ahead there; the store's clock is then at
 * most `quietMs` behind that replica's (its skew is read and judged as every other). Each replica
 * may run at most `timerBudget` timers a day: a scheduler that storms past it stops the day, and
 * the storm (timers run, over how much simulated time) is reported instead of a day's count.
 */
import type { EffectRecord } from '../src/resource.ts';
import type { StoreClock } from '../src/stores/types.ts';
import type { Holder } from './holder.ts';
import type { Scenario } from './scenario.ts';
import type { ZoneDay } from './zone-days.ts';

export interface DayOptions {
  /** Real ms a replica may take to settle the work one advance started. */
  settleTimeoutMs: number;
  /** Reads the store's own wall clock (e.g. Redis TIME), epoch ms. */
  storeNow: () => Promise<number>;
  /** How far past an advance a replica may run on through its own quiet timers (simulated ms). */
  quietMs: number;
  /** Timers a replica may run in one day before the day is stopped as a timer storm. */
  timerBudget: number;
  /** The replicas' TZ, when it is not the day's zone (a host running in UTC, say). */
  hostZone?: string;
}

/** A replica that ran more than the timer budget: the day was stopped where it had got to. */
export interface TimerStorm {
  replica: string;
  timers: number;
  /** Simulated ms from the day's start to where the day was stopped. */
  simulatedMs: number;
  /** Timers per simulated second over the second half of the budget (the storm's own rate). */
  perSimulatedSecond: number;
}

/** History events for working advances are kept for this many per day, then only counted. */
const WORKING_EVENTS_KEPT = 200;

export interface FireRecord {
  effect: EffectRecord;
  replica: string;
  /** The simulated instant it was fired at, epoch ms. */
  simMs: number;
}

export interface DayRun {
  day: ZoneDay;
  /** Advances in all (each to the next timer any replica had pending). */
  advances: number;
  /** Advances in which fired timers started async work. */
  workingAdvances: number;
  /** Replicas whose work had not settled within settleTimeoutMs, with the instant. */
  unsettled: Array<{ replica: string; simMs: number }>;
  /** Store clock minus simulated clock, read at the day's start and end and right after each advance that did work (ms). */
  storeSkewsMs: number[];
  /** The store's clock at the day's start and end. */
  storeStartMs: number;
  storeEndMs: number;
  /** Replicas whose scheduler had no timer pending once schedule() returned. */
  unarmed: string[];
  fires: FireRecord[];
  wallMs: number;
  /** Timers each replica ran this day. */
  timers: Record<string, number>;
  /** Set when a replica exceeded the timer budget and the day was stopped early. */
  storm?: TimerStorm;
  /** The simulated instant the day ended (its last instant, or where a storm stopped it). */
  endedMs: number;
}

export async function runSimulatedDay(s: Scenario, replicas: Holder[], storeClock: StoreClock, day: ZoneDay, options: DayOptions): Promise<DayRun> {
  const began = performance.now();
  const stepStore = async (simMs: number) => storeClock.setOffsetMs(Math.round(simMs - Date.now()));
  const storeSkewsMs: number[] = [];
  /** Read the store's clock, compare it with the simulated instant, and put both in the history. */
  const observeStore = async (simMs: number, label: string) => {
    const storeMs = await options.storeNow();
    storeSkewsMs.push(storeMs - simMs);
    s.history.add('store-observed', undefined, { label, simMs, storeMs: Math.round(storeMs), skewMs: Math.round((storeMs - simMs) * 10) / 10 });
    return storeMs;
  };
  await stepStore(day.startMs);
  const storeStartMs = await observeStore(day.startMs, `store clock at the start of ${day.zone} ${day.date}`);
  const storeFault = s.faults.apply('store', undefined, `store wall clock kept in step with the simulated day ${day.zone} ${day.date}`, {
    zone: day.zone,
    date: day.date,
    offsetMs: storeClock.offsetMs(),
    mechanism: storeClock.mechanism,
  });
  const clockFaults = replicas.map((r) =>
    s.faults.apply('clock', r.id, `simulated clock (Date and timers) through ${day.date} in ${day.zone}`, { startMs: day.startMs, endMs: day.endMs }),
  );
  const next = new Map<string, number | null>();
  await Promise.all(
    replicas.map(async (r) => {
      await r.clock({ op: 'install-sim', startMs: day.startMs, zone: options.hostZone ?? day.zone });
      const scheduled = await r.call('schedule');
      if (!scheduled.ok) throw new Error(`replica ${r.id}: the target's schedule() threw:\n${scheduled.error}`);
      // A clock command answers with the replica's next pending timer.
      next.set(r.id, (await r.clock({ op: 'advance', toMs: day.startMs, settleTimeoutMs: options.settleTimeoutMs })).nextTimerMs ?? null);
    }),
  );
  const unarmed = replicas.filter((r) => next.get(r.id) === null).map((r) => r.id);
  const lastInstant = day.endMs - 1;
  /** Where each replica passed half its timer budget (to measure a storm's rate). */
  const halfBudgetAt = new Map<string, { simMs: number; timers: number }>();
  const run: DayRun = {
    day,
    advances: 0,
    workingAdvances: 0,
    unsettled: [],
    storeSkewsMs,
    storeStartMs,
    storeEndMs: storeStartMs,
    unarmed,
    fires: [],
    wallMs: 0,
    timers: Object.fromEntries(replicas.map((r) => [r.id, 0])),
    endedMs: lastInstant,
  };
  for (;;) {
    const pending = [...next.values()].filter((t): t is number => t !== null);
    const to = Math.min(lastInstant, ...pending);
    await stepStore(to);
    const effectsBefore = s.resource.effects().length;
    const quietUntilMs = Math.min(lastInstant, to + options.quietMs);
    const replies = await Promise.all(
      replicas.map(async (r) => {
        const maxFires = Math.max(1, options.timerBudget + 1 - run.timers[r.id]!);
        const command = { op: 'advance', toMs: to, settleTimeoutMs: options.settleTimeoutMs, quietUntilMs, maxFires } as const;
        return [r, await r.clock(command, false)] as const;
      }),
    );
    run.advances += 1;
    const working = replies.filter(([, reply]) => (reply.work ?? 0) > 0);
    // Work is done at the instant its timer fired: the furthest a working replica ran ahead.
    const workedAt = Math.max(to, ...working.map(([, reply]) => reply.nowMs ?? to));
    if (working.length) {
      run.workingAdvances += 1;
      if (run.workingAdvances <= WORKING_EVENTS_KEPT) {
        await observeStore(workedAt, 'store clock after an advance that did work');
        for (const [r, reply] of working) s.history.add('clock-step', r.id, { op: 'advance', toMs: to, ...reply });
      }
    }
    for (const [r, reply] of replies) {
      next.set(r.id, reply.nextTimerMs ?? null);
      run.timers[r.id]! += reply.fired ?? 0;
      if (run.timers[r.id]! > options.timerBudget / 2 && !halfBudgetAt.has(r.id)) halfBudgetAt.set(r.id, { simMs: reply.nowMs ?? to, timers: run.timers[r.id]! });
      if (reply.settled === false) run.unsettled.push({ replica: r.id, simMs: reply.nowMs ?? to });
    }
    for (const effect of s.resource.effects().slice(effectsBefore)) {
      if (effect.name === 'fire') run.fires.push({ effect, replica: effect.holder, simMs: workedAt });
    }
    const stormy = replicas.find((r) => run.timers[r.id]! > options.timerBudget);
    if (stormy) {
      run.endedMs = Math.max(to, ...replies.map(([, reply]) => reply.nowMs ?? to));
      const half = halfBudgetAt.get(stormy.id)!;
      const timers = run.timers[stormy.id]!;
      const perSimulatedSecond = ((timers - half.timers) * 1000) / Math.max(1, run.endedMs - half.simMs);
      run.storm = { replica: stormy.id, timers, simulatedMs: run.endedMs - day.startMs, perSimulatedSecond: Math.round(perSimulatedSecond) };
      break;
    }
    if (to >= lastInstant) break;
  }
  if (run.workingAdvances > WORKING_EVENTS_KEPT) {
    s.note(`${run.workingAdvances - WORKING_EVENTS_KEPT} more advances that did work on ${day.zone} ${day.date} are counted, not recorded one by one`);
  }
  run.storeEndMs = await observeStore(run.endedMs, `store clock at the end of ${day.zone} ${day.date}`);
  await Promise.all(replicas.map((r) => r.clock({ op: 'uninstall' })));
  for (const fault of clockFaults) s.faults.lift(fault);
  s.faults.lift(storeFault, { advances: run.advances, storeStartMs, storeEndMs: run.storeEndMs });
  run.wallMs = performance.now() - began;
  return run;
}
