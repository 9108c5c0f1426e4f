/**
 * Runs the reference matrix (src/run/reference-matrix.ts: every `references[]` entry of every oracle,
 * Redis ones on Valkey too) against real stores, each checked against its expected verdict and
 * the evidence a verdict needs, played longest first (src/run/reference-order.ts), on servers of one
 * batch pool where a run leaves its server as found (src/run/store-pool.ts). One runner for the
 * CLI (`lock-oracles references`), the test suite (test/reference-targets.test.ts) and CI.
 */
import type { EvidenceRecord } from '../report/evidence.ts';
import type { ReferenceRun } from '../oracle/reference-run.ts';
import { loadAllOracles } from './registry.ts';
import { referenceMatrix, type MatrixEntry } from './reference-matrix.ts';
import { knownWalls, longestFirst, rememberWalls } from './reference-order.ts';
import type { RuntimeChoice } from '../families/start-store.ts';
import type { StoreKind } from '../stores/types.ts';
import { runBatch } from './run-batch.ts';
import { runOracle } from './run-oracle.ts';
import { batchStorePool } from './store-pool.ts';

export interface ReferenceOutcome extends MatrixEntry {
  record: EvidenceRecord;
  /** Empty when the verdict and its evidence are what the reference expects. */
  problems: string[];
}

/** What is wrong with a reference run's record (nothing when it is right). */
export function checkReference(
  reference: ReferenceRun,
  store: StoreKind,
  record: EvidenceRecord,
  runtime: RuntimeChoice = 'auto',
): string[] {
  const problems: string[] = [];
  if (record.verdict !== reference.expect)
    problems.push(
      `verdict ${record.verdict}, expected ${reference.expect}: ${record.explanation}${record.error ? `\n${record.error}` : ''}`,
    );
  // A verdict is only as good as its evidence: every precondition held and was recorded.
  if (record.preconditions.length === 0) problems.push('no precondition was recorded');
  const unmet = record.preconditions.filter((c) => !c.held);
  if (unmet.length) problems.push(`preconditions not held: ${unmet.map((c) => `${c.name} (${c.detail})`).join('; ')}`);
  if (record.faults.length === 0) problems.push('no fault was recorded');
  if (!record.store?.version) problems.push('the evidence does not name the server version');
  else if (record.store.kind !== store) problems.push(`ran on ${record.store.kind}, not on ${store}`);
  const wantedRuntime = { container: 'container', local: 'local-process', auto: undefined }[runtime];
  if (wantedRuntime && record.store && record.store.runtime !== wantedRuntime)
    problems.push(`ran as ${record.store.runtime}, not as ${wantedRuntime}`);
  if (reference.expect === 'FAIL' && !record.property?.offending.length)
    problems.push('a FAIL without offending events');
  return problems;
}

export interface MatrixOptions {
  jobs: number;
  /** More runs at once, up to this many, while the CPU has room (runBatch's `upTo`); `jobs` is then the floor. */
  upTo?: number;
  /** Where the stores run (default: auto, local processes when installed). */
  runtime?: RuntimeChoice;
  progress?: (message: string) => void;
  /** Told as soon as one case's outcome is final. */
  onOutcome?: (index: number, outcome: ReferenceOutcome) => void;
}

export async function runReferences(
  cases: readonly MatrixEntry[],
  options: MatrixOptions,
): Promise<ReferenceOutcome[]> {
  const outcome = (index: number, record: EvidenceRecord): ReferenceOutcome => {
    const entry = cases[index]!;
    return { ...entry, record, problems: checkReference(entry.reference, entry.store, record, options.runtime) };
  };
  // Played longest first (src/run/reference-order.ts); `order[k]` is the case the k-th run plays.
  const order = longestFirst(cases, knownWalls());
  // Servers started once for the matrix where a run leaves them as found (src/run/store-pool.ts).
  const storePool = batchStorePool();
  const records = await runBatch(
    order.map((index) => cases[index]!),
    {
      jobs: options.jobs,
      ...(options.upTo ? { upTo: options.upTo } : {}),
      onReplay: (k, crowded) =>
        options.progress?.(
          `${cases[order[k]!]!.oracle.id} ${cases[order[k]!]!.name}: ${crowded.verdict} among parallel runs; playing it again alone`,
        ),
      onFinal: (k, record) => options.onOutcome?.(order[k]!, outcome(order[k]!, record)),
    },
    (entry) =>
      runOracle({
        oracle: entry.oracle.id,
        target: entry.reference.target,
        ...(entry.reference.params ? { params: entry.reference.params } : {}),
        store: entry.store,
        ...(entry.reference.topology ? { topology: entry.reference.topology } : {}),
        ...(options.runtime ? { runtime: options.runtime } : {}),
        ...(storePool ? { storePool } : {}),
      }),
  ).finally(() => storePool?.close());
  const byCase: EvidenceRecord[] = [];
  records.forEach((record, k) => (byCase[order[k]!] = record));
  rememberWalls(byCase.map((record, index) => ({ entry: cases[index]!, wallMs: record.timing.wallMs })));
  return byCase.map((record, index) => outcome(index, record));
}

/** The matrix of the oracles named (default all). */
export async function referenceCases(only?: string[]): Promise<MatrixEntry[]> {
  const wanted = only?.map((id) => id.toUpperCase());
  return referenceMatrix((await loadAllOracles()).filter((o) => !wanted || wanted.includes(o.id)));
}
