/**
 * What a SIGKILLed earlier run left (its temp dirs, its containers) goes while a run starts; never a
 * live run's (src/run/reaper.ts). Once per process: a batch's later runs would only scan the temp
 * dirs and ask the engine again. A run awaits it as the last of its releases.
 */
import { reapLeftovers } from '../reaper.ts';

let reaped: Promise<void> | undefined;

export function reapOnce(progress: (message: string) => void): Promise<void> {
  return (reaped ??= reapLeftovers().then(
    (found) => found.removed.forEach((what) => progress(`removed a dead run's leftover: ${what}`)),
    (error: unknown) => progress(`could not look for dead runs' leftovers: ${(error as Error).message}`),
  ));
}
