/**
 * Runs a fleet of replicas through one local day on simulated clocks, with the store's clock kept
 * in step: the store's wall clock is stepped to each instant at which a replica's timers start
 * work, before that work reaches the store, so a lock TTL the store keeps lapses in simulated time
 * as it would in real time.
 *
 * Each replica has its own simulated clock (its own process) and its own wire proxy. A replica runs
 * on by itself, in one round trip, through its timers up to the first instant whose timers start
 * async work (a scheduler re-arming or polling with timers that start no async work touches
 * nothing the harness, the store or another replica can see) and stops there, that work left
 * unsettled; its proxy holds everything it sends (and every reply) meanwhile. The harness takes the
 * earliest such instant of the fleet, steps the store's clock to it, lets the replicas stopped
 * there through their proxies and has each settle its work before any clock moves on. Replicas
 * stopped at a later instant wait, their commands held, until the store's clock reaches theirs. So
 * the store sees every replica's commands in simulated-time order, each at its own instant, and a
 * day of a scheduler waking every 30 s takes a few round trips, not thousands. A scheduler that
 * storms (a million zero-delay timers) runs through the day as long as it costs each replica less
 * than `cpuBudgetMs` of its own CPU (process.cpuUsage) and the day less than `realBudgetMs` of real
 * time; past either the day stops where it got to, and how far it got, what it cost and the fires
 * until then are reported.
 */
import type { EffectRecord } from '../src/core/resource.ts';
import type { StoreClock } from '../src/stores/types.ts';
import type { ClockReply } from '../src/holder/clock-protocol.ts';
import { throwIfTargetThrew, type Holder } from '../src/holder/holder.ts';
import type { Scenario } from '../src/oracle/scenario.ts';
import type { WireGate, WireProxy } from '../src/wire/proxy.ts';
import type { ZoneDay } from './zone-days.ts';

export interface Replica {
  holder: Holder;
  /** Its wire proxy: what it sends the store is held there while its clock is ahead of the store's. */
  wire: WireProxy;
}

export interface DayOptions {
  /** Real ms a replica may take to settle the work one advance started. */
  settleTimeoutMs: number;
  /** Reads the store's own wall clock (e.g. Redis TIME), epoch ms. */
  storeNow: () => Promise<number>;
  /** CPU ms a replica may spend on one day's timers before the day is stopped. */
  cpuBudgetMs: number;
  /** Real ms one day may take before it is stopped (a loaded machine runs a storming day slowly). */
  realBudgetMs: number;
  /** The replicas' TZ, when it is not the day's zone (a host running in UTC, say). */
  hostZone?: string;
}

/** A day stopped before its end: a replica spent the CPU budget, or the day the real-time budget. */
export interface DayStop {
  /** 'cpu': `replica` spent cpuBudgetMs of its CPU; 'real': the day took realBudgetMs of real time. */
  spent: 'cpu' | 'real';
  /** The replica that spent the most CPU (the one that spent the budget, for 'cpu'). */
  replica: string;
  /** Its CPU ms and timers run that day. */
  cpuMs: number;
  timers: number;
  /** Simulated ms from the day's start to where the day was stopped. */
  simulatedMs: number;
  /** Timers per simulated second that replica ran over its last advance (a storm's own rate). */
  perSimulatedSecond: number;
}

/** CPU and real ms one advance may spend, so the harness looks at the day's budgets between advances. */
const ADVANCE_SLICE_MS = 2000;

/** History events for working instants are kept for this many per day, then only counted. */
const WORKING_EVENTS_KEPT = 200;

export interface FireRecord {
  effect: EffectRecord;
  replica: string;
  /** The simulated instant it was fired at, epoch ms. */
  simMs: number;
}

export interface DayRun {
  day: ZoneDay;
  /** Rounds of advances (in each, every replica not waiting runs on to its next instant that starts work: one round trip). */
  advances: number;
  /** Instants at which fired timers started async work (the store's clock was stepped to each). */
  workingAdvances: number;
  /** Replicas whose work had not settled within settleTimeoutMs, with the instant. */
  unsettled: Array<{ replica: string; simMs: number }>;
  /** Store clock minus simulated clock, read at the day's start and end and right after each instant that did work settled (ms). */
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
  /** CPU ms each replica spent on this day's advances. */
  cpuMs: Record<string, number>;
  /** Set when the day was stopped before its end (a budget spent). */
  stopped?: DayStop;
  /** The simulated instant the day ended (its last instant, or where it was stopped). */
  endedMs: number;
}

