/**
 * `--explore`: find the failing schedule without being told where it is. A's part is traced alone
 * once; every boundary of the part the oracle stresses × every fault that applies becomes a point;
 * each point runs as its own scenario (its own scratch store and holders, several at a time) and is
 * judged by the oracle's own property and preconditions. FAIL when any point fails (the earliest
 * boundary with the smallest fault is *the* minimal schedule), PASS only when every point's fault
 * landed and the property held, INCONCLUSIVE otherwise.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { combineVerdicts, type EvidenceRecord } from '../report/evidence.ts';
import { writeRunReport } from '../report/write-report.ts';
import type { Judgement } from '../core/judgement.ts';
import { COMMAND } from '../core/invocation.ts';
import { optionName } from '../core/params.ts';
import { loadOracle } from '../run/registry.ts';
import { UsageError } from '../core/errors.ts';
import { runOracle, type RunRequest } from '../run/run-oracle.ts';
import { WarmPool } from '../run/run-ahead.ts';
import { batchStorePool } from '../run/store-pool.ts';
import { defaultJobs, runPool, type Slots } from '../run/run-pool.ts';
import { cpuSlots, type CpuSlots } from '../run/cpu-slots.ts';
import {
  defaultSelect,
  pointFaultsAt,
  selfLandingFaultsOn,
  topologyBoundaries,
  type ExploreSpec,
} from '../oracle/explore-spec.ts';
import type { OracleDefinition } from '../oracle/definition.ts';
import type { ParamSpecs } from '../core/params.ts';
import { FAULTS_BY_KIND, topologyFaultsAt } from '../faults/registry.ts';
import { parseTopology } from '../stores/topology.ts';
import { Tracer } from '../oracle/tracer.ts';
import { tallyByFault, tallySentence } from '../oracle/fails-by-fault.ts';
import {
  boundaryLabel,
  pointLabel,
  type Boundary,
  type ExplorationRecord,
  type ExploredPoint,
  type ExplorePoint,
  type Schedule,
} from '../oracle/explore-point.ts';

export const DEFAULT_MAX_POINTS = 64;
/**
 * Explored points at once: at least --jobs, up to this many times it while the CPU has room
 * (src/run/cpu-slots.ts). A redlock `using()` point waits ~10 s of its own and costs ~0.6 CPU-s, so on
 * 2 cores the 64-point exploration used 16 at once and 28 % of the CPU at 8 per job (64.5 s);
 * at 16 per job it reached 32 (44–45 s) with the CPU a third busy; at 24 per job, 45 (39.9 s, 2.3 GB
 * of memory in use at the most; docs/benchmarks.md).
 */
export const MORE_POINTS_PER_JOB = 24;

/**
 * Points in flight per point whose holders are started ahead: a point plays ~3 s and its Node
 * holders take ~0.3–0.6 s to load, so at N in flight a point starts every 3/N s and about N/6
 * loads overlap; one per 4 keeps a start from waiting on a load, with a margin for a busy machine.
 */
export const WARM_AHEAD_PER = 4;

/**
 * Runs whose holders are started ahead while the trace plays, per job: the trace mostly waits (A's
 * job alone; 2.8–8.5 s for the 64-point V313 explorations) and no point can start before it ends,
 * so the first points' holders load then, on CPU the trace leaves idle, instead of during the climb
 * of the points in flight that follows, which each point's holder boots hold back.
 */
export const WARM_DURING_TRACE_PER_JOB = 4;

export interface ExploreRequest extends Omit<RunRequest, 'point' | 'play' | 'holders'> {
  /** Points beyond this many are not run (and are listed as skipped). */
  maxPoints?: number;
  /** Points in flight at once (default: the machine's cores). */
  jobs?: number;
  /**
   * Start no point after one FAILed (`--first-fail`). Points start in order (earliest boundary,
   * smallest fault first), so every point before the failing one still runs and the minimal
   * schedule is the same; the points not started are listed in the record. It keeps to `jobs` points
   * at once (none more while the CPU has room), so with `jobs: 1` no point after the failing one starts.
   */
  firstFail?: boolean;
  /** Slots shared with other explorations (the trace and every point take one); instead of `jobs`. */
  slots?: Slots;
  /** Every point starts its own server, none borrowed from the exploration's store pool (src/run/store-pool.ts). */
  freshStores?: boolean;
}

