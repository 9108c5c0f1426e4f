/**
 * A run's scratch stores, as one resource of its scope: the store (or topology) the oracle plays
 * against and, when the target declares one, its fence store (src/run/fence-store.ts). Each starts
 * in the background while the holders load the target; the run awaits them before it plays. Both
 * are stopped with the run, side by side, after the holders closed; a store still starting when the
 * run ended is stopped once it is up.
 */
import { StoreUnavailableError, UsageError } from '../../core/errors.ts';
import { startStore, type RuntimeChoice } from '../../families/start-store.ts';
import type { StartedStore, StoreRequest } from '../../stores/types.ts';
import { startFenceStore } from '../fence-store.ts';
import type { RunScope } from './run-scope.ts';

export class RunStores {
  readonly #scope: RunScope;
  readonly #runtime: RuntimeChoice | undefined;
  readonly #main: Promise<StartedStore>;
  #fence: Promise<StartedStore> | undefined;
  #mainUp = false;

  /** Starts the store for `request`, released with `scope`. */
  constructor(scope: RunScope, request: StoreRequest, runtime: RuntimeChoice | undefined) {
    this.#scope = scope;
    this.#runtime = runtime;
    scope.add('the stores', () => this.#stopAll());
    this.#main = startStore(request, runtime);
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
    return this.#main.catch((e: unknown) => {
      throw e instanceof StoreUnavailableError ? new UsageError(e.message) : e;
    });
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

  async #stopAll(): Promise<void> {
    const stop = (started: Promise<StartedStore> | undefined) =>
      started?.then((store) => store.stop()).catch(() => undefined);
    await Promise.all([stop(this.#main), stop(this.#fence)]);
  }
}
