/**
 * A holder's job tried again and again until it reaches its first write (held there), in spans:
 * each `until(deadline)` tries up to a deadline (harness ms), and an attempt still running then —
 * a Redlock acquire waiting on a node that is down, say — goes on into the next span rather than
 * being counted as denied. Between two denied attempts the holder waits `retryEveryMs`.
 */
import type { CallOutcome, Holder } from '../src/holder/holder.ts';
import type { Latch } from '../src/holder/latch.ts';

export interface JobTries {
  /** Holds the holder at its first write; release it to let the job go on. */
  readonly latch: Latch;
  /** Attempts begun so far. */
  readonly attempts: number;
  /** The attempt that reached its first write (still running: held at the latch), once one did. */
  readonly job: Promise<CallOutcome> | undefined;
  /** The attempt running now that has not reached its first write (one `until` left at its deadline), if any. */
  readonly pending: Promise<CallOutcome> | undefined;
  /** Try until an attempt reaches its first write (true) or `deadline` passes (false). */
  until(deadline: number): Promise<boolean>;
}

export function jobTries(holder: Holder, now: () => number, retryEveryMs: number): JobTries {
  const latch = holder.holdNextEffect();
  let attempts = 0;
  let current: Promise<CallOutcome> | undefined;
  let reached: Promise<CallOutcome> | undefined;
  return {
    latch,
    get attempts() {
      return attempts;
    },
    get job() {
      return reached;
    },
    get pending() {
      return reached ? undefined : current;
    },
    async until(deadline) {
      while (!reached) {
        if (deadline - now() <= 0) return false;
        if (!current) {
          attempts += 1;
          current = holder.call('job');
        }
        const call = current;
        const first = await raceUntil(
          Promise.race([latch.reached.then(() => 'reached' as const), call.then(() => 'ended' as const)]),
          deadline - now(),
        );
        if (first === 'reached') reached = call;
        else if (first === undefined) return false;
        else {
          current = undefined;
          await raceUntil(new Promise<never>(() => {}), Math.min(retryEveryMs, deadline - now()));
        }
      }
      return true;
    },
  };
}

/** `promise`'s value, or undefined once `ms` have passed first (the timer cleared either way). */
async function raceUntil<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), Math.max(0, ms))));
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