export interface ExploreResult {
  /** The run a reviewer looks at (the minimal failing point's, else the first point's), carrying the whole exploration. */
  record: EvidenceRecord;
  /** The minimal failing point as a replayable schedule. */
  schedule?: Schedule;
}

export async function explore(request: ExploreRequest): Promise<ExploreResult> {
  const began = performance.now();
  const cpuBefore = process.cpuUsage();
  const oracle = await loadOracle(request.oracle);
  const spec = oracle.explore;
  if (!spec)
    throw new UsageError(
      `${oracle.id} cannot be explored yet (\`${COMMAND} list --json\` says which oracles support --explore)`,
    );
  // On a topology of several nodes the points are its store faults (spec.topology), with its parameters.
  const topologyKind = request.topology === undefined ? 'single' : parseTopology(request.topology).kind;
  const onTopology = topologyKind === 'single' ? undefined : topologyKind;
  if (onTopology && !spec.topology)
    throw new UsageError(
      `${oracle.id} --explore explores one server; it has no store faults of --topology ${request.topology} to explore yet: run it without --explore, or without --topology`,
    );
  const given = request.params ?? {};
  for (const [name, value] of Object.entries(spec.params)) {
    if (given[name] !== undefined && String(given[name]) !== String(value)) {
      throw new UsageError(
        `${oracle.id} --explore runs every point with ${optionName(name)} ${value} (the flow that lands a point); drop ${optionName(name)} ${String(given[name])}`,
      );
    }
  }
  const params = { ...(onTopology ? spec.topology!.params(onTopology) : {}), ...given, ...spec.params };
  // Points mostly wait (TTLs, sleeps, held commands): at least --jobs at once, more while the CPU has
  // room; but --first-fail keeps to --jobs, since a point started beside a failing one cannot be unstarted.
  const floor = request.jobs ?? defaultJobs();
  const slots = request.slots ?? cpuSlots(floor, (request.firstFail ? 1 : MORE_POINTS_PER_JOB) * floor);
  // The trace's and the points' servers, reset between runs where a run leaves its server as found (src/run/store-pool.ts).
  const storePool = batchStorePool(request.freshStores);
  const base = {
    ...(storePool ? { storePool } : {}),
    oracle: oracle.id,
    target: request.target,
    params,
    ...(request.store ? { store: request.store } : {}),
    ...(request.runtime ? { runtime: request.runtime } : {}),
    ...(request.topology ? { topology: request.topology } : {}),
  };

  // The next points' holders are started ahead while the trace and the points before them play
  // (src/run/run-ahead.ts): one run ahead per WARM_AHEAD_PER points the CPU lets run at once, and
  // while the trace plays, WARM_DURING_TRACE_PER_JOB per job where the slots are this exploration's own.
  let tracing = !request.slots;
  const warm = new WarmPool(() =>
    warmRunsAhead({
      tracing,
      floor,
      level: 'level' in slots ? (slots as CpuSlots).level : undefined,
    }),
  );
  const traceOver = () => (tracing = false);
  try {
    return await explorePoints(request, oracle, spec, {
      base,
      params,
      slots,
      warm,
      traceOver,
      began,
      cpuBefore,
      onTopology,
    });
  } finally {
    await Promise.all([warm.close(), storePool?.close()]);
  }
}

/**
 * How many runs' holders an exploration keeps started ahead: one per WARM_AHEAD_PER points in
 * flight (`level`; one where the slots are not sized by the CPU), and while the trace plays on slots
 * of the exploration's own, WARM_DURING_TRACE_PER_JOB per job (`floor`).
 */
export function warmRunsAhead({
  tracing,
  floor,
  level,
}: {
  tracing: boolean;
  floor: number;
  level: number | undefined;
}) {
  const byLevel = level === undefined ? 1 : Math.ceil(level / WARM_AHEAD_PER);
  return Math.max(tracing ? WARM_DURING_TRACE_PER_JOB * floor : 0, byLevel);
}

