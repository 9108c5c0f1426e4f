/**
 * Stores started once for a batch of runs (issue 35 item 3: an exploration's points, `--runs N`,
 * the reference matrix, selfcheck):
 * a run borrows an idle server of the batch's pool, or starts one when none is idle, and has it to
 * itself until it ends; the server goes back to the pool only once its family's reset
 * (StoreFamily.reuse: src/families/<family>/reset.ts for Redis/Valkey, Postgres, etcd, ZooKeeper) has
 * shown it is as found. So the pool holds at most as many servers as runs were ever in flight at once,
 * and an idle one only as long as its family says keeping it costs less than starting another
 * (StoreReuse.keepIdleMs: an idle etcd member ticks its raft clock every 10 ms).
 *
 * A run gets a server of its own, never a borrowed one, when the pool cannot vouch for reuse: a
 * family with no reset, a store asked with something beyond its kind (its clock offset, a topology,
 * a PgBouncer pool mode), the container runtime. And a borrowed server is stopped instead of given
 * back when its run changed the server itself (paused, killed or stepped its clock through the
 * store's capabilities: the run is handed a store whose capabilities say so when called), ended at
 * its deadline or by a signal, or its reset failed or found anything left. When in doubt, a fresh
 * server: a wrong verdict costs more than a second. Each run's evidence says which it was and why
 * (`store.reuse`).
 */
import { startStore, type RuntimeChoice } from '../families/start-store.ts';
import { familyOf } from '../families/index.ts';
import type { StoreReuse } from '../families/store-reuse.ts';
import type { StartedStore, StoreCapabilities, StoreRequest } from '../stores/types.ts';
import type { Ending } from './stages/run-scope.ts';

/** Whether a run played on a server an earlier run of its batch used, and why, for its evidence. */
export interface StoreReuseRecord {
  reused: boolean;
  why: string;
}

/** A server lent to one run: the store it plays against, and how it goes back. */
export interface BorrowedStore {
  readonly store: StartedStore;
  readonly reuse: StoreReuseRecord;
  /** After the run: reset and kept for the next run, or stopped (see the header). */
  giveBack(ending: Ending): Promise<void>;
}

/**
 * The pool a batch of runs shares, or none when every run is to start its own server: `fresh`
 * (an exploration's `freshStores`), or LOCK_ORACLES_FRESH_STORES=1 (to compare, or to rule the pool out).
 */
export function batchStorePool(fresh = process.env.LOCK_ORACLES_FRESH_STORES === '1'): StorePool | undefined {
  return fresh ? undefined : new StorePool();
}

/** Longest a reset may take before the server is stopped instead (a server blocked by a run's command). */
const RESET_DEADLINE_MS = 3000;

interface Pooled {
  readonly store: StartedStore;
  readonly reuse: StoreReuse;
  readonly baseline: string;
  /** Runs it has served so far. */
  runs: number;
  /** While idle: stops it once idle longer than its family's keepIdleMs. */
  idleTimer?: NodeJS.Timeout;
}

/** Servers the pool stopped instead of keeping, and why (for the tests and the benchmark). */
export interface Discarded {
  url: string;
  why: string;
}

export class StorePool {
  #idle: Pooled[] = [];
  #returning = new Set<Promise<void>>();
  #closed = false;
  readonly #discarded: Discarded[] = [];
  readonly #keepIdleAtMostMs: number;

  /** `keepIdleAtMostMs`: the longest any idle server is kept, whatever its family's keepIdleMs. */
  constructor({ keepIdleAtMostMs = Number.POSITIVE_INFINITY } = {}) {
    this.#keepIdleAtMostMs = keepIdleAtMostMs;
  }

  /** Why a run of `request` gets a server of its own (undefined: it may borrow one). */
  static whyOwnServer(request: StoreRequest, runtime: RuntimeChoice | undefined): string | undefined {
    if (runtime !== undefined && runtime !== 'local') return `--runtime ${runtime}: each run starts its own server`;
    if (request.clockOffsetMs !== undefined) return "the run steps the server's clock, so it gets a server of its own";
    if (request.topology !== undefined) return 'a topology of several servers is started for each run';
    const beyondKind = Object.keys(request).filter((key) => key !== 'kind');
    if (beyondKind.length) return `the run asks its store for ${beyondKind.join(', ')}, so it gets a server of its own`;
    if (!familyOf(request.kind).reuse?.kinds.includes(request.kind))
      return `${request.kind} has no reset yet, so each run starts its own server`;
    return undefined;
  }

