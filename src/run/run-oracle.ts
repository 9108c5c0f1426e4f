/**
 * Plays one oracle against one target, once: validates the request, starts the store and the
 * holders side by side, runs the scenario, decides the verdict and returns the evidence.
 * Usage mistakes (unknown oracle, bad parameter, missing target member, store not installed)
 * throw UsageError before anything is judged; everything started is stopped on every path.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { basename, relative, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import { History } from '../core/history.ts';
import { Resource } from '../core/resource.ts';
import { decideVerdict, nothingProven, type Check, type Judgement, type Verdict } from '../core/judgement.ts';
import { defaultDeadlineMs, resolveParams } from '../core/params.ts';
import { ParamError, UsageError, StoreUnavailableError, TargetCallError } from '../core/errors.ts';
import { loadOracle, REPO_ROOT } from './registry.ts';
import { recipeFor } from '../families/recipes.ts';
import { startStore, type RuntimeChoice } from '../families/start-store.ts';
import { startFenceStore } from './fence-store.ts';
import { speaksRedis, type StartedStore, type StoreKind } from '../stores/types.ts';
import { parseTopology } from '../stores/topology.ts';
import { SCHEMA_VERSION, type EvidenceRecord } from '../report/evidence.ts';
import { reapLeftovers } from './reaper.ts';
import { FaultLog } from '../core/fault-log.ts';
import {
  compileHolderModules,
  Holder,
  type HolderModules,
  type HolderSpawnOptions,
  type ReadyInfo,
} from '../holder/holder.ts';
import { Scenario } from '../oracle/scenario.ts';
import { judgeRun } from '../oracle/definition.ts';
import type { ExplorePoint } from '../oracle/explore-point.ts';
import type { PreparedRun } from './run-ahead.ts';
import { chooseStore, type StoreChoice } from './store-choice.ts';

export interface RunRequest {
  oracle: string;
  target: string;
  /** Oracle parameters: raw CLI strings or typed values, by parameter name (camelCase). */
  params?: Record<string, unknown>;
  store?: StoreKind;
  /** Which runtime starts the store (src/families/start-store.ts); default local. */
  runtime?: RuntimeChoice;
  /** Several nodes (--topology replicated[:R] | sentinel[:R] | redlock[:N]); default one server. */
  topology?: string;
  progress?: (message: string) => void;
  /** Longest the run may take, start-up and teardown included; default from the parameters (src/core/params.ts). */
  deadlineMs?: number;
  /** Aborted (with the signal's name as its reason) when the user interrupts: the run stops and says INTERRUPTED. */
  stop?: AbortSignal;
  /** `--explore`: land this point (the oracle arms it at its stressed part). */
  point?: ExplorePoint;
  /** Start only these holders up front (exploration's trace needs A alone); default the oracle's. */
  holders?: readonly string[];
  /** Play this instead of the oracle's scenario (exploration's trace of A alone). */
  play?: (scenario: Scenario, params: Record<string, string | number>) => Promise<Judgement>;
  /** This run's holders, started ahead of it while the batch's previous run played (src/run/run-ahead.ts). */
  prepared?: PreparedRun;
  /** Told once this run's first holders are ready, as its scenario is about to play. */
  onHoldersReady?: () => void;
}

/**
 * A holder whose process ended on its own while the scenario played (a crash, process.exit in the
 * target) makes the run INCONCLUSIVE, whatever the property says: a dead holder's connections
 * are closed (a Postgres session's locks are dropped with it), and a call it was running may have
 * stopped anywhere (a release that crashed may never have sent its delete), so what the store
 * showed afterwards need not be the target's doing. An end the harness asked for (close, a SIGKILL
 * fault) does not count.
 */
function withHolderDeaths(judgement: Judgement, holders: readonly Holder[]): Judgement {
  const dead = holders.flatMap((h) => {
    const how = h.endedOnItsOwn;
    return how ? [`${h.id} (${how})`] : [];
  });
  if (!dead.length) return judgement;
  const check: Check = {
    name: 'every holder process lived through the scenario',
    held: false,
    detail: `holder ${dead.join(', ')} ended on its own before the judgement: its connections closed with it and a call it was running may have stopped anywhere, so what the store showed afterwards need not be the target's doing`,
  };
  // A holder that died may have changed what the store showed: a point's "cannot apply" no longer stands.
  const { notApplicable: _, ...judged } = judgement;
  return {
    ...judged,
    preconditions: [...judgement.preconditions, check],
    explanation: `${nothingProven([check])} The scenario's own reading: ${judgement.explanation}`,
  };
}

/** How long teardown may take after a run ended at its deadline or was interrupted, before processes are killed. */
const TEARDOWN_MS = 5000;

const HARNESS_VERSION = '0.1.0';

