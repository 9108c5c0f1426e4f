/**
 * `npm run oracle -- <ID> --target <path> [options] [--<param> <value> ...]`: one oracle against a
 * target, N times (--runs) up to J at once (--jobs), or explored (--explore, commands/explore.ts).
 * Each run's evidence is written as soon as it finishes; the verdict line and its exit code last.
 */
import { colourVerdict, progressPrinter } from '../../run/progress.ts';
import { exitCodeFor, expectationLine } from '../exit-codes.ts';
import { loadOracle } from '../../run/registry.ts';
import { UsageError } from '../../core/errors.ts';
import { optionName, type ParamSpecs } from '../../core/params.ts';
import { runOracle } from '../../run/run-oracle.ts';
import { combineRuns, type EvidenceRecord } from '../../report/evidence.ts';
import { writeMultiRunReport, writeRunReport } from '../../report/write-report.ts';
import { interruptExitCode, interruption, onInterrupt } from '../../process/cleanup.ts';
import { runBatch } from '../../run/run-batch.ts';
import { WarmPool } from '../../run/run-ahead.ts';
import { batchStorePool } from '../../run/store-pool.ts';
import { firstLine } from '../../core/judgement.ts';
import type { StoreKind } from '../../stores/types.ts';
import type { OracleDefinition } from '../../oracle/definition.ts';
import { didYouMean } from '../options/nearest.ts';
import { optionsOf } from '../options/parse.ts';
import type { Values } from '../options/values.ts';
import { writableReportDir } from './report-dir.ts';
import { withFaultOption } from './fault-option.ts';

export async function runCommand(id: string, values: Values<'run'>, given: Record<string, string>): Promise<number> {
  const oracle = await loadOracle(id);
  const params = withFaultOption(oracle, given, values.explore === true);
  refuseUnknownOptions(oracle, Object.keys(params));
  // Read where a holder starts (src/holder/holder-language.ts), for every run of this process.
  if (values.lang) process.env.LOCK_ORACLES_LANG = values.lang;
  if (values.python) process.env.LOCK_ORACLES_PYTHON = values.python;
  if (!values.target)
    throw new UsageError(
      `${oracle.id}: --target <path> is required (e.g. --target ${oracle.references[0]?.target ?? 'targets/...'})`,
    );
  const target = values.target;
  // Read where a Java target's holders are compiled (src/build/java-holder.ts), for every run of this process.
  if (values.classpath) process.env.LOCK_ORACLES_CLASSPATH = values.classpath;
  const { runs, jobs, expect } = values;
  const progress = progressPrinter(!values.quiet);
  const reportDir = values['no-report'] ? undefined : writableReportDir(values['report-dir']);
  if (values.explore) {
    if (runs > 1)
      throw new UsageError(
        '--explore runs every point once; --runs repeats one schedule (replay a found schedule with --runs instead)',
      );
    return (await import('./explore.ts')).exploreCommand(oracle.id, target, values, params);
  }

  // SIGINT/SIGTERM: the runs in progress stop everything and return INTERRUPTED records.
  const stop = new AbortController();
  onInterrupt((signal) => stop.abort(signal));
  const dirs = new Map<number, string>();
  const unwritten: string[] = [];
  const save = (write: () => string) => {
    try {
      return write();
    } catch (error) {
      unwritten.push((error as Error).message);
      return undefined;
    }
  };
  const runIndexes = Array.from({ length: runs }, (_, i) => i);
  const onReplay = (index: number, crowded: EvidenceRecord) =>
    progress(
      `run ${index + 1}/${runs} was INCONCLUSIVE among ${Math.min(jobs, runs)} parallel runs (${firstLine(crowded.explanation)}); playing it again alone`,
    );
  // The next runs' holders load while a run plays (src/run/run-ahead.ts).
  const need = { target, holders: oracle.holders };
  const ahead = runs > 1 ? new WarmPool(1) : undefined;
  ahead?.expect(need, runs);
  // The runs' servers, reset between runs where a run leaves its server as found (src/run/store-pool.ts).
  const storePool = runs > 1 ? batchStorePool() : undefined;
  const records = await runBatch(runIndexes, { jobs, onReplay }, async (index) => {
    const tag = runs > 1 ? `run ${index + 1}/${runs}: ` : '';
    const prepared = await ahead?.take(need);
    const record = await runOracle({
      ...(prepared ? { prepared } : {}),
      ...(storePool ? { storePool } : {}),
      ...(ahead ? { onHoldersReady: () => ahead.fill() } : {}),
      oracle: oracle.id,
      target,
      params,
      ...(values.store ? { store: values.store as StoreKind } : {}),
      runtime: values.runtime,
      ...(values.topology ? { topology: values.topology } : {}),
      progress: (message) => progress(`${tag}${message}`),
      ...(values.deadline ? { deadlineMs: values.deadline } : {}),
      stop: stop.signal,
    });
    // Each run's evidence is written as soon as it finishes: an interrupted batch keeps what it did.
    const dir = reportDir ? save(() => writeRunReport(record, reportDir)) : undefined;
    if (dir) dirs.set(index, dir);
    progress(
      `${tag}${record.oracle.id} ${colourVerdict(record.verdict)} — ${record.property?.detail ?? firstLine(record.explanation)}`,
    );
    return record;
  }).finally(() => Promise.all([ahead?.close(), storePool?.close()]));
  const combined = runs > 1 ? combineRuns(records) : undefined;
  const verdict = combined?.verdict ?? records[0]!.verdict;
  const runDirs = [...dirs.entries()].sort(([a], [b]) => a - b).map(([, dir]) => dir);
  const written = combined && reportDir ? save(() => writeMultiRunReport(combined, reportDir, runDirs)) : runDirs[0];
  if (values.json) process.stdout.write(`${JSON.stringify(combined ?? records[0], null, 2)}\n`);
  summarize(verdict, combined?.explanation ?? records[0]!.explanation, written, values.quiet);
  process.stderr.write(expectationLine(verdict, expect));
  // The verdict stands when its evidence could not be written: say so loudly, keep its exit code.
  for (const problem of unwritten)
    process.stderr.write(`warning: the verdict stands, but its evidence was not written: ${problem}\n`);
  const signal = interruption();
  if (signal) return interruptExitCode(signal);
  return exitCodeFor(verdict, expect);
}

/** Any --name that is neither an option of a run nor one of the oracle's parameters, named with the nearest known one. */
function refuseUnknownOptions(oracle: OracleDefinition<ParamSpecs>, names: string[]): void {
  const known = [...optionsOf('run').map((n) => `--${n}`), ...Object.keys(oracle.params).map(optionName)];
  for (const name of names) {
    if (name in oracle.params) continue;
    const option = optionName(name);
    throw new UsageError(
      `unknown option ${option}${didYouMean(option, known)}. ${oracle.id} takes the harness options (--help) and: ${Object.keys(oracle.params).map(optionName).join(', ')}`,
    );
  }
}

/** The verdict line, always (with --quiet: that line alone, the explanation's first line). */
function summarize(verdict: string, explanation: string, written: string | undefined, quiet: boolean): void {
  if (quiet) {
    process.stderr.write(`${colourVerdict(verdict as never)}  ${explanation.split('\n')[0]}\n`);
    return;
  }
  process.stderr.write(
    `\n${colourVerdict(verdict as never)}  ${explanation}\n${written ? `Evidence: ${written}/\n` : ''}`,
  );
}