  /** A server for one run: an idle one of the pool (reset after its last run), else a new one. */
  async borrow(request: StoreRequest, runtime: RuntimeChoice | undefined): Promise<BorrowedStore> {
    if (this.#closed) throw new Error('the store pool is closed: its batch is over');
    const own = StorePool.whyOwnServer(request, runtime);
    if (own !== undefined) {
      const store = await startStore(request, runtime);
      return { store, reuse: { reused: false, why: own }, giveBack: () => store.stop() };
    }
    const began = performance.now();
    const idle = this.#idle.findIndex((pooled) => pooled.store.kind === request.kind);
    if (idle >= 0) {
      const [pooled] = this.#idle.splice(idle, 1);
      clearTimeout(pooled!.idleTimer);
      const why = `a server of this batch's, which served ${pooled!.runs} earlier run(s); reset and verified after each (${pooled!.reuse.verifies})`;
      return this.#lend(pooled!, { reused: true, why }, performance.now() - began);
    }
    const store = await startStore(request, runtime);
    const reuse = familyOf(request.kind).reuse!;
    let baseline: string;
    try {
      baseline = await reuse.baseline(store);
    } catch (error) {
      // Nothing to compare a reset with: the run keeps the server to itself, as without a pool.
      const why = `a server of its own: its state as started could not be read for a later reset (${(error as Error).message})`;
      return { store, reuse: { reused: false, why }, giveBack: () => store.stop() };
    }
    const why = "a new server of this batch's pool (none was idle), given back to it after the run";
    return this.#lend({ store, reuse, baseline, runs: 0 }, { reused: false, why }, store.startMs);
  }

  /** What the pool stopped instead of keeping, and why. */
  discarded(): readonly Discarded[] {
    return this.#discarded;
  }

  /** Stops every idle server (the batch is over); servers still lent are stopped when given back. */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all([...this.#returning]);
    await Promise.all(
      this.#idle
        .splice(0)
        .map((pooled) => (clearTimeout(pooled.idleTimer), pooled.store.stop().catch(() => undefined))),
    );
  }

  /** An idle server no run borrowed for its family's keepIdleMs: stopped (an idle etcd member costs CPU). */
  #stopIdle(pooled: Pooled): void {
    const at = this.#idle.indexOf(pooled);
    if (at < 0) return;
    this.#idle.splice(at, 1);
    const stopping = pooled.store.stop().catch(() => undefined);
    this.#returning.add(stopping);
    void stopping.finally(() => this.#returning.delete(stopping));
  }

  #lend(pooled: Pooled, reuse: StoreReuseRecord, startMs: number): BorrowedStore {
    let changed: string | undefined;
    const store = guarded(pooled.store, startMs, (why) => (changed ??= why));
    let given = false;
    const giveBack = async (ending: Ending): Promise<void> => {
      if (given) return;
      given = true;
      const returning = this.#takeBack(pooled, ending, changed);
      this.#returning.add(returning);
      await returning.finally(() => this.#returning.delete(returning));
    };
    return { store, reuse, giveBack };
  }

  async #takeBack(pooled: Pooled, ending: Ending, changed: string | undefined): Promise<void> {
    pooled.runs += 1;
    const why =
      changed ??
      (ending !== 'finished' ? `its run ended ${ending === 'deadline' ? 'at its deadline' : ending}` : undefined) ??
      (this.#closed ? undefined : await resetWithin(pooled, RESET_DEADLINE_MS));
    if (why === undefined && !this.#closed) {
      this.#idle.push(pooled);
      pooled.idleTimer = setTimeout(
        () => this.#stopIdle(pooled),
        Math.min(pooled.reuse.keepIdleMs, this.#keepIdleAtMostMs),
      ).unref();
      return;
    }
    if (why !== undefined) this.#discarded.push({ url: pooled.store.url, why });
    await pooled.store.stop().catch(() => undefined);
  }
}

/** Undefined when the server was reset and is as found; else why it is not kept. */
async function resetWithin(pooled: Pooled, deadlineMs: number): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`its reset did not finish within ${deadlineMs} ms`), deadlineMs);
  });
  try {
    return await Promise.race([
      pooled.reuse
        .reset(pooled.store, pooled.baseline)
        .catch((error: unknown) => `its reset failed: ${(error as Error).message}`),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The store as a run sees it: its capabilities tell `changed` when used (the server paused, killed,
 * its clock stepped), and stopping it is the pool's business, not the run's.
 */
function guarded(store: StartedStore, startMs: number, changed: (why: string) => void): StartedStore {
  const { pause, resume, kill, clock } = store.capabilities;
  const capabilities: StoreCapabilities = {
    ...(pause ? { pause: () => (changed('the run paused the server (SIGSTOP)'), pause()) } : {}),
    ...(resume ? { resume: () => (changed('the run paused and resumed the server'), resume()) } : {}),
    ...(kill ? { kill: () => (changed('the run killed the server'), kill()) } : {}),
    ...(clock
      ? {
          clock: {
            mechanism: clock.mechanism,
            offsetMs: () => clock.offsetMs(),
            setOffsetMs: (offsetMs: number) => (
              changed("the run stepped the server's clock"),
              clock.setOffsetMs(offsetMs)
            ),
          },
        }
      : {}),
  };
  return { ...store, startMs, capabilities, stop: async () => undefined };
}
