/**
 * The harness checking itself: the reference matrix (src/run/reference-matrix.ts), every oracle's
 * mutations (a good reference with its guard removed, which must FAIL) and the hostile fixtures
 * (src/selfcheck/hostile.ts), each run N times with the verdict it must get; then what the runs
 * left on the machine. Optionally under CPU contention the harness makes itself (--stress).
 *
 * How a row counts: the expected verdict is right (a PASS or FAIL also needs its evidence: the
 * fault recorded, offending events for a FAIL); a PASS or FAIL that was not expected is wrong;
 * INCONCLUSIVE is allowed (nothing was claimed) and counted; ERROR or INTERRUPTED is counted as an
 * error. Wrong rows and leftovers make the selfcheck fail.
 */
import type { EvidenceRecord } from '../report/evidence.ts';
import { writeRunReport } from '../report/write-report.ts';
import type { OracleDefinition } from '../oracle/definition.ts';
import type { Verdict } from '../core/judgement.ts';
import type { ParamSpecs } from '../core/params.ts';
import { loadAllOracles } from '../run/registry.ts';
import { UsageError } from '../core/errors.ts';
import { referenceMatrix } from '../run/reference-matrix.ts';
import { checkReference } from '../run/references.ts';
import { runBatch } from '../run/run-batch.ts';
import { runOracle } from '../run/run-oracle.ts';
import { batchStorePool } from '../run/store-pool.ts';
import type { StoreKind } from '../stores/types.ts';
import { HOSTILE_CASES } from './hostile.ts';
import { watchLeftovers, type LeftoverWatch } from './leftovers.ts';
import { writeMutant } from './mutants.ts';
import { sampleLoad, startStress } from './stress.ts';

export type CaseKind = 'reference' | 'mutation' | 'hostile' | 'declared';

export interface SelfcheckCase {
  kind: CaseKind;
  oracle: string;
  /** What is reported (for a mutation: the good target it was made from, with `guard`). */
  target: string;
  /** What runs (for a mutation: the generated mutant). */
  runs?: string;
  params: Record<string, string | number>;
  store: StoreKind;
  /** --topology, when the case runs on several nodes. */
  topology?: string;
  expect: Verdict;
  deadlineMs?: number;
  /** A mutation: the guard removed. */
  guard?: string;
}

export type Outcome = 'right' | 'wrong' | 'inconclusive' | 'error';

export interface SelfcheckRow {
  kind: CaseKind;
  oracle: string;
  target: string;
  guard?: string;
  params: Record<string, string | number>;
  store: StoreKind;
  run: number;
  expected: Verdict;
  observed: Verdict;
  outcome: Outcome;
  /** Why a row is wrong (or the explanation of an unexpected verdict). */
  problems: string[];
  wallMs: number;
  playedAgainAlone?: boolean;
  /** Where this row's evidence was written (wrong and ERROR rows; INCONCLUSIVE ones too under --report-dir). */
  evidence?: string;
}

export interface SelfcheckReport {
  matrix: SelfcheckRow[];
  right: number;
  wrong: number;
  inconclusive: number;
  errors: number;
  leftovers: string[];
  runs: number;
  jobs: number;
  /** Busy processes the harness ran for the duration (0 without --stress). */
  stressWorkers: number;
  load: { max: number; mean: number };
  wallMs: number;
}

