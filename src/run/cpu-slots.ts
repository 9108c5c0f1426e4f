/**
 * Slots sized by the CPU the work really uses (explore's points): at least `floor` pieces run at
 * once, and more, up to `ceiling`, while the machine's CPU has room. An explored point mostly waits
 * (a TTL, a job's own sleeps, a held command), so one per core leaves the cores idle; but a point
 * starts real processes, so another is started only when the CPU was measurably idle since the last
 * start (os.cpus() times, the whole machine: other work on a shared machine counts too) and a start
 * has had time to show in that measure.
 */
import { cpus } from 'node:os';
import type { Slots } from './run-pool.ts';

/** The share of the machine's CPU that must have been idle since the last start for one more piece. */
export const IDLE_FOR_ANOTHER = 0.35;
/** How long after a start its processes' CPU shows in the measure (and how often a waiting piece looks again). */
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
}

export function cpuSlots(floor: number, ceiling: number, idle: () => number = idleMeter()): CpuSlots {
  if (!Number.isInteger(floor) || floor < 1 || ceiling < floor)
    throw new RangeError(`cpu slots: need 1 ≤ floor ≤ ceiling, got ${floor} and ${ceiling}`);
  let running = 0;
  let peak = 0;
  let sampledAt = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const waiting: Array<() => void> = [];

  const start = () => {
    running += 1;
    peak = Math.max(peak, running);
    waiting.shift()!();
  };
  /** The CPU was idle enough over the last window (at least SETTLE_MS since the last sample, which a start also takes). */
  const roomForAnother = () => {
    if (performance.now() - sampledAt < SETTLE_MS) return false;
    sampledAt = performance.now();
    return idle() >= IDLE_FOR_ANOTHER;
  };
  const pump = () => {
    while (waiting.length && running < floor) start();
    if (waiting.length && running < ceiling && roomForAnother()) {
      start();
      idle(); // the next window begins at this start
      sampledAt = performance.now();
    }
    if (waiting.length && running < ceiling) {
      timer ??= setTimeout(() => {
        timer = undefined;
        pump();
      }, SETTLE_MS);
      timer.unref();
    }
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
  }) as CpuSlots;
}
