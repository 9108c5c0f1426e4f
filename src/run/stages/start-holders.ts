/**
 * The stage that starts the holders: compiles the target, starts the oracle's first holders and
 * waits until they loaded it (a target that does not load or lacks a member the oracle calls is a
 * usage error), then starts the fence store the target declares and the oracle's later holders.
 */
import { availableParallelism, loadavg } from 'node:os';
import type { RunStores } from './run-stores.ts';
import type { TargetFit } from './run-holders.ts';
import type { Run } from './run.ts';

export function targetFit(run: Run): TargetFit {
  const { oracle, targetPath, needs } = run.resolved;
  return { oracleId: oracle.id, targetPath, needs };
}

export async function startHolders(run: Run, stores: RunStores): Promise<void> {
  const { request, resolved, holders } = run;
  await holders.load(resolved.targetPath);
  // The oracle's later holders (src/oracle/definition.ts `later`) load while the scenario plays. On an idle
  // machine they start once the others have loaded, which then have a core to themselves; on a
  // busy one (load average at or above the core count) they start at once: the CPU is shared
  // among runnable processes, so holders loading side by side get more of it than one after
  // another (V310 at load ~28: B and C ready seconds later when started after A).
  const ids = request.holders ?? resolved.oracle.holders;
  const later = request.holders ? [] : (resolved.oracle.later ?? []);
  const first = ids.filter((id) => !later.includes(id));
  const startLaterNow = loadavg()[0]! >= availableParallelism();
  const spawning = [...first, ...(startLaterNow ? later : [])].map((id) => holders.spawn(id));
  const fit = targetFit(run);
  const infos = await Promise.all(spawning.slice(0, first.length).map((holder) => holders.usable(holder, fit)));
  const readyInfo = (run.facts.readyInfo = infos[0]);
  if (readyInfo?.fenceStore) stores.startFence(readyInfo.fenceStore);
  run.facts.holdersReadyMs = performance.now() - run.began;
  request.onHoldersReady?.();
  for (const id of later) holders.spawn(id);
}
