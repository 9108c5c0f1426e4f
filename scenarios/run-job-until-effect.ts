/**
 * Start a holder's job again and again until it reports an effect (it got the lock and wrote),
 * holding it at that first effect. A denied attempt returns without effects and is retried.
 */
import type { CallOutcome, Holder } from '../src/holder/holder.ts';
import type { Latch } from '../src/holder/latch.ts';

export interface JobInCriticalSection {
  latch: Latch;
  /** The job call that reached the effect (still running: it is held at the latch). */
  job: Promise<CallOutcome>;
  attempts: number;
}

export async function runJobUntilFirstEffect(
  holder: Holder,
  timeoutMs: number,
  retryEveryMs: number,
): Promise<JobInCriticalSection | { latch: Latch; job: undefined; attempts: number; lastOutcome?: CallOutcome }> {
  const latch = holder.holdNextEffect();
  const deadline = performance.now() + timeoutMs;
  let attempts = 0;
  let lastOutcome: CallOutcome | undefined;
  while (performance.now() < deadline) {
    attempts += 1;
    const job = holder.call('job');
    const first = await Promise.race([latch.reached.then(() => 'reached' as const), job.then(() => 'ended' as const)]);
    if (first === 'reached') return { latch, job, attempts };
    lastOutcome = await job;
    await new Promise((resolve) => setTimeout(resolve, retryEveryMs));
  }
  return { latch, job: undefined, attempts, ...(lastOutcome ? { lastOutcome } : {}) };
}