/** Every case of the oracles named (default all): references, mutations, hostile fixtures. */
export async function selfcheckCases(only?: readonly string[]): Promise<SelfcheckCase[]> {
  const wanted = only?.map((id) => id.toUpperCase());
  const oracles = (await loadAllOracles()).filter((o) => !wanted || wanted.includes(o.id));
  if (wanted)
    for (const id of wanted) if (!oracles.some((o) => o.id === id)) throw new UsageError(`selfcheck: no oracle ${id}`);
  const byId = new Map(oracles.map((o) => [o.id, o]));
  const references = referenceMatrix(oracles).map((entry): SelfcheckCase => ({
    kind: 'reference',
    oracle: entry.oracle.id,
    target: entry.reference.target,
    params: entry.reference.params ?? {},
    store: entry.store,
    ...(entry.reference.topology ? { topology: entry.reference.topology } : {}),
    expect: entry.reference.expect,
  }));
  const mutations = oracles.flatMap((oracle) =>
    (oracle.mutations ?? []).map((m): SelfcheckCase => {
      let runs: string;
      try {
        runs = writeMutant(m);
      } catch (error) {
        throw new UsageError(`${oracle.id}: ${(error as Error).message}`);
      }
      return {
        kind: 'mutation',
        oracle: oracle.id,
        target: m.of,
        runs,
        guard: m.guard,
        params: m.params ?? {},
        store: m.store ?? oracle.stores[0]!,
        ...(m.topology ? { topology: m.topology } : {}),
        expect: 'FAIL',
      };
    }),
  );
  const hostile = HOSTILE_CASES.filter((h) => byId.has(h.oracle)).map((h): SelfcheckCase => ({
    kind: 'hostile',
    oracle: h.oracle,
    target: h.target,
    params: h.params ?? {},
    store: h.store ?? byId.get(h.oracle)!.stores[0]!,
    expect: h.expect,
    ...(h.deadlineMs ? { deadlineMs: h.deadlineMs } : {}),
  }));
  return [...references, ...mutations, ...hostile];
}

/** Cases declared in a file: `[{ oracle, target, expect, params?, store?, deadlineMs? }]`. */
export async function declaredCases(declared: unknown): Promise<SelfcheckCase[]> {
  if (!Array.isArray(declared) || declared.length === 0)
    throw new UsageError('--cases: give a JSON array of { "oracle", "target", "expect", "params"?, "store"? }');
  const oracles = new Map((await loadAllOracles()).map((o) => [o.id, o] as [string, OracleDefinition<ParamSpecs>]));
  return declared.map((raw, i) => {
    const c = raw as Partial<SelfcheckCase> & { oracle?: string };
    const oracle = oracles.get(String(c.oracle).toUpperCase());
    const verdicts: Verdict[] = ['PASS', 'FAIL', 'INCONCLUSIVE', 'ERROR'];
    if (!oracle || typeof c.target !== 'string' || !verdicts.includes(c.expect as Verdict)) {
      throw new UsageError(
        `--cases: entry ${i + 1} needs "oracle" (one of ${[...oracles.keys()].join(', ')}), "target" and "expect" (${verdicts.join(', ')})`,
      );
    }
    return {
      kind: 'declared',
      oracle: oracle.id,
      target: c.target,
      params: c.params ?? {},
      store: c.store ?? oracle.stores[0]!,
      expect: c.expect!,
      ...(c.deadlineMs ? { deadlineMs: c.deadlineMs } : {}),
    };
  });
}

export function classify(c: SelfcheckCase, record: EvidenceRecord): { outcome: Outcome; problems: string[] } {
  const observed = record.verdict;
  if (observed === c.expect) {
    // A right PASS or FAIL is only as good as its evidence (the fault recorded, offending events...).
    const problems =
      observed === 'PASS' || observed === 'FAIL'
        ? checkReference({ target: c.target, expect: observed }, c.store, record)
        : [];
    return { outcome: problems.length ? 'wrong' : 'right', problems };
  }
  const why = [
    `${observed}, expected ${c.expect}: ${record.explanation.split('\n')[0]}${record.error ? ` (${record.error.split('\n')[0]})` : ''}`,
  ];
  if (observed === 'PASS' || observed === 'FAIL') return { outcome: 'wrong', problems: why };
  return { outcome: observed === 'INCONCLUSIVE' ? 'inconclusive' : 'error', problems: why };
}

export interface SelfcheckOptions {
  runs: number;
  jobs: number;
  stress: boolean;
  stop?: AbortSignal;
  progress?: (message: string) => void;
  onRow?: (row: SelfcheckRow) => void;
  /**
   * Keep the evidence of every wrong and ERROR row (and, with `inconclusive`, every INCONCLUSIVE
   * one), written as soon as the row is final, so an interrupted selfcheck keeps what it saw.
   * `dir()` is asked once, for the first row kept. Absent: keep nothing.
   */
  keep?: { dir: () => string; inconclusive: boolean };
}

