/**
 * Knows when the async work started by some code has finished, inside a holder process: every
 * promise created (transitively) by code run through `run()` is tracked until it settles. Used by
 * the simulated clock to hold its time still until what a fired timer started (a lock command, an
 * effect) has completed, so that work happens at the simulated instant it was fired for.
 */
import { AsyncResource, createHook, executionAsyncId, type AsyncHook } from 'node:async_hooks';

export class WorkTracker {
  readonly #tracked = new Set<number>();
  readonly #pending = new Set<number>();
  #created = 0;
  readonly #hook: AsyncHook;

  constructor() {
    this.#hook = createHook({
      init: (id, type, trigger) => {
        if (!this.#tracked.has(trigger) && !this.#tracked.has(executionAsyncId())) return;
        this.#tracked.add(id);
        if (type === 'PROMISE') {
          this.#pending.add(id);
          this.#created += 1;
        }
      },
      promiseResolve: (id) => {
        this.#pending.delete(id);
      },
      destroy: (id) => {
        this.#tracked.delete(id);
        this.#pending.delete(id);
      },
    }).enable();
  }

  /**
   * Run `fn` (synchronously) so that every promise it, and whatever it starts, creates is tracked.
   * Synchronous on purpose: an async wrapper's own promise would count as work.
   */
  run<T>(fn: () => T): T {
    const scope = new AsyncResource('lock-oracles-tracked-work');
    this.#tracked.add(scope.asyncId());
    try {
      return scope.runInAsyncScope(fn);
    } finally {
      scope.emitDestroy();
    }
  }

  /** Promises created through `run()` that have not settled yet. */
  pending(): number {
    return this.#pending.size;
  }

  /** Promises created through `run()` since the last call (and resets the count). */
  takeCreated(): number {
    const created = this.#created;
    this.#created = 0;
    return created;
  }

  disable(): void {
    this.#hook.disable();
    this.#tracked.clear();
    this.#pending.clear();
  }
}
