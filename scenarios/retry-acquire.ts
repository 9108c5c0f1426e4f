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

export interface RetryOptions {
  /** Asked after each denied attempt: true ends the retries before the deadline (another contender got the lock). */
  stopEarly?: () => boolean;
  /**
   * Harness ms when the lock should free by the store's own clock (a lease's PTTL read after it was
   * taken), if known: the try that would come next after it comes then instead, so that the grant
   * does not wait up to `everyMs` past the expiry. It only moves a try earlier, never skips one.
   */
  freesAt?: number;
}

export async function acquireWithin(
  holder: Holder,
  now: () => number,
  timeoutMs: number,
  everyMs: number,
  { stopEarly = () => false, freesAt }: RetryOptions = {},
): Promise<RetryResult> {
  const deadline = now() + timeoutMs;
  let attempts = 0;
  for (;;) {
    attempts += 1;
    const lastAttemptAt = now();
    const lease = await holder.acquire();
    if (lease) return { lease, attempts, grantedAt: now(), lastAttemptAt };
    if (now() >= deadline || stopEarly()) return { lease: null, attempts, lastAttemptAt };
    const wait = freesAt !== undefined && freesAt > now() ? Math.min(everyMs, freesAt - now()) : everyMs;
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}
