/** How the redlock `using` targets size their auto-extension, and how they report a denial. */
import type { TargetEnv } from '../../contract.ts';
import { ExecutionError } from './redlock.ts';

/**
 * redlock.using() requires threshold <= duration - 100. Extending at the lease's midpoint (300 ms
 * TTL -> threshold 150 ms, extension ~145 ms after acquire) leaves as much slack for the extend
 * round trip as for the work before it.
 */
export function extensionThreshold(env: TargetEnv): number {
  if (env.ttlMs < 200)
    throw new Error(`redlock.using() needs ttlMs >= 200 here (got ${env.ttlMs}); pass e.g. --ttl 300`);
  return Math.floor(env.ttlMs / 2);
}

/**
 * redlock throws ExecutionError when acquire is denied (retryCount 0) and when the final release
 * finds the key is no longer ours. These targets log it and return, to keep the run's log readable;
 * a job() that lets a denial throw is fine too: the harness records the job as having thrown and
 * judges its writes all the same (V312 counts a denied job's writes, V313 its writes after B's).
 */
export function reportRedlockRefusal(env: TargetEnv, error: unknown, started: boolean): void {
  if (!(error instanceof ExecutionError)) throw error;
  env.log(
    started
      ? `redlock could not release: the lock is no longer ours (${error.message})`
      : `the lock is held elsewhere; skipping the job (${error.message})`,
  );
}
