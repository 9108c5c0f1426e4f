/**
 * One run's resources, released in one place. Every stage that starts something (the store and a
 * fence store, the holder processes, the scenario's proxies and views) adds how to release it
 * before it awaits anything, and the run releases them all, newest first, however it ended: its
 * scenario finished or broke, its request was refused, its deadline passed, or SIGINT/SIGTERM
 * aborted its `stop` signal. A harness that is killed outright is covered by the process-wide
 * fallbacks instead (src/process/cleanup.ts, the reaper): this scope is the orderly path.
 */

/**
 * How the run ended, which decides how patient its release is: `finished` (judged, or broke with an
 * error) waits for every close; `deadline` and `interrupted` bound it (a closer or a target may
 * never return); `refused` is a request that failed its checks before anything played.
 */
export type Ending = 'finished' | 'deadline' | 'interrupted' | 'refused';

type Release = (ending: Ending) => Promise<unknown> | unknown;

export class RunScope {
  readonly #releases: Array<{ what: string; release: Release }> = [];
  #open = true;

  /** False once the run's release began: nothing more may start. */
  get open(): boolean {
    return this.#open;
  }

  /** `what` (a phrase, e.g. "the store") is released with the run; a run being released takes nothing new. */
  add(what: string, release: Release): void {
    if (!this.#open) throw new Error(`the run has ended, so ${what} is not started`);
    this.#releases.push({ what, release });
  }

  /**
   * Releases everything added, newest first, each once. A release that fails is said on stderr and
   * does not stop the others: it is the end of the run, its evidence is already decided, and what
   * it could not stop the process-wide fallbacks kill on exit.
   */
  async release(ending: Ending): Promise<void> {
    this.#open = false;
    for (const { what, release } of this.#releases.splice(0).reverse()) {
      try {
        await release(ending);
      } catch (error) {
        process.stderr.write(`releasing ${what} at the end of the run failed: ${(error as Error).message}\n`);
      }
    }
  }
}
