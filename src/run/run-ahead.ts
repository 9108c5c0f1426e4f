/**
 * A batch's next run, started ahead (`--runs N`, issue 10): while a run plays, the holder
 * processes of the run that starts next are already loading the target, so that run starts with
 * its holders ready instead of waiting for node and the target's packages (~100 ms of CPU per
 * holder on the project's machine). They are still fresh processes of their own run, started for
 * it alone: nothing crosses runs, and that run's history begins when they were started.
 */
import { FaultLog } from '../core/fault-log.ts';
import { History } from '../core/history.ts';
import { compileHolderModules, Holder, type HolderContext, type HolderModules } from '../holder/holder.ts';
import { Resource } from '../core/resource.ts';

/** Holders started for a run before it began, with the history they report into. */
export interface PreparedRun {
  /** The target (absolute path) they load. */
  readonly targetPath: string;
  readonly ctx: HolderContext;
  readonly modules: HolderModules;
  readonly holders: ReadonlyMap<string, Holder>;
  /** performance.now() when they were started. */
  readonly startedAt: number;
}

/** Starts the holders `ids` of a run to come, loading the target at `targetPath` (absolute). */
export async function prepareRun(targetPath: string, ids: readonly string[]): Promise<PreparedRun> {
  const modules = await compileHolderModules(targetPath);
  const startedAt = performance.now();
  const history = new History();
  const ctx = { history, resource: new Resource(), faults: new FaultLog(history) };
  return { targetPath, ctx, modules, holders: new Map(ids.map((id) => [id, new Holder(id, modules, ctx)])), startedAt };
}

/**
 * One run prepared at a time: when a run's holders are ready (its scenario is about to play), the
 * next run's are started, as long as a run is still to start. Replays of crowded runs (src/run/run-batch.ts)
 * come after every run has started, so they start their own holders.
 */
export class RunAhead {
  #next: Promise<PreparedRun> | undefined;
  #toStart: number;

  constructor(
    runs: number,
    private readonly prepare: () => Promise<PreparedRun>,
  ) {
    this.#toStart = runs;
  }

  /** For the run starting now: the holders started for it, if any. */
  async take(): Promise<PreparedRun | undefined> {
    this.#toStart -= 1;
    const next = this.#next;
    this.#next = undefined;
    return next?.catch(() => undefined);
  }

  /** A run's holders are ready: start the next run's, unless none is to start or they are started. */
  holdersReady(): void {
    if (this.#next || this.#toStart <= 0) return;
    this.#next = this.prepare();
    this.#next.catch(() => undefined);
  }

  /** Ends the holders of a run that never started (the batch stopped early: an error, an interrupt). */
  async discard(): Promise<void> {
    const next = await this.#next?.catch(() => undefined);
    this.#next = undefined;
    await Promise.all([...(next?.holders.values() ?? [])].map((holder) => holder.close(0)));
  }
}
