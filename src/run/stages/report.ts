/**
 * The last stage: the run's evidence record, from the resolved request, what the stages found and
 * how the run ended. A run that ended at its deadline or on a signal is never judged (ERROR or
 * INTERRUPTED, naming what was still pending); one that broke is an ERROR with the error.
 */
import { basename } from 'node:path';
import { randomBytes } from 'node:crypto';
import { decideVerdict, type Verdict } from '../../core/judgement.ts';
import { SCHEMA_VERSION, type EvidenceRecord } from '../../report/evidence.ts';
import { displayPath } from './display-path.ts';
import type { RunEnd } from './run-end.ts';
import type { Run, RunFacts } from './run.ts';

const HARNESS_VERSION = '0.1.0';

/** `broke`: what went wrong when a stage threw (not a usage error: those are thrown to the caller). */
export function reportEvidence(run: Run, startedAt: string, ended: RunEnd, broke: string | undefined): EvidenceRecord {
  const { request, resolved, facts } = run;
  const { oracle, params, targetPath } = resolved;
  const error = endError(run, ended) ?? broke;
  const judgement = ended.reason === 'finished' ? facts.judgement : undefined;
  const verdict: Verdict =
    ended.reason === 'interrupted' ? 'INTERRUPTED' : error || !judgement ? 'ERROR' : decideVerdict(judgement);
  const { history, resource, faults } = run.holders.ctx;
  return {
    schemaVersion: SCHEMA_VERSION,
    runId: `${startedAt.replace(/[:.]/g, '-')}-${oracle.id}-${basename(targetPath).replace(/\.[mc]?[tj]s$/, '')}-${randomBytes(2).toString('hex')}`,
    startedAt,
    oracle: {
      id: oracle.id,
      title: oracle.title,
      class: oracle.class,
      scenario: oracle.scenario,
      property: oracle.property,
    },
    target: {
      path: displayPath(targetPath),
      name: facts.readyInfo?.name ?? basename(targetPath),
      ...(facts.readyInfo?.description ? { description: facts.readyInfo.description } : {}),
      members: facts.readyInfo?.members ?? [],
    },
    params,
    store: storeEvidence(facts, resolved.storeChoice.why),
    faults: [...faults.records()],
    history: [...history.events()],
    effects: [...resource.effects()],
    ...(facts.observations !== undefined ? { observations: facts.observations } : {}),
    counts: judgement?.counts ?? {},
    preconditions: judgement?.preconditions ?? [],
    property: judgement?.property ?? null,
    verdict,
    explanation:
      ended.reason === 'interrupted'
        ? `Interrupted: ${error!.split('\n')[0]}`
        : error
          ? `The run broke before a verdict: ${error.split('\n')[0]}`
          : verdict === 'PASS' && !request.point && !request.play
            ? `${judgement!.explanation} ${onePass(oracle.explore !== undefined)}`
            : judgement!.explanation,
    ...(verdict === 'INCONCLUSIVE' && judgement?.notApplicable ? { notApplicable: judgement.notApplicable } : {}),
    ...(error ? { error } : {}),
    ...(ended.reason === 'deadline'
      ? { stoppedBy: 'deadline' as const }
      : ended.reason === 'interrupted'
        ? { stoppedBy: 'signal' as const }
        : {}),
    timing: {
      wallMs: round(performance.now() - run.began),
      storeStartMs: round(facts.store?.startMs ?? 0),
      holdersReadyMs: round(facts.holdersReadyMs),
      scenarioMs: round(facts.scenarioMs),
      ...(request.prepared ? { holdersStartedAheadMs: round(run.began - request.prepared.startedAt) } : {}),
    },
    environment: { node: process.version, platform: `${process.platform}-${process.arch}`, harness: HARNESS_VERSION },
  };
}

/** Why a run that ended at its deadline or on a signal has no verdict, with what was still pending then. */
function endError(run: Run, ended: RunEnd): string | undefined {
  if (ended.reason === 'interrupted')
    return `interrupted by ${String(run.request.stop?.reason ?? 'a signal')} while ${ended.pending.join('; ')}: the run was stopped and nothing was judged`;
  if (ended.reason === 'deadline')
    return (
      `the run did not finish within its deadline of ${run.resolved.deadlineMs} ms (--deadline); still pending: ${ended.pending.join('; ')}. ` +
      'Every process it started was stopped. A target call that never returns (a blocking call, a promise that never settles, a busy loop) hangs a run: make it return.'
    );
  return undefined;
}

function storeEvidence({ store, storeReuse, fenceStore }: RunFacts, chosenBy: string): EvidenceRecord['store'] {
  if (!store) return null;
  const clock = store.capabilities.clock;
  return {
    kind: store.kind,
    version: store.version,
    runtime: store.runtime,
    url: store.url,
    startMs: round(store.startMs),
    chosenBy,
    ...(storeReuse ? { reuse: storeReuse } : {}),
    ...(store.backend
      ? { backend: { kind: store.backend.kind, version: store.backend.version, url: store.backend.url } }
      : {}),
    ...(clock ? { clock: { mechanism: clock.mechanism, offsetMs: clock.offsetMs() } } : {}),
    ...(fenceStore ? { fence: { kind: fenceStore.kind, version: fenceStore.version, url: fenceStore.url } } : {}),
    ...(store.topology
      ? {
          topology: {
            name: store.topology.name,
            nodes: store.topology.nodes.map(({ name, port, role }) => ({ name, port, role })),
          },
        }
      : {}),
    // A coordination service's members (etcd:N, zookeeper:N): each with its state at the end (running, paused, killed).
    ...(store.members
      ? {
          topology: {
            name: store.members.name,
            nodes: store.members.members.map(({ name, port, state }) => ({ name, port, role: state })),
          },
        }
      : {}),
  };
}

/** A plain PASS says how much it tried, and that the neighbouring schedules were not. */
function onePass(explorable: boolean): string {
  return (
    "No violation in 1 schedule (the oracle's first); " +
    (explorable
      ? 'exploring may find more: --explore runs a schedule at every command boundary of A.'
      : 'this oracle cannot be explored yet, so the neighbouring schedules were not tried.')
  );
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}