interface Exploration {
  base: RunRequest;
  params: Record<string, unknown>;
  slots: Slots;
  warm: WarmPool;
  /** Called once the trace has ended: the pool keeps fewer runs ahead from then on. */
  traceOver: () => void;
  began: number;
  cpuBefore: NodeJS.CpuUsage;
  onTopology: string | undefined;
}

async function explorePoints(
  request: ExploreRequest,
  oracle: OracleDefinition<ParamSpecs>,
  spec: ExploreSpec,
  { base, params, slots, warm, traceOver, began, cpuBefore, onTopology }: Exploration,
): Promise<ExploreResult> {
  const progress = request.progress ?? (() => undefined);
  const need = { target: request.target, holders: oracle.holders };
  // As many as the pool keeps ahead, before the trace tells how many points there are: the trace plays while they load.
  const expectedBeforeTrace = warm.depth;
  warm.expect(need, expectedBeforeTrace);
  const kind = request.store ?? oracle.stores[0];
  const observer =
    kind === 'fs' ? 'its filesystem calls' : kind === 'cluster' ? "its node's links to the others" : 'its wire proxy';
  progress(`tracing A's ${[...(spec.also ?? []), spec.part].join(' and ')} alone, through ${observer}`);
  const tracer = new Tracer();
  const traced = await slots(() =>
    runOracle({
      ...base,
      holders: ['A'],
      onHoldersReady: () => warm.fill(),
      progress: () => undefined,
      play: async (s, p) => traceJudgement(await spec.trace(s, tracer, p as never), tracer),
    }),
  );
  traceOver();
  const traceMs = traced.timing.wallMs;
  const parts = [...(spec.also ?? []), spec.part];
  const inPart = tracer.boundaries.filter((b) => parts.includes(b.part));
  const partText = parts.filter((part) => part === spec.part || inPart.some((b) => b.part === part)).join(' and ');
  const select = onTopology
    ? (b: readonly Boundary[]) => topologyBoundaries(spec.topology!.faults, spec.select ? spec.select(b) : b)
    : (spec.select ?? defaultSelect);
  const storeKind = traced.store?.kind ?? request.store ?? oracle.stores[0]!;
  // The faults that land themselves go where the spec's moment puts them (selectLanding), else where its own go.
  const landing = new Set(onTopology ? [] : selfLandingFaultsOn(spec, storeKind));
  const ownAt = new Set(traced.verdict === 'ERROR' ? [] : select(inPart));
  const landingAt = new Set(traced.verdict === 'ERROR' || !landing.size ? [] : (spec.selectLanding ?? select)(inPart));
  const chosen = inPart.filter((b) => ownAt.has(b) || landingAt.has(b));
  const faultsAt = (boundary: Boundary) =>
    onTopology
      ? topologyFaultsAt(spec.topology!.faults, onTopology, boundary)
      : pointFaultsAt(spec, boundary, storeKind).filter((f) => (landing.has(f) ? landingAt : ownAt).has(boundary));
  const all: ExplorePoint[] = chosen.flatMap((boundary) =>
    faultsAt(boundary)
      .filter((f) => FAULTS_BY_KIND[boundary.kind].includes(f))
      .flatMap((fault) =>
        combinations(onTopology ? {} : (spec.dimensions?.(storeKind, boundary) ?? {})).map((schedule) => ({
          boundary,
          fault,
          ...(Object.keys(schedule).length ? { schedule } : {}),
        })),
      ),
  );
  if (!onTopology) all.push(...contenderPoints(spec, params, traced.verdict === 'ERROR' ? [] : tracer.boundaries));
  const maxPoints = request.maxPoints ?? DEFAULT_MAX_POINTS;
  const points = all.slice(0, maxPoints);
  const skipped = all.slice(maxPoints).map(pointLabel);
  warm.expect(need, points.length - expectedBeforeTrace);
  progress(
    `A's ${partText}: ${inPart.map(boundaryLabel).join(', ') || 'nothing'}; ${points.length} point(s)${skipped.length ? `, ${skipped.length} skipped (--max-points ${maxPoints})` : ''}, ${atOnce(slots)} at a time`,
  );

  let done = 0;
  let failedAt = Infinity;
  // Every point asks for a slot at once, in order; the slots start them first come, first served.
  const ran = await runPool(points, Math.max(1, points.length), (point, index) =>
    slots(async () => {
      if (request.firstFail && index > failedAt) return undefined;
      const prepared = await warm.take(need);
      const record = await runOracle({
        ...base,
        params: { ...params, ...point.schedule },
        point,
        ...(prepared ? { prepared } : {}),
        onHoldersReady: () => warm.fill(),
        progress: () => undefined,
      });
      if (record.verdict === 'FAIL') failedAt = Math.min(failedAt, index);
      progress(`point ${++done}/${points.length} ${pointLabel(point)}: ${record.verdict}`);
      return { point, record };
    }),
  );
  // A point INCONCLUSIVE among others may have been starved (its window closed while it waited for
  // a core): played again alone, the alone run counts and the crowded one is kept (as run-batch does).
  const crowded = (r: { record: EvidenceRecord }) =>
    r.record.verdict === 'INCONCLUSIVE' && r.record.notApplicable === undefined && (peakOf(slots) ?? slots.size) > 1;
  const crowdedWhy = new Map<string, string>();
  if (!ran.some((r) => r?.record.verdict === 'FAIL'))
    for (const [index, first] of ran.entries()) {
      if (!first || !crowded(first)) continue;
      progress(`point ${pointLabel(first.point)} was INCONCLUSIVE among others: played again alone`);
      const alone = await slots(() =>
        runOracle({
          ...base,
          params: { ...params, ...first.point.schedule },
          point: first.point,
          progress: () => undefined,
        }),
      );
      crowdedWhy.set(alone.runId, `${first.record.verdict} among other points: ${reasonOf(first.record)}`);
      ran[index] = {
        point: first.point,
        record: {
          ...alone,
          crowdedAttempt: {
            verdict: first.record.verdict,
            explanation: first.record.explanation,
            jobs: peakOf(slots) ?? slots.size,
          },
        },
      };
    }
  const runs = ran.filter((r) => r !== undefined);
  const notStarted = points.filter((_, i) => ran[i] === undefined).map(pointLabel);

  const explored: ExploredPoint[] = runs.map(({ point, record }) => ({
    label: pointLabel(point),
    boundary: point.boundary,
    fault: point.fault,
    ...(point.schedule ? { schedule: point.schedule } : {}),
    ...(point.holder ? { holder: point.holder } : {}),
    command: point.boundary.text,
    verdict: record.verdict,
    reason: reasonOf(record),
    ...(record.notApplicable ? { notApplicable: record.notApplicable } : {}),
    ...(crowdedWhy.has(record.runId) ? { crowded: crowdedWhy.get(record.runId)! } : {}),
    wallMs: record.timing.wallMs,
    runId: record.runId,
  }));
  // A point the run showed cannot apply (its fault cannot land there) is left out of the verdict.
  const applicable = runs.filter((r) => r.record.notApplicable === undefined);
  const verdict =
    traced.verdict === 'ERROR'
      ? 'ERROR'
      : applicable.length
        ? combineVerdicts(applicable.map((r) => r.record.verdict))
        : 'INCONCLUSIVE';
  // Points run in boundary order, smallest fault first: the first failing one is the minimal schedule.
  const minimal = runs.find((r) => r.record.verdict === 'FAIL');
  const shown = minimal ?? runs.find((r) => r.record.verdict === verdict) ?? runs[0];
  const exploration: ExplorationRecord = {
    trace: tracer.boundaries,
    boundaries: new Set(points.map((p) => p.boundary)).size,
    faults:
      spec.faultsAt || onTopology || selfLandingFaultsOn(spec, storeKind).length
        ? [...new Set(points.map((p) => p.fault))]
        : [...spec.faults],
    points: explored,
    ...(runs.length > applicable.length ? { notApplicable: runs.length - applicable.length } : {}),
    skipped,
    ...(notStarted.length ? { notStarted } : {}),
    verdict,
    summary: '',
    ...(minimal ? { minimal: pointLabel(minimal.point), failsByFault: tallyByFault(explored) } : {}),
    jobs: peakOf(slots) ?? slots.size,
    traceMs,
    wallMs: Math.round(performance.now() - began),
    harnessCpuMs: cpuMsSince(cpuBefore),
  };
  exploration.summary = summarize(exploration, partText, traced, minimal?.record, inPart);
  const record: EvidenceRecord = {
    ...(shown?.record ?? traced),
    verdict,
    explanation: exploration.summary,
    exploration,
  };
  const schedule: Schedule | undefined = minimal && {
    schemaVersion: 1,
    oracle: oracle.id,
    target: minimal.record.target.path,
    store: minimal.record.store?.kind ?? request.store ?? oracle.stores[0]!,
    ...(request.topology ? { topology: request.topology } : {}),
    params: minimal.record.params,
    holder: minimal.point.holder ?? 'A',
    boundary: minimal.point.boundary,
    fault: minimal.point.fault,
    command: minimal.point.boundary.text,
    verdict: minimal.record.verdict,
  };
  return { record, ...(schedule ? { schedule } : {}) };
}

