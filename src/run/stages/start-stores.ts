/**
 * The stages that start the run's stores: `startStores` sets the store (or topology) starting in
 * the background, so that it comes up while the holders load the target (it is the run's first
 * start, so its stores are released last); `storesReady` awaits it and any fence store the target
 * declared, and says where they run.
 */
import { RunStores } from './run-stores.ts';
import type { ResolvedRequest } from './resolve-request.ts';
import type { RunRequest } from './run-request.ts';
import type { RunScope } from './run-scope.ts';
import type { Run } from './run.ts';

export function startStores(
  scope: RunScope,
  request: RunRequest,
  resolved: ResolvedRequest,
  progress: (message: string) => void,
): RunStores {
  const { storeRequest } = resolved;
  const holders = (request.holders ?? resolved.oracle.holders).length;
  progress(`starting a scratch ${storeRequest.kind} store and ${holders} holder process(es)`);
  return new RunStores(scope, storeRequest, request.runtime, request.storePool);
}

export async function storesReady(run: Run, stores: RunStores): Promise<void> {
  run.stage = 'starting the store';
  const store = (run.facts.store = await stores.store());
  run.facts.storeReuse = await stores.reuse();
  run.progress(
    `${store.kind} ${store.version} ready on ${store.url} (${store.runtime}, ${store.startMs.toFixed(0)} ms; ${run.resolved.storeChoice.why}${run.facts.storeReuse.reused ? '; reused, reset since its last run' : ''})`,
  );
  if (!stores.fenced) return;
  run.stage = "starting the target's fence store";
  const fence = await stores.fenceStore();
  run.facts.fenceStore = fence;
  if (fence) run.progress(`the fence store: ${fence.kind} ${fence.version} ready on ${fence.url}`);
}