/**
 * Everything about a request that can be checked without starting a process: the oracle, its
 * parameters, the store kind (and that this machine can run it), the target file. Throws UsageError.
 */
export async function checkRequest(request: RunRequest) {
  const oracle = await loadOracle(request.oracle);
  let params: Record<string, string | number>;
  try {
    params = resolveParams(oracle.params, request.params ?? {});
  } catch (error) {
    if (error instanceof ParamError) throw new UsageError(`${oracle.id}: ${error.message}`);
    throw error;
  }
  const problems = oracle.validate?.(params as never) ?? [];
  if (problems.length) throw new UsageError(`${oracle.id}: ${problems.join('; ')}`);

  if (request.store !== undefined && !oracle.stores.includes(request.store)) {
    throw new UsageError(`${oracle.id} runs on ${oracle.stores.join(', ')}, not on --store ${request.store}`);
  }
  const targetPath = checkTarget(request.target);
  const choice: StoreChoice = request.store
    ? { kind: request.store, why: '--store' }
    : await chooseStore(oracle.id, oracle.stores, targetPath);
  const kind = choice.kind;
  // A store this machine cannot run is reported before any process starts.
  const topology = request.topology === undefined ? undefined : parseTopology(request.topology);
  if (topology && topology.kind !== 'single' && !speaksRedis(kind))
    throw new UsageError(
      `--topology ${request.topology} starts Redis or Valkey nodes: run ${oracle.id} with --store redis or valkey`,
    );
  const storeRequest = {
    ...(oracle.storeRequest?.(params as never, kind) ?? { kind }),
    ...(topology ? { topology } : {}),
  };
  if (request.runtime === undefined || request.runtime === 'local') {
    const unavailable = await recipeFor(storeRequest.kind).missing();
    if (unavailable) throw new UsageError(unavailable.message);
  }
  return { oracle, params, targetPath, storeRequest, storeChoice: choice };
}

/** This process's look for dead runs' leftovers (src/run/reaper.ts), made by its first run. */
let reaped: Promise<void> | undefined;