/** The explored run's report (the shown point's run, carrying the exploration) and, when a point failed, its schedule.json; returns the directory. */
export function writeExploreReport(result: ExploreResult, reportDir: string): string {
  const dir = writeRunReport(result.record, reportDir);
  if (result.schedule) writeFileSync(join(dir, 'schedule.json'), `${JSON.stringify(result.schedule, null, 2)}\n`);
  return dir;
}

/** The points at a contender's own boundaries (ExploreSpec.contenders), when they apply to these parameters. */
function contenderPoints(spec: ExploreSpec, params: Record<string, unknown>, traced: readonly Boundary[]) {
  const contender = spec.contenders;
  if (!contender?.applies(params as never)) return [];
  const boundaries = defaultSelect(traced.filter((b) => b.part === contender.part));
  return boundaries.flatMap((boundary) =>
    contender.faults
      .filter((f) => FAULTS_BY_KIND[boundary.kind].includes(f))
      .map((fault): ExplorePoint => ({ boundary, fault, holder: contender.holder })),
  );
}

function cpuMsSince(before: NodeJS.CpuUsage): number {
  const { user, system } = process.cpuUsage(before);
  return Math.round((user + system) / 1000);
}

/** The most points that ran at once, when the slots grow with the free CPU. */
function peakOf(slots: Slots): number | undefined {
  return 'peak' in slots ? (slots as CpuSlots).peak : undefined;
}

