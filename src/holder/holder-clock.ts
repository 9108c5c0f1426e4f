/**
 * A holder's own wall clock, inside the holder process (each holder is its own process, so two
 * holders never share one). Two modes, both with @sinonjs/fake-timers:
 *
 * - wall: only `Date` is fake. It reads real now + offset and flows with real time; the harness
 *   steps or skews the offset. `performance.now`, `process.hrtime` and every timer stay real. The
 *   fake clock's `now` is computed on each read (from the real clock at install plus monotonic
 *   elapsed time) rather than advanced by fake-timers' `shouldAdvanceTime` interval: that interval
 *   moves Date in 20 ms steps and falls behind real time whenever the event loop is busy (measured:
 *   1.2 s behind after 2 s with a 30 ms task every 50 ms), which would skew the very clock under test.
 * - simulated: `Date` and the timers are fake (a scheduler computes its next fire from Date and
 *   waits with setTimeout, so faking Date alone would not make it fire early); time moves only
 *   when the harness advances it, so a day passes in seconds. After each advance the clock stands
 *   still until the async work the fired timers started has settled (src/holder/work-tracker.ts).
 */
import { install, type Clock } from '@sinonjs/fake-timers';
import type { ClockCommand, ClockReply } from './clock-protocol.ts';
import { WorkTracker } from './work-tracker.ts';

const realDateNow = Date.now.bind(Date);
const realSetTimeout = globalThis.setTimeout;

/** CPU ms (user + system) this process has spent. */
const cpuNowMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
/** Timer instants between two looks at the CPU and real clocks (process.cpuUsage is a system call). */
const INSTANTS_PER_BUDGET_CHECK = 256;
/** Microtask turns an instant's work may take to settle on its own, with no I/O: then it touched nothing outside. */
const MICROTASK_TURNS = 64;

/** The real wall clock, continuous: the real time at load plus monotonic time since. */
const loadedWall = realDateNow();
const loadedMono = performance.now();
const realNow = () => loadedWall + (performance.now() - loadedMono);

export interface WallClock {
  readonly mode: 'wall';
  offset(): number;
  setOffset(offsetMs: number): void;
  step(deltaMs: number): void;
  uninstall(): void;
}

export interface AdvanceResult {
  fired: number;
  work: number;
  settled: boolean;
  nowMs: number;
  /** CPU ms (user + system) this process spent on the advance. */
  cpuMs: number;
  /** It stopped early because its maxCpuMs or maxRealMs was spent. */
  budgetSpent: boolean;
  /** untilWork: the clock stopped at an instant whose timers started work, left unsettled. */
  workLeft: boolean;
}

export interface SimulatedClock {
  readonly mode: 'simulated';
  now(): number;
  /** When the next fake timer is due, or null. */
  nextTimerAt(): number | null;
  advanceTo(
    toMs: number,
    settleTimeoutMs: number,
    options?: { maxCpuMs?: number; maxRealMs?: number; untilWork?: boolean },
  ): Promise<AdvanceResult>;
  /** Let the work left at the current instant (advanceTo with untilWork) settle, at most settleTimeoutMs real. */
  settle(settleTimeoutMs: number): Promise<{ work: number; settled: boolean; nowMs: number }>;
  uninstall(): void;
}

/** Fake `Date` only, reading real now + offsetMs. */
function installWallClock(offsetMs: number): WallClock {
  let offset = offsetMs;
  const clock = install({ now: Math.round(realNow() + offset), toFake: ['Date'] });
  // fake-timers reads clock.now for every Date; make it the real time plus the offset, and turn any
  // write (tick, setSystemTime) into a step of the offset.
  Object.defineProperty(clock, 'now', {
    configurable: true,
    get: () => Math.floor(realNow() + offset),
    set: (value: number) => {
      offset = value - realNow();
    },
  });
  return {
    mode: 'wall',
    offset: () => offset,
    setOffset(next) {
      offset = next;
    },
    step(delta) {
      offset += delta;
    },
    uninstall: () => clock.uninstall(),
  };
}