export async function runOracle(request: RunRequest): Promise<EvidenceRecord> {
  const began = performance.now();
  const startedAt = new Date().toISOString();
  const progress = request.progress ?? (() => undefined);
  // What a SIGKILLed earlier run left (its temp dirs, its containers) goes first; never a live run's.
  // Once per process: a batch's later runs would only scan the temp dirs and ask the engine again.
  const reaping = (reaped ??= reapLeftovers().then(
    (found) => found.removed.forEach((what) => progress(`removed a dead run's leftover: ${what}`)),
    (error: unknown) => progress(`could not look for dead runs' leftovers: ${(error as Error).message}`),
  ));
  const { oracle, params, targetPath, storeRequest, storeChoice } = await checkRequest(request).catch(
    async (error: unknown) => {
      await Promise.all([...(request.prepared?.holders.values() ?? [])].map((holder) => holder.close(0)));
      throw error;
    },
  );
  const needs = oracle.needs(params as never);

  const { prepared } = request;
  if (prepared && prepared.targetPath !== targetPath)
    throw new Error(`holders prepared for ${prepared.targetPath} were given to a run of ${targetPath}`);
  const history = prepared?.ctx.history ?? new History();
  const resource = prepared?.ctx.resource ?? new Resource();
  const faults = prepared?.ctx.faults ?? new FaultLog(history);
  const ctx = { history, resource, faults };
  const spawned = new Map<string, Holder>(prepared?.holders);
  let modules: HolderModules | undefined = prepared?.modules;
  const spawnHolder = (id: string, options?: HolderSpawnOptions) => {
    const ready = spawned.get(id);
    if (ready && !options?.env) return ready;
    if (end.result) throw new Error(`the run has ended (${end.result.reason}); holder ${id} is not started`);
    if (!modules) throw new Error(`holder ${id} was asked for before the target was compiled`);
    const holder = new Holder(id, modules, ctx, options);
    spawned.set(id, holder);
    return holder;
  };
  /** The holder once it has loaded the target; a load failure or a missing member is a usage error, whenever it shows. */
  const usable = async (holder: Holder): Promise<ReadyInfo> => {
    const info = await holder.ready.catch((e: unknown) => {
      throw new UsageError(
        `the target ${displayPath(targetPath)} failed to load in a holder process:\n${(e as Error).message}`,
      );
    });
    const missing = needs.filter((member) => !info.members.includes(member));
    if (missing.length) {
      throw new UsageError(
        `${relative(process.cwd(), targetPath)} does not fit ${oracle.id}: it has no ${missing.join(', ')} member(s) ` +
          `(it has: ${info.members.join(', ') || 'none'}). ${oracle.id} calls ${needs.join(', ')}; see targets/contract.ts.`,
      );
    }
    return info;
  };

  // Holders load the target while the store starts.
  progress(
    `starting a scratch ${storeRequest.kind} store and ${(request.holders ?? oracle.holders).length} holder process(es)`,
  );
  let store: StartedStore | undefined;
  let fenceStart: Promise<StartedStore> | undefined;
  let fenceStore: StartedStore | undefined;
  let scenario: Scenario | undefined;
  let readyInfo: ReadyInfo | undefined;
  let holdersReadyMs = 0;
  let judgement: Judgement | undefined;
  /** What the oracle's play observed, for its judge (kept in the evidence: the judgement can be re-derived). */
  let observations: unknown;
  let error: string | undefined;
  let scenarioMs = 0;
  let storeStart: Promise<StartedStore> | undefined;
  let ended: RunEnd | undefined;
  let stage = 'starting the store and loading the target';
  const deadlineMs =
    request.deadlineMs ?? oracle.deadlineMs?.(params as never) ?? defaultDeadlineMs(oracle.params, params);
  const end = endOfRun(deadlineMs, request.stop, () => [
    stage,
    ...[...spawned.values()].flatMap((h) => h.pending()),
    ...(storeStart && !store ? ['the store has not finished starting'] : []),
  ]);
  const play = async () => {
    storeStart = startStore(storeRequest, request.runtime);
    storeStart.catch(() => undefined);
    modules ??= await compileHolderModules(targetPath).catch((e: unknown) => {
      throw new UsageError(`the target ${displayPath(targetPath)} failed to load: ${(e as Error).message}`);
    });
    // The oracle's later holders (src/oracle/definition.ts `later`) load while the scenario plays. On an idle
    // machine they start once the others have loaded, which then have a core to themselves; on a
    // busy one (load average at or above the core count) they start at once: the CPU is shared
    // among runnable processes, so holders loading side by side get more of it than one after
    // another (V310 at load ~28: B and C ready seconds later when started after A).
    const ids = request.holders ?? oracle.holders;
    const later = request.holders ? [] : (oracle.later ?? []);
    const first = ids.filter((id) => !later.includes(id));
    const startLaterNow = loadavg()[0]! >= availableParallelism();
    const spawning = [...first, ...(startLaterNow ? later : [])].map((id) => spawnHolder(id));
    const infos = await Promise.all(spawning.slice(0, first.length).map(usable));
    readyInfo = infos[0];
    if (readyInfo?.fenceStore) {
      fenceStart = startFenceStore(readyInfo.fenceStore, request.runtime);
      fenceStart.catch(() => undefined);
    }
    holdersReadyMs = performance.now() - began;
    request.onHoldersReady?.();
    for (const id of later) spawnHolder(id);
    stage = 'starting the store';
    store = await storeStart.catch((e: unknown) => {
      if (e instanceof StoreUnavailableError) throw new UsageError(e.message);
      throw e;
    });
    progress(
      `${store.kind} ${store.version} ready on ${store.url} (${store.runtime}, ${store.startMs.toFixed(0)} ms; ${storeChoice.why})`,
    );
    if (fenceStart) {
      stage = "starting the target's fence store";
      fenceStore = await fenceStart.catch((e: unknown) => {
        if (e instanceof StoreUnavailableError) throw new UsageError(`the target's fenceStore: ${e.message}`);
        throw e;
      });
      progress(`the fence store: ${fenceStore.kind} ${fenceStore.version} ready on ${fenceStore.url}`);
    }
    scenario = new Scenario({
      store,
      key: `lock-oracles:${oracle.id}`,
      ttlMs: typeof params.ttl === 'number' ? params.ttl : 0,
      params,
      history,
      resource,
      faults,
      spawnHolder: async (id, options) => {
        const holder = spawnHolder(id, options);
        await usable(holder);
        return holder;
      },
      progress,
      ...(request.point ? { point: request.point } : {}),
      ...(fenceStore ? { fenceUrl: fenceStore.url } : {}),
    });
    const playBegan = performance.now();
    stage = `playing the ${oracle.id} scenario`;
    const played: unknown = await (request.play ?? oracle.play)(scenario, params as never);
    scenarioMs = performance.now() - playBegan;
    // A holder the scenario never asked for still loaded the target: one that could not is a usage error too.
    await Promise.all([...spawned.values()].map(usable));
    if (end.result) return;
    stage = `judging the ${oracle.id} scenario`;
    if (!request.play && oracle.judge) observations = played;
    const judged = request.play
      ? (played as Judgement)
      : judgeRun(oracle, { observations: played, history: history.events(), effects: resource.effects() }, params);
    judgement = withHolderDeaths(judged, [...spawned.values()]);
  };
  try {
    await Promise.race([play(), end.promise]);
  } catch (e) {
    if (e instanceof UsageError && !end.result) throw e;
    if (!(e instanceof RunEnd)) {
      error =
        e instanceof TargetCallError
          ? `${e.message}\nThe target broke, so nothing was judged: fix the target and run again.`
          : ((e as Error)?.stack ?? String(e));
    }
  } finally {
    ended = end.settle();
    // A run that ended at its deadline or on a signal may have a closer or a target that never
    // returns: teardown is bounded too, then every holder is killed outright.
    const closing = scenario?.close().catch(() => undefined);
    if (ended.reason !== 'finished') await Promise.race([closing, sleep(TEARDOWN_MS)]);
    else await closing;
    const grace = ended.reason === 'finished' ? undefined : 500;
    await Promise.all([...spawned.values()].map((h) => h.close(grace).catch(() => undefined)));
    // A store still starting when a usage error struck is stopped too, once it is up.
    const stopping = store ? store.stop() : storeStart?.then((started) => started.stop());
    const fenceStopping = fenceStart?.then((started) => started.stop());
    await Promise.all([stopping?.catch(() => undefined), fenceStopping?.catch(() => undefined)]);
    await reaping;
  }

  if (ended.reason === 'interrupted') {
    judgement = undefined;
    error = `interrupted by ${String(request.stop?.reason ?? 'a signal')} while ${ended.pending.join('; ')}: the run was stopped and nothing was judged`;
  } else if (ended.reason === 'deadline') {
    judgement = undefined;
    error =
      `the run did not finish within its deadline of ${deadlineMs} ms (--deadline); still pending: ${ended.pending.join('; ')}. ` +
      'Every process it started was stopped. A target call that never returns (a blocking call, a promise that never settles, a busy loop) hangs a run: make it return.';
  }
  const verdict: Verdict =
    ended.reason === 'interrupted' ? 'INTERRUPTED' : error || !judgement ? 'ERROR' : decideVerdict(judgement);
  const clock = store?.capabilities.clock;
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
      name: readyInfo?.name ?? basename(targetPath),
      ...(readyInfo?.description ? { description: readyInfo.description } : {}),
      members: readyInfo?.members ?? [],
    },
    params,
    store: store
      ? {
          kind: store.kind,
          version: store.version,
          runtime: store.runtime,
          url: store.url,
          startMs: round(store.startMs),
          chosenBy: storeChoice.why,
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
        }
      : null,
    faults: [...faults.records()],
    history: [...history.events()],
    effects: [...resource.effects()],
    ...(observations !== undefined ? { observations } : {}),
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
      wallMs: round(performance.now() - began),
      storeStartMs: round(store?.startMs ?? 0),
      holdersReadyMs: round(holdersReadyMs),
      scenarioMs: round(scenarioMs),
      ...(prepared ? { holdersStartedAheadMs: round(began - prepared.startedAt) } : {}),
    },
    environment: { node: process.version, platform: `${process.platform}-${process.arch}`, harness: HARNESS_VERSION },
  };
}

