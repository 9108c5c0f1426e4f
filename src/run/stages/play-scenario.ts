/**
 * The stage that plays: builds the Scenario the oracle's play runs in (the started store, the
 * holders, the history, the explored point, the fence store) and plays the oracle's workload, or
 * the request's own play (exploration's trace). Faults land inside the play, through the scenario:
 * this stage does not know which. Returns what the play returned, for the judge.
 */
import { Scenario } from '../../oracle/scenario.ts';
import { targetFit } from './start-holders.ts';
import type { Run } from './run.ts';
import type { Ending } from './run-scope.ts';

/** How long the scenario's closers may take after a run ended at its deadline or was interrupted. */
const TEARDOWN_MS = 5000;

export async function playScenario(run: Run): Promise<unknown> {
  const { request, resolved, holders, facts } = run;
  const { oracle, params } = resolved;
  const fit = targetFit(run);
  const scenario = new Scenario({
    store: facts.store!,
    key: `lock-oracles:${oracle.id}`,
    ttlMs: typeof params.ttl === 'number' ? params.ttl : 0,
    params,
    ...holders.ctx,
    spawnHolder: async (id, options) => {
      const holder = holders.spawn(id, options);
      await holders.usable(holder, fit);
      return holder;
    },
    progress: run.progress,
    ...(request.point ? { point: request.point } : {}),
    ...(facts.fenceStore ? { fenceUrl: facts.fenceStore.url } : {}),
  });
  // The scenario starts nothing until it plays; what it then starts (proxies, views, nodes) it closes.
  run.scope.add('the scenario', (ending) => closeScenario(scenario, ending));
  const playBegan = performance.now();
  run.stage = `playing the ${oracle.id} scenario`;
  const played: unknown = await (request.play ?? oracle.play)(scenario, params as never);
  facts.scenarioMs = performance.now() - playBegan;
  const cannotLand = scenario.pointNotApplicable;
  if (cannotLand !== undefined) facts.pointNotApplicable = cannotLand;
  // A holder the scenario never asked for still loaded the target: one that could not is a usage error too.
  await Promise.all(holders.all().map((holder) => holders.usable(holder, fit)));
  return played;
}

/** A run that ended at its deadline or on a signal may have a closer that never returns: its wait is bounded. */
async function closeScenario(scenario: Scenario, ending: Ending): Promise<void> {
  const closing = scenario.close().catch(() => undefined);
  const hurried = ending === 'deadline' || ending === 'interrupted';
  await (hurried ? Promise.race([closing, sleep(TEARDOWN_MS)]) : closing);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
