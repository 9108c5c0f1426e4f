/**
 * Slots sized by the CPU the work really uses (explore's points): at least `floor` pieces run at
 * once, and more, up to `ceiling`, while the machine's CPU has room. An explored point mostly waits
 * (a TTL, a job's own sleeps, a held command), so one per core leaves the cores idle; but a point
 * starts real processes, so the number allowed in flight is a level that follows the measured CPU
 * (os.cpus() times, the whole machine: other work on a shared machine counts too): every SETTLE_MS
 * it rises by one while the CPU was idle enough and pieces are waiting (by two while it was mostly
 * idle: a 64-point exploration reaches 30 in flight in half the time), and falls by one (never
 * below the floor) when the CPU was nearly saturated. A piece that ends is replaced at once, up to
 * the level: replacing keeps the load the level was measured at, only a rise adds to it.
 */
import { cpus } from 'node:os';
import type { Slots } from './run-pool.ts';

/** The share of the machine's CPU that must have been idle over a window for the level to rise by one. */
export const IDLE_FOR_ANOTHER = 0.35;
/** At or above this idle share over a window the level rises by two (a machine mostly idle fills in half the windows). */
export const IDLE_FOR_TWO_MORE = 0.6;
/** Below this idle share over a window the level falls by one (a point crowded into INCONCLUSIVE is worse than a slow one). */
export const IDLE_FOR_FEWER = 0.15;
/** How long after a start its processes' CPU shows in the measure: the window the level moves once at most. */
export const SETTLE_MS = 300;

/** Idle share of all cores since the previous call (1 on the first call). */
export function idleMeter(): () => number {
  let last = totals();
  return () => {
    const now = totals();
    const total = now.total - last.total;
    const idle = now.idle - last.idle;
    last = now;
    return total > 0 ? idle / total : 1;
  };
}

function totals(): { idle: number; total: number } {
  let idle = 0;
  let total = 0;
  for (const { times } of cpus()) {
    idle += times.idle;
    total += times.user + times.nice + times.sys + times.idle + times.irq;
  }
  return { idle, total };
}

export interface CpuSlots extends Slots {
  /** The most pieces that ran at once so far. */
  readonly peak: number;
  readonly floor: number;
  /** How many pieces may run at once now (floor ≤ level ≤ ceiling). */
  readonly level: number;
}

export function cpuSlots(floor: number, ceiling: number, idle: () => number = idleMeter()): CpuSlots {
  if (!Number.isInteger(floor) || floor < 1 || ceiling < floor)
    throw new RangeError(`cpu slots: need 1 ≤ floor ≤ ceiling, got ${floor} and ${ceiling}`);
  let running = 0;
  let peak = 0;
  let level = floor;
  let timer: NodeJS.Timeout | undefined;
  const waiting: Array<() => void> = [];

  const pump = () => {
    while (waiting.length && running < level) {
      running += 1;
      peak = Math.max(peak, running);
      waiting.shift()!();
    }
    // The level is looked at again after a window while there is work: pieces waiting, or more running than the floor.
    if ((waiting.length || running > floor) && !timer) {
      timer = setTimeout(adjust, SETTLE_MS);
      timer.unref();
    }
  };
  /** One window's measure moves the level once at most: up when idle enough and the level is what holds pieces back. */
  const adjust = () => {
    timer = undefined;
    const share = idle();
    if (share >= IDLE_FOR_ANOTHER && waiting.length && running >= level && level < ceiling)
      level = Math.min(ceiling, level + (share >= IDLE_FOR_TWO_MORE ? 2 : 1));
    else if (share < IDLE_FOR_FEWER && level > floor) level -= 1;
    pump();
  };
  const run = async <R>(work: () => Promise<R>): Promise<R> => {
    await new Promise<void>((resolve) => {
      waiting.push(resolve);
      pump();
    });
    try {
      return await work();
    } finally {
      running -= 1;
      pump();
    }
  };
  return Object.defineProperties(Object.assign(run, { size: ceiling, floor }), {
    peak: { get: () => peak, enumerable: true },
    level: { get: () => level, enumerable: true },
  }) as CpuSlots;
}