/** Why a run stopped: its scenario finished, its deadline passed, or the user interrupted it. */
class RunEnd extends Error {
  constructor(
    readonly reason: 'finished' | 'deadline' | 'interrupted',
    readonly pending: string[],
  ) {
    super(`run ended: ${reason}`);
  }
}

/**
 * Rejects with a RunEnd at the deadline or on `stop`, naming what was still pending then;
 * `settle()` ends the watch when the scenario finished first.
 */
function endOfRun(deadlineMs: number, stop: AbortSignal | undefined, pending: () => string[]) {
  let reject!: (end: RunEnd) => void;
  let result: RunEnd | undefined;
  const promise = new Promise<never>((_, r) => (reject = r));
  promise.catch(() => undefined);
  const finish = (reason: RunEnd['reason']) => {
    if (result) return result;
    clearTimeout(timer);
    stop?.removeEventListener('abort', onStop);
    result = new RunEnd(reason, reason === 'finished' ? [] : pending().filter(Boolean));
    reject(result);
    return result;
  };
  const onStop = () => finish('interrupted');
  const timer = setTimeout(() => finish('deadline'), deadlineMs);
  stop?.addEventListener('abort', onStop);
  if (stop?.aborted) finish('interrupted');
  return {
    promise,
    settle: () => finish('finished'),
    get result() {
      return result;
    },
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
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

function checkTarget(path: string): string {
  const absolute = resolve(path);
  try {
    if (!statSync(absolute).isFile()) throw new Error('not a file');
    accessSync(absolute, constants.R_OK);
  } catch {
    throw new UsageError(
      `--target: cannot read "${path}" (resolved to ${absolute}); give the path of a target module (see targets/contract.ts)`,
    );
  }
  return absolute;
}

function displayPath(path: string): string {
  const fromRepo = relative(REPO_ROOT, path);
  return fromRepo.startsWith('..') ? path : fromRepo;
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}