function atOnce(slots: Slots): string {
  return 'floor' in slots
    ? `${(slots as CpuSlots).floor}–${slots.size} (more while the CPU has room)`
    : String(slots.size);
}

/** Every combination of the dimensions' values ([{}] when there are none). */
function combinations(dimensions: Record<string, readonly string[]>): Array<Record<string, string>> {
  return Object.entries(dimensions).reduce<Array<Record<string, string>>>(
    (acc, [name, values]) => acc.flatMap((c) => values.map((v) => ({ ...c, [name]: v }))),
    [{}],
  );
}

/** The trace is not judged; it only has to have run. */
function traceJudgement(_: void, tracer: Tracer): Judgement {
  return {
    preconditions: [
      { name: "A's part ran alone", held: true, detail: `${tracer.boundaries.length} boundaries recorded` },
    ],
    property: { name: 'trace', held: true, detail: 'not judged', offending: [] },
    counts: { boundaries: tracer.boundaries.length },
    explanation: "A's part ran alone, traced.",
  };
}

/** One sentence: why this point got its verdict. */
function reasonOf(record: EvidenceRecord): string {
  if (record.notApplicable) return `not applicable: ${record.notApplicable}`;
  if (record.verdict === 'INCONCLUSIVE')
    return record.preconditions
      .filter((c) => !c.held)
      .map((c) => `${c.name}: no — ${c.detail}`)
      .join('; ');
  if (record.verdict === 'ERROR') return errorInOneLine(record.explanation);
  return record.property?.detail ?? record.explanation;
}

/** An ERROR's first line, and the thrown error's own line when the first only introduces it ("… threw:"). */
function errorInOneLine(explanation: string): string {
  const [first = '', ...rest] = explanation.split('\n').map((line) => line.trim());
  if (!first.endsWith(':')) return first;
  const thrown = rest.find((line) => /^([\w.]*(Error|Exception)\b|E[A-Z]{3,}\b)/.test(line));
  return thrown ? `${first} ${thrown}` : first;
}

