/** A contender that keeps trying: acquire every `everyMs` until it gets the lock or time is up. */
import type { Holder } from '../src/holder/holder.ts';
import type { LeaseSummary } from '../src/holder/holder-protocol.ts';

export interface RetryResult {
  lease: LeaseSummary | null;
  attempts: number;
  /** Harness monotonic time the lock was granted. */
  grantedAt?: number;
  /** Harness monotonic time the last attempt began (the granted lease started no earlier). */
  lastAttemptAt?: number;
}

/** `stopEarly` (optional), asked after each denied attempt, ends the retries before the deadline (another contender got the lock). */
export async function acquireWithin(
  holder: Holder,
  now: () => number,
  timeoutMs: number,
  everyMs: number,
  stopEarly: () => boolean = () => false,
): Promise<RetryResult> {
  const deadline = now() + timeoutMs;
  let attempts = 0;
  for (;;) {
    attempts += 1;
    const lastAttemptAt = now();
    const lease = await holder.acquire();
    if (lease) return { lease, attempts, grantedAt: now(), lastAttemptAt };
    if (now() >= deadline || stopEarly()) return { lease: null, attempts, lastAttemptAt };
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
