/**
 * A run's scratch stores, as one resource of its scope: the store (or topology) the oracle plays
 * against and, when the target declares one, its fence store (src/run/fence-store.ts). Each starts
 * in the background while the holders load the target; the run awaits them before it plays. Both
 * are stopped with the run, side by side, after the holders closed; a store still starting when the
 * run ended is stopped once it is up. In a batch with a store pool (src/run/store-pool.ts) the store
 * is borrowed from the pool and given back to it instead of stopped.
 */
import { StoreUnavailableError, UsageError } from '../../core/errors.ts';
import { startStore, type RuntimeChoice } from '../../families/start-store.ts';
import type { StartedStore, StoreRequest } from '../../stores/types.ts';
import { startFenceStore } from '../fence-store.ts';
import type { BorrowedStore, StorePool, StoreReuseRecord } from '../store-pool.ts';
import type { Ending, RunScope } from './run-scope.ts';

/** Why a run without a batch's pool has a server of its own. */
const ALONE = 'a run outside a batch starts its own server';

export class RunStores {
  readonly #scope: RunScope;
  readonly #runtime: RuntimeChoice | undefined;
  readonly #main: Promise<BorrowedStore>;
  #fence: Promise<StartedStore> | undefined;
  #mainUp = false;

  /** Starts the store for `request` (or borrows one of `pool`), released with `scope`. */
  constructor(scope: RunScope, request: StoreRequest, runtime: RuntimeChoice | undefined, pool?: StorePool) {
    this.#scope = scope;
    this.#runtime = runtime;
    scope.add('the stores', (ending) => this.#stopAll(ending));
    this.#main = pool
      ? pool.borrow(request, runtime)
      : startStore(request, runtime).then((store) => ({
          store,
          reuse: { reused: false, why: ALONE },
          giveBack: () => store.stop(),
        }));
    this.#main.then(() => (this.#mainUp = true)).catch(() => undefined);
  }

  /** Starts the target's fence store beside the store (released with it: never once the run's release began). */
  startFence(kind: 'postgres'): void {
    if (!this.#scope.open) throw new Error("the run has ended, so the target's fence store is not started");
    this.#fence = startFenceStore(kind, this.#runtime);
    this.#fence.catch(() => undefined);
  }

  /** The store once it is up; a store this machine cannot start is a usage error. */
  store(): Promise<StartedStore> {
    return this.#main
      .then(({ store }) => store)
      .catch((e: unknown) => {
        throw e instanceof StoreUnavailableError ? new UsageError(e.message) : e;
      });
  }

  /** Whether the store was used by an earlier run of the batch, and why, once it is up. */
  async reuse(): Promise<StoreReuseRecord> {
    return (await this.#main).reuse;
  }

  /** The fence store once it is up, or undefined when the target declared none. */
  async fenceStore(): Promise<StartedStore | undefined> {
    return this.#fence?.catch((e: unknown) => {
      throw e instanceof StoreUnavailableError ? new UsageError(`the target's fenceStore: ${e.message}`) : e;
    });
  }

  /** Whether the target declared a fence store (and it was started). */
  get fenced(): boolean {
    return this.#fence !== undefined;
  }

  /** What is still starting, for a run that ends at its deadline. */
  pending(): string[] {
    return this.#mainUp ? [] : ['the store has not finished starting'];
  }

  async #stopAll(ending: Ending): Promise<void> {
    await Promise.all([
      this.#main.then((main) => main.giveBack(ending)).catch(() => undefined),
      this.#fence?.then((fence) => fence.stop()).catch(() => undefined),
    ]);
  }
}
