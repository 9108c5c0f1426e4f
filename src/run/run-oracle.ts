/**
 * Plays one oracle against one target, once, as a pipeline the request passes through once:
 * resolve the request → start the store (and any fence store) → start the holders → play → judge
 * → report (each stage in src/run/stages/). Whatever a stage starts joins the run's scope
 * (stages/run-scope.ts), released newest first however the run ends: finished, broken, refused,
 * at its deadline, or interrupted. Usage mistakes (unknown oracle, bad parameter, missing target
 * member, store not installed) throw UsageError before anything is judged.
 */
import { TargetCallError, UsageError } from '../core/errors.ts';
import type { EvidenceRecord } from '../report/evidence.ts';
import { endOfRun, RunEnd } from './stages/run-end.ts';
import { RunScope } from './stages/run-scope.ts';
import { closePrepared, RunHolders } from './stages/run-holders.ts';
import { reapOnce } from './stages/reap-once.ts';
import { resolveRequest } from './stages/resolve-request.ts';
import { startStores, storesReady } from './stages/start-stores.ts';
import { startHolders } from './stages/start-holders.ts';
import { playScenario } from './stages/play-scenario.ts';
import { judge } from './stages/judge.ts';
import { connectionLostJudgement } from './stages/connection-lost.ts';
import { reportEvidence } from './stages/report.ts';
import type { RunRequest } from './stages/run-request.ts';
import type { Run } from './stages/run.ts';
import type { RunStores } from './stages/run-stores.ts';

export type { RunRequest } from './stages/run-request.ts';

export async function runOracle(request: RunRequest): Promise<EvidenceRecord> {
  const began = performance.now();
  const startedAt = new Date().toISOString();
  const progress = request.progress ?? (() => undefined);
  const scope = new RunScope();
  // What dead runs left is looked for while this run's store and holders start (the scan is
  // synchronous: it takes the first idle moment after they were spawned), and awaited last.
  const reaping = new Promise<void>((resolve) => setImmediate(() => void reapOnce(progress).then(resolve)));
  scope.add("the look for dead runs' leftovers", () => reaping);
  scope.add('the holders started ahead, if the request is refused', (ending) =>
    ending === 'refused' ? closePrepared(request.prepared) : undefined,
  );
  const resolved = await resolveRequest(request).catch(async (error: unknown) => {
    await scope.release('refused');
    throw error;
  });
  // Released in reverse: the scenario, then the holders (their targets may talk to the store as they close), then the stores.
  const stores = startStores(scope, request, resolved, progress);
  const holders = new RunHolders(scope, request.prepared);
  const facts = { holdersReadyMs: 0, scenarioMs: 0 };
  const stage = 'starting the store and loading the target';
  const run: Run = { request, resolved, scope, holders, progress, began, stage, facts, over: () => !!end.result };
  const end = endOfRun(resolved.deadlineMs, request.stop, () => [run.stage, ...holders.pending(), ...stores.pending()]);
  let broke: string | undefined;
  let ended: RunEnd;
  try {
    await Promise.race([playThrough(run, stores), end.promise]);
  } catch (error) {
    if (error instanceof UsageError && !end.result) throw error;
    const lost = connectionLostJudgement(error, resolved.storeChoice.kind, resolved.params.ttl);
    if (lost) run.facts.judgement = lost;
    else if (!(error instanceof RunEnd)) broke = describeBreak(error);
  } finally {
    ended = end.settle();
    await scope.release(ended.reason);
  }
  return reportEvidence(run, startedAt, ended, broke);
}

/** The stages between a resolved request and its judgement, each once, in order. */
async function playThrough(run: Run, stores: RunStores): Promise<void> {
  await startHolders(run, stores);
  await storesReady(run, stores);
  const played = await playScenario(run);
  if (run.over()) return;
  judge(run, played);
}

function describeBreak(error: unknown): string {
  return error instanceof TargetCallError
    ? `${error.message}\nThe target broke, so nothing was judged: fix the target and run again.`
    : ((error as Error)?.stack ?? String(error));
}
