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

export async function runPool<T, R>(items: readonly T[], jobs: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
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