/** Fake `Date` and timers, at startMs, moved only by advanceTo. */
function installSimulatedClock(startMs: number): SimulatedClock {
  const clock: Clock = install({
    now: startMs,
    toFake: ['Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'],
  });
  const tracker = new WorkTracker();
  // fake-timers keeps pending timers in a heap it creates with the first timer.
  type Heap = { peek(): { callAt: number } | undefined; timers: Array<{ callAt: number }> };
  const heap = (): Heap | undefined => {
    const found = (clock as unknown as { timerHeap?: Heap }).timerHeap;
    if (found && (typeof found.peek !== 'function' || !Array.isArray(found.timers))) {
      throw new Error('@sinonjs/fake-timers internals changed (timerHeap); pin the version in package.json');
    }
    return found;
  };
  const nextTimerAt = (): number | null => heap()?.peek()?.callAt ?? null;
  const dueBy = (t: number): number => (heap()?.timers ?? []).filter((timer) => timer.callAt <= t).length;
  /** Let the work the timers of this instant started settle (real time, at most settleTimeoutMs); counts what it started. */
  const settleWork = async (settleTimeoutMs: number) => {
    const deadline = performance.now() + settleTimeoutMs;
    while (tracker.pending() > 0 && performance.now() < deadline) {
      await new Promise((resolve) => realSetTimeout(resolve, 1));
      // Timers the work set for "now" (setTimeout(fn, 0)) run at this same instant.
      tracker.run(() => clock.tick(0));
    }
    return { work: tracker.takeCreated(), settled: tracker.pending() === 0 };
  };
  /** Let the instant's work run on through microtasks only (no timer, no I/O): whether it all settled so. */
  const settlesWithoutIo = async () => {
    for (let turn = 0; turn < MICROTASK_TURNS && tracker.pending() > 0; turn++) await null;
    return tracker.pending() === 0;
  };
  return {
    mode: 'simulated',
    now: () => clock.now,
    nextTimerAt,
    async advanceTo(toMs, settleTimeoutMs, { maxCpuMs = Infinity, maxRealMs = Infinity, untilWork = false } = {}) {
      let fired = 0;
      let work = 0;
      let settled = true;
      const cpuAtStart = cpuNowMs();
      const realDeadline = performance.now() + maxRealMs;
      let instants = 0;
      const spent = () =>
        ++instants % INSTANTS_PER_BUDGET_CHECK === 0 &&
        (cpuNowMs() - cpuAtStart >= maxCpuMs || performance.now() >= realDeadline);
      const result = (budgetSpent: boolean, workLeft: boolean): AdvanceResult => ({
        fired,
        work,
        settled,
        nowMs: clock.now,
        cpuMs: cpuNowMs() - cpuAtStart,
        budgetSpent,
        workLeft,
      });
      tracker.takeCreated();
      // One timer instant at a time: a synchronous tick runs the timers due at that instant, and the
      // work they start settles before the clock moves on (tickAsync would instead yield to a real
      // timer between timers, about 1 ms each, and let the clock run ahead of the work).
      // A replica already past toMs (it ran ahead) runs nothing.
      while (toMs >= clock.now) {
        if (spent()) return result(true, false);
        const next = nextTimerAt();
        const stop = next !== null && next <= toMs ? next : toMs;
        fired += dueBy(stop);
        tracker.run(() => clock.tick(stop - clock.now));
        const created = tracker.takeCreated();
        work += created;
        // untilWork: the first instant that starts work waiting on I/O (a store command awaits its
        // reply) is where the harness must catch the store up; its work is left for a later settle
        // (the harness holds its store commands meanwhile). Work that settles within microtasks (a
        // scheduler's async tick that only re-arms its timer) waited on nothing outside the process.
        if (untilWork && created > 0 && !(await settlesWithoutIo())) return result(false, true);
        const after = await settleWork(settleTimeoutMs);
        work += after.work;
        settled &&= after.settled;
        if (stop >= toMs) break;
      }
      return result(false, false);
    },
    async settle(settleTimeoutMs) {
      return { ...(await settleWork(settleTimeoutMs)), nowMs: clock.now };
    },
    uninstall() {
      tracker.disable();
      clock.uninstall();
    },
  };
}

let installed: WallClock | SimulatedClock | undefined;

/** Carry out one clock command from the harness (called by holder-entry.ts). */
export async function handleClockCommand(command: ClockCommand): Promise<ClockReply> {
  const extra: Partial<ClockReply> = {};
  switch (command.op) {
    case 'install-wall':
      installed?.uninstall();
      installed = installWallClock(command.offsetMs);
      break;
    case 'set-offset':
      wall(command.op).setOffset(command.offsetMs);
      break;
    case 'step':
      wall(command.op).step(command.deltaMs);
      break;
    case 'install-sim':
      installed?.uninstall();
      // Node applies a TZ assignment at once (it resets its time zone cache), as a deployment's TZ would.
      process.env.TZ = command.zone;
      installed = installSimulatedClock(command.startMs);
      break;
    case 'advance':
      Object.assign(extra, await simulated(command.op).advanceTo(command.toMs, command.settleTimeoutMs, command));
      break;
    case 'settle':
      Object.assign(extra, await simulated(command.op).settle(command.settleTimeoutMs));
      break;
    case 'read':
      break;
    case 'uninstall':
      installed?.uninstall();
      installed = undefined;
      break;
  }
  const wallMs = Date.now();
  return {
    wallMs,
    offsetMs: installed?.mode === 'wall' ? installed.offset() : wallMs - realNow(),
    monoMs: performance.now(),
    hrtimeMs: Number(process.hrtime.bigint()) / 1e6,
    ...(installed?.mode === 'simulated' ? { nextTimerMs: installed.nextTimerAt() } : {}),
    ...extra,
  };
}

function wall(op: string): WallClock {
  if (installed?.mode !== 'wall') throw new Error(`clock "${op}" needs a wall clock installed first (install-wall)`);
  return installed;
}

function simulated(op: string): SimulatedClock {
  if (installed?.mode !== 'simulated')
    throw new Error(`clock "${op}" needs a simulated clock installed first (install-sim)`);
  return installed;
}
