/**
 * Bounded concurrency for independent runs (`--runs N --jobs J`, the reference matrix, settle,
 * explore): at most `jobs` pieces of work in flight, results in input order. If any piece
 * rejects, no new piece starts, and the pool rejects with the first error only after every piece
 * already in flight has settled (so no run is left half-done with its store still up).
 */
import { availableParallelism } from 'node:os';

/** The default number of runs in flight: the machine's usable cores. */
export function defaultJobs(): number {
  return Math.max(1, availableParallelism());
}

/**
 * How many reference runs at once by default: twice the cores. A reference run mostly waits (its
 * TTLs, pauses and holds): V310 + V313 (89 runs) took 104 s at --jobs 4 against 126 s at --jobs 2
 * on 2 cores at load ~16, same verdicts (one crowded INCONCLUSIVE played again alone).
 */
export function defaultReferenceJobs(): number {
  return 2 * defaultJobs();
}

export async function runPool<T, R>(
  items: readonly T[],
  jobs: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  if (!Number.isInteger(jobs) || jobs < 1) throw new RangeError(`jobs must be a whole number ≥ 1, got ${jobs}`);
  const results = new Array<R>(items.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (failure === undefined && next < items.length) {
      const index = next++;
      try {
        results[index] = await work(items[index]!, index);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, items.length) }, worker));
  if (failure) throw failure.error;
  return results;
}

/** Runs a piece of work once one of a fixed number of slots is free (first come, first served). */
export interface Slots {
  readonly size: number;
  <R>(work: () => Promise<R>): Promise<R>;
}

/**
 * `jobs` slots shared by several batches (explore: the points of several explorations under one
 * bound, so one exploration's trace or last point does not leave a core idle).
 */
export function sharedSlots(jobs: number): Slots {
  if (!Number.isInteger(jobs) || jobs < 1) throw new RangeError(`jobs must be a whole number ≥ 1, got ${jobs}`);
  let free = jobs;
  const waiting: Array<() => void> = [];
  const run = async <R>(work: () => Promise<R>): Promise<R> => {
    if (free > 0) free -= 1;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await work();
    } finally {
      const nextInLine = waiting.shift();
      if (nextInLine) nextInLine();
      else free += 1;
    }
  };
  return Object.assign(run, { size: jobs });
}