export async function runSelfcheck(
  cases: readonly SelfcheckCase[],
  options: SelfcheckOptions,
): Promise<SelfcheckReport> {
  const began = performance.now();
  const items = Array.from({ length: options.runs }, (_, run) => cases.map((c) => ({ c, run: run + 1 }))).flat();
  const stress = options.stress ? startStress() : undefined;
  const watch = watchLeftovers(() => stress?.pids ?? new Set());
  const load = sampleLoad();
  const kept = new Map<EvidenceRecord, string>();
  let keepDir: string | undefined;
  const keep = (item: (typeof items)[number], record: EvidenceRecord) => {
    const { outcome } = classify(item.c, record);
    const wanted =
      outcome === 'wrong' || outcome === 'error' || (outcome === 'inconclusive' && options.keep?.inconclusive);
    if (!options.keep || !wanted) return;
    keepDir ??= options.keep.dir();
    kept.set(record, writeRunReport(record, keepDir));
  };
  const row = (item: (typeof items)[number], record: EvidenceRecord): SelfcheckRow => ({
    kind: item.c.kind,
    oracle: item.c.oracle,
    target: item.c.target,
    ...(item.c.guard ? { guard: item.c.guard } : {}),
    params: item.c.params,
    store: item.c.store,
    run: item.run,
    expected: item.c.expect,
    observed: record.verdict,
    ...classify(item.c, record),
    wallMs: Math.round(record.timing.wallMs),
    ...(record.crowdedAttempt ? { playedAgainAlone: true } : {}),
    ...(kept.has(record) ? { evidence: kept.get(record)! } : {}),
  });
  let records: EvidenceRecord[];
  // Servers started once for the whole check where a run leaves them as found (src/run/store-pool.ts).
  const storePool = batchStorePool();
  try {
    records = await runBatch(
      items,
      {
        jobs: options.jobs,
        onReplay: (index, crowded) =>
          options.progress?.(
            `${label(items[index]!.c)}: ${crowded.verdict}${crowded.stoppedBy === 'deadline' ? ' (past its deadline)' : ''} among parallel runs; playing it again alone`,
          ),
        // A hang fixture must end at its own deadline: that ERROR is the verdict asked for, not starvation.
        noReplay: (index, crowded) =>
          items[index]!.c.deadlineMs !== undefined &&
          crowded.stoppedBy === 'deadline' &&
          items[index]!.c.expect === 'ERROR',
        onFinal: (index, record) => {
          keep(items[index]!, record);
          options.onRow?.(row(items[index]!, record));
        },
      },
      ({ c }) =>
        runOracle({
          oracle: c.oracle,
          target: c.runs ?? c.target,
          params: c.params,
          store: c.store,
          ...(c.topology ? { topology: c.topology } : {}),
          ...(c.deadlineMs ? { deadlineMs: c.deadlineMs } : {}),
          ...(options.stop ? { stop: options.stop } : {}),
          ...(storePool ? { storePool } : {}),
        }),
    );
  } finally {
    await storePool?.close();
    await stress?.stop();
    watch.stop();
  }
  const matrix = records.map((record, i) => row(items[i]!, record));
  const count = (outcome: Outcome) => matrix.filter((r) => r.outcome === outcome).length;
  return {
    matrix,
    right: count('right'),
    wrong: count('wrong'),
    inconclusive: count('inconclusive'),
    errors: count('error'),
    leftovers: await leftoversAfterGrace(watch),
    runs: options.runs,
    jobs: options.jobs,
    stressWorkers: stress?.pids.size ?? 0,
    load: load.stop(),
    wallMs: Math.round(performance.now() - began),
  };
}

/** A process killed at a run's end may take a moment to be gone: what is still there 2 s later is left behind. */
async function leftoversAfterGrace(watch: LeftoverWatch): Promise<string[]> {
  if (!(await watch.leftovers()).length) return [];
  await new Promise((resolve) => setTimeout(resolve, 2000));
  return watch.leftovers();
}

export function label(c: Pick<SelfcheckCase, 'kind' | 'oracle' | 'target' | 'params' | 'store' | 'guard'>): string {
  const params = Object.entries(c.params)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
  return `${c.oracle} ${c.kind} ${c.target}${c.guard ? ` without ${c.guard}` : ''}${params ? ` {${params}}` : ''} on ${c.store}`;
}
