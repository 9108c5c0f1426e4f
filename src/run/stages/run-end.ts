/**
 * When a run ends: its stages finished, its deadline passed, or the user interrupted it (the
 * request's `stop` signal). The pipeline races its stages against this and then releases the run's
 * scope (run-scope.ts) with the reason; what was still pending goes into the evidence's error.
 */

/** Why a run stopped: its scenario finished, its deadline passed, or the user interrupted it. */
export class RunEnd extends Error {
  constructor(
    readonly reason: 'finished' | 'deadline' | 'interrupted',
    readonly pending: string[],
  ) {
    super(`run ended: ${reason}`);
  }
}

export interface RunEndWatch {
  /** Rejects with the RunEnd at the deadline or on `stop`. */
  readonly promise: Promise<never>;
  /** Ends the watch (as `finished` unless it already ended) and says how the run ended. */
  settle(): RunEnd;
  /** The end, once there is one. */
  readonly result: RunEnd | undefined;
}

/** Watches for the deadline and for `stop`, naming what was still pending then. */
export function endOfRun(deadlineMs: number, stop: AbortSignal | undefined, pending: () => string[]): RunEndWatch {
  let reject!: (end: RunEnd) => void;
  let result: RunEnd | undefined;
  const promise = new Promise<never>((_, r) => (reject = r));
  promise.catch(() => undefined);
  const finish = (reason: RunEnd['reason']) => {
    if (result) return result;
    clearTimeout(timer);
    stop?.removeEventListener('abort', onStop);
    result = new RunEnd(reason, reason === 'finished' ? [] : pending().filter(Boolean));
    reject(result);
    return result;
  };
  const onStop = () => finish('interrupted');
  const timer = setTimeout(() => finish('deadline'), deadlineMs);
  stop?.addEventListener('abort', onStop);
  if (stop?.aborted) finish('interrupted');
  return {
    promise,
    settle: () => finish('finished'),
    get result() {
      return result;
    },
  };
}