function summarize(
  x: ExplorationRecord,
  part: string,
  traced: EvidenceRecord,
  minimal: EvidenceRecord | undefined,
  inPart: readonly Boundary[],
): string {
  const n = x.points.length;
  const plural = (k: number, word: string) => `${k} ${word}${k === 1 ? '' : 's'}`;
  const others = new Set(x.points.map((p) => JSON.stringify(p.schedule ?? {}))).size;
  const bs = `${x.boundaries} ${x.boundaries === 1 ? 'boundary' : 'boundaries'}`;
  const shape =
    (n === x.boundaries * x.faults.length * others
      ? `${bs} × ${plural(x.faults.length, 'fault')}`
      : `${bs}, each with the faults that apply to it`) +
    (others > 1 ? ` × ${others} schedules of the other holders` : '');
  const schedules = plural(n, 'schedule');
  const skipped =
    (x.skipped.length
      ? ` ${x.skipped.length} point(s) beyond --max-points were not run: ${x.skipped.join('; ')}.`
      : '') +
    (x.notStarted?.length
      ? ` ${x.notStarted.length} later point(s) were not started once one had failed (--first-fail): ${x.notStarted.join('; ')}.`
      : '');
  if (x.verdict === 'ERROR' && traced.verdict === 'ERROR')
    return `Tracing A's ${part} alone broke, so nothing was explored: ${traced.explanation}`;
  if (n === 0) {
    return (
      `Nothing to explore: when A ran alone its ${part} sent no store command on the lock key, reached no seam and made no write ` +
      `(${inPart.length ? `it sent only ${inPart.map((b) => b.text).join(', ')}` : x.trace.length ? `A did only this outside it: ${x.trace.map(boundaryLabel).join(', ')}` : 'nothing at all was seen'}), so no fault can land in it and nothing was proven.`
    );
  }
  const left = x.points.filter((p) => p.notApplicable !== undefined);
  const leftOut = left.length
    ? ` ${left.length} point(s) were left out as not applicable: ${left.map((p) => `${p.label} (${p.notApplicable})`).join('; ')}.`
    : '';
  const judged = n - left.length;
  if (judged === 0)
    return `No point could apply: each one's run showed its fault cannot land there, so nothing was proven.${leftOut}${skipped}`;
  const fails = x.points.filter((p) => p.verdict === 'FAIL');
  if (x.verdict === 'FAIL') {
    const others = fails.slice(1).map((p) => p.label);
    return (
      `${fails.length} of ${schedules} (${shape}) FAIL. The minimal one — ${x.minimal}: ${minimal!.explanation}` +
      (others.length ? ` Other failing schedules: ${others.join('; ')}.` : '') +
      ` ${tallySentence(x.failsByFault!)}` +
      leftOut +
      skipped
    );
  }
  if (x.verdict === 'PASS')
    return left.length
      ? `No violation in ${plural(judged, 'schedule')} (${shape} of A's ${part}${onContenders(x)}, ${left.length} of ${n} left out as not applicable); every fault that could land there landed and the property held at each.${leftOut}${skipped}`
      : `No violation in ${schedules} (${shape} of A's ${part}${onContenders(x)}); every fault landed and the property held at each.${skipped}`;
  const notPass = x.points.filter((p) => p.verdict !== 'PASS' && p.notApplicable === undefined);
  return (
    `${notPass.length} of ${schedules} (${shape}) gave no answer (${notPass.map((p) => `${p.label}: ${p.verdict}`).join('; ')}); ` +
    `the first: ${notPass[0]!.reason}. No schedule failed, but a PASS needs every fault that can land to land, so nothing is proven.${leftOut}${skipped}`
  );
}

/** ", and B's takeover": the parts of contenders the points also landed in. */
function onContenders(x: ExplorationRecord): string {
  const parts = new Set(x.points.filter((p) => p.holder).map((p) => `${p.holder}'s ${p.boundary.part}`));
  return [...parts].map((part) => ` and ${part}`).join('');
}
