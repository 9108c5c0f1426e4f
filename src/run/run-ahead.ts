/**
 * Warm holders (issue 35): a small pool of holder processes kept ahead of a batch's runs (`--runs N`,
 * an exploration's points). While runs play, the holders of the runs to come are already loading
 * their runtime and the target (~100 ms of CPU per Node holder, about a second per JVM), so those
 * runs start with their holders ready. `--runs N` keeps one run ahead, an exploration one per 4
 * points its CPU slots let run at once (src/explore/explore.ts): holders loading take CPU from the
 * runs playing, and the reference matrix and selfcheck use no pool: with one, etcd's
 * release-checked.ts came out ERROR (its 1 s lease gone before its put: "requested lease not
 * found") in 2 of 3 `references V310 --jobs 2`, against 0 of 3 without, and no time was saved at
 * the same load (docs/benchmarks.md, suitetime). Each holder started ahead is still a fresh process of the one run that takes it: nothing crosses runs, and that run's
 * history begins when they were started (its evidence's `timing.holdersStartedAheadMs` says how long
 * before the run they were). Holders no run took are ended when the pool is closed, and every
 * holder dies with the harness (src/process/die-with-harness.ts), so a killed harness leaves none.
 */
import { resolve } from 'node:path';
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

/** What a run to come needs started: its target and the holders it starts up front. */
export interface HolderNeed {
  readonly target: string;
  readonly holders: readonly string[];
}

type Prepare = (targetPath: string, ids: readonly string[]) => Promise<PreparedRun>;

/**
 * Up to `depth` runs' holders started ahead, for the runs the pool was told to expect, in that
 * order (a number, or a function asked at each fill: explore's follows how many points its CPU
 * slots let run at once). The pool starts more only when told a run's holders are ready (`fill`, from a run's
 * `onHoldersReady`), so that holders loading ahead do not take a core from the holders of the run
 * about to play. A run takes the holders started for its own need or starts its own.
 */
export class WarmPool {
  readonly #depth: () => number;
  readonly #prepare: Prepare;
  /** Needs of runs to come whose holders are not started yet, in the order expected. */
  #upcoming: HolderNeed[] = [];
  /** Holders started ahead, not yet taken. */
  #started: Array<{ key: string; run: Promise<PreparedRun> }> = [];
  #closed = false;

  constructor(depth: number | (() => number), prepare: Prepare = prepareRun) {
    this.#depth = typeof depth === 'number' ? () => checkedDepth(depth) : () => checkedDepth(depth());
    this.#depth();
    this.#prepare = prepare;
  }

  /** How many runs' holders the pool keeps started ahead now. */
  get depth(): number {
    return this.#depth();
  }

  /** `count` more runs to come need `need` (none when `count` ≤ 0). */
  expect(need: HolderNeed, count = 1): void {
    for (let i = 0; i < count; i++) this.#upcoming.push(need);
  }

  /** Starts holders for the runs expected next, up to the pool's depth. */
  fill(): void {
    while (!this.#closed && this.#started.length < this.depth && this.#upcoming.length) {
      const need = this.#upcoming.shift()!;
      const run = this.#prepare(resolve(need.target), need.holders);
      run.catch(() => undefined);
      this.#started.push({ key: keyOf(need), run });
    }
  }

  /**
   * For a run starting now: holders started ahead for its need, else undefined (it starts its own,
   * and one run expected with that need is no longer to come).
   */
  async take(need: HolderNeed): Promise<PreparedRun | undefined> {
    const key = keyOf(need);
    const at = this.#started.findIndex((entry) => entry.key === key);
    if (at < 0) {
      const upcoming = this.#upcoming.findIndex((other) => keyOf(other) === key);
      if (upcoming >= 0) this.#upcoming.splice(upcoming, 1);
      return undefined;
    }
    const [entry] = this.#started.splice(at, 1);
    return entry!.run.catch(() => undefined);
  }

  /** Ends the holders no run took and forgets the runs to come (the batch is over, or stopped early). */
  async close(): Promise<void> {
    this.#closed = true;
    this.#upcoming = [];
    const started = this.#started.splice(0);
    const runs = await Promise.all(started.map((entry) => entry.run.catch(() => undefined)));
    await Promise.all(
      runs.flatMap((run) => [...(run?.holders.values() ?? [])].map((holder) => holder.close(0).catch(() => undefined))),
    );
  }
}

function checkedDepth(depth: number): number {
  if (!Number.isInteger(depth) || depth < 1) throw new RangeError(`a warm pool's depth must be ≥ 1, got ${depth}`);
  return depth;
}

function keyOf(need: HolderNeed): string {
  return JSON.stringify([resolve(need.target), need.holders]);
}