/** Where one replica is in the day. */
interface ReplicaState {
  replica: Replica;
  id: string;
  /** Its simulated clock. */
  atMs: number;
  /** Its timers at atMs started work it has not settled yet (held at its proxy until the store's clock is there). */
  workLeft: boolean;
  /** The advance that stopped it at atMs. */
  stoppedBy?: ClockReply;
  /** Timers per simulated second over its last advance. */
  rate: number;
  /** Its proxy's gate: closed (what it sends is held) whenever its clock may be ahead of the store's. */
  gate: WireGate;
}

export async function runSimulatedDay(
  s: Scenario,
  replicas: Replica[],
  storeClock: StoreClock,
  day: ZoneDay,
  options: DayOptions,
): Promise<DayRun> {
  const began = performance.now();
  const stepStore = async (simMs: number) => storeClock.setOffsetMs(Math.round(simMs - Date.now()));
  const storeSkewsMs: number[] = [];
  /** Read the store's clock, compare it with the simulated instant, and put both in the history. */
  const observeStore = async (simMs: number, label: string, recorded = true) => {
    const storeMs = await options.storeNow();
    storeSkewsMs.push(storeMs - simMs);
    if (recorded)
      s.history.add('store-observed', undefined, {
        label,
        simMs,
        storeMs: Math.round(storeMs),
        skewMs: Math.round((storeMs - simMs) * 10) / 10,
      });
    return storeMs;
  };
  await stepStore(day.startMs);
  const storeStartMs = await observeStore(day.startMs, `store clock at the start of ${day.zone} ${day.date}`);
  const storeFault = s.faults.apply(
    'store',
    undefined,
    `store wall clock kept in step with the simulated day ${day.zone} ${day.date}`,
    {
      zone: day.zone,
      date: day.date,
      offsetMs: storeClock.offsetMs(),
      mechanism: storeClock.mechanism,
    },
  );
  const clockFaults = replicas.map((r) =>
    s.faults.apply('clock', r.holder.id, `simulated clock (Date and timers) through ${day.date} in ${day.zone}`, {
      startMs: day.startMs,
      endMs: day.endMs,
    }),
  );
  let effectsSeen = s.resource.effects().length;
  const next = new Map<string, number | null>();
  await Promise.all(
    replicas.map(async ({ holder: r }) => {
      await r.clock({ op: 'install-sim', startMs: day.startMs, zone: options.hostZone ?? day.zone });
      const scheduled = await r.call('schedule');
      throwIfTargetThrew(r.id, 'schedule', scheduled, 'starting its scheduler (nothing can refuse it)');
      if (!scheduled.ok) throw new Error(`replica ${r.id}: schedule() did not answer: ${scheduled.error}`);
      // A clock command answers with the replica's next pending timer.
      next.set(
        r.id,
        (await r.clock({ op: 'advance', toMs: day.startMs, settleTimeoutMs: options.settleTimeoutMs })).nextTimerMs ??
          null,
      );
    }),
  );
  const unarmed = replicas.filter((r) => next.get(r.holder.id) === null).map((r) => r.holder.id);
  const lastInstant = day.endMs - 1;
  const realDeadline = performance.now() + options.realBudgetMs;
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
    timers: Object.fromEntries(replicas.map((r) => [r.holder.id, 0])),
    cpuMs: Object.fromEntries(replicas.map((r) => [r.holder.id, 0])),
    endedMs: lastInstant,
  };
  const states: ReplicaState[] = replicas.map((replica) => ({
    replica,
    id: replica.holder.id,
    atMs: day.startMs,
    workLeft: false,
    rate: 0,
    gate: replica.wire.gate(
      `hold everything ${replica.holder.id} sends the store (and its replies) whenever its simulated clock may be ahead of the store's (${day.zone} ${day.date})`,
    ),
  }));
  const stateOf = new Map(states.map((st) => [st.id, st]));
  /** Fires reported since the last look, each at the instant its replica's work was for. */
  const takeFires = (fallbackMs: number) => {
    const effects = s.resource.effects();
    for (const effect of effects.slice(effectsSeen)) {
      if (effect.name === 'fire')
        run.fires.push({ effect, replica: effect.holder, simMs: stateOf.get(effect.holder)?.atMs ?? fallbackMs });
    }
    effectsSeen = effects.length;
  };
  takeFires(day.startMs);
  for (const st of states) st.gate.close();
  try {
    for (;;) {
      // Every replica not waiting with work runs on, alone, to its next instant that starts work.
      const free = states.filter((st) => !st.workLeft && st.atMs < lastInstant);
      const replies = await Promise.all(
        free.map(async (st) => {
          const command = {
            op: 'advance',
            toMs: lastInstant,
            settleTimeoutMs: options.settleTimeoutMs,
            maxCpuMs: Math.min(ADVANCE_SLICE_MS, options.cpuBudgetMs - run.cpuMs[st.id]!),
            maxRealMs: Math.min(ADVANCE_SLICE_MS, Math.max(0, realDeadline - performance.now())),
            untilWork: true,
          } as const;
          return [st, await st.replica.holder.clock(command, false)] as const;
        }),
      );
      if (free.length) run.advances += 1;
      for (const [st, reply] of replies) {
        const from = st.atMs;
        st.atMs = reply.nowMs ?? lastInstant;
        st.workLeft = reply.workLeft === true;
        st.stoppedBy = reply;
        st.rate = ((reply.fired ?? 0) * 1000) / Math.max(1, st.atMs - from);
        run.timers[st.id]! += reply.fired ?? 0;
        run.cpuMs[st.id]! += reply.cpuMs ?? 0;
        if (reply.settled === false) run.unsettled.push({ replica: st.id, simMs: st.atMs });
      }
      const spentCpu = states.find((st) => run.cpuMs[st.id]! >= options.cpuBudgetMs);
      const spentReal = performance.now() >= realDeadline && states.some((st) => st.atMs < lastInstant);
      if (spentCpu || spentReal) {
        const costliest =
          spentCpu ?? states.reduce((most, st) => (run.cpuMs[st.id]! > run.cpuMs[most.id]! ? st : most));
        // The day got as far as its slowest replica: every replica's fires up to there are in.
        run.endedMs = Math.min(...states.map((st) => st.atMs));
        run.stopped = {
          spent: spentCpu ? 'cpu' : 'real',
          replica: costliest.id,
          cpuMs: Math.round(run.cpuMs[costliest.id]!),
          timers: run.timers[costliest.id]!,
          simulatedMs: run.endedMs - day.startMs,
          perSimulatedSecond: Math.round(costliest.rate),
        };
        break;
      }
      const waiting = states.filter((st) => st.workLeft);
      if (!waiting.length) {
        if (states.every((st) => st.atMs >= lastInstant)) break;
        continue;
      }
      // The earliest instant any replica's work is for: the store's clock goes there, then that work reaches it.
      const at = Math.min(...waiting.map((st) => st.atMs));
      const working = waiting.filter((st) => st.atMs === at);
      await stepStore(at);
      for (const st of working) st.gate.open();
      const settled = await Promise.all(
        working.map(
          async (st) =>
            [
              st,
              await st.replica.holder.clock({ op: 'settle', settleTimeoutMs: options.settleTimeoutMs }, false),
            ] as const,
        ),
      );
      run.workingAdvances += 1;
      for (const [st, reply] of settled) {
        st.workLeft = false;
        st.gate.close();
        if (reply.settled === false) run.unsettled.push({ replica: st.id, simMs: at });
      }
      takeFires(at);
      // Every instant that did work is checked (its lock commands ran on the store's clock, which
      // ran on in real time since the step); only the first ones are recorded one by one.
      const recorded = run.workingAdvances <= WORKING_EVENTS_KEPT;
      await observeStore(at, 'store clock after an instant that did work settled', recorded);
      if (recorded)
        for (const [st, reply] of settled)
          s.history.add('clock-step', st.id, { op: 'advance', untilWork: true, ...st.stoppedBy, settle: reply });
    }
  } finally {
    for (const st of states) st.gate.lift();
  }
  if (run.workingAdvances > WORKING_EVENTS_KEPT) {
    s.note(
      `${run.workingAdvances - WORKING_EVENTS_KEPT} more instants that did work on ${day.zone} ${day.date} are counted and their store clock checked, not recorded one by one`,
    );
  }
  await stepStore(run.endedMs);
  run.storeEndMs = await observeStore(run.endedMs, `store clock at the end of ${day.zone} ${day.date}`);
  await Promise.all(replicas.map((r) => r.holder.clock({ op: 'uninstall' })));
  for (const fault of clockFaults) s.faults.lift(fault);
  s.faults.lift(storeFault, { advances: run.advances, storeStartMs, storeEndMs: run.storeEndMs });
  run.wallMs = performance.now() - began;
  return run;
}
