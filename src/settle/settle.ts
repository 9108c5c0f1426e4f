/**
 * settle: runs every row's oracle(s) against its target and writes the row back settled.
 * Confirmed = some run FAILed; Refuted = every run of every oracle PASSed (every precondition
 * held); Unconfirmed = anything else (INCONCLUSIVE, ERROR, a target that does not fit).
 * Every row is checked before anything starts; rows then run in parallel, each on its own store.
 */
import { relative, resolve } from 'node:path';
import type { RunRequest } from '../run/run-oracle.ts';
import { checkRequest } from '../run/stages/resolve-request.ts';
import { runRepeated } from '../run/run-repeated.ts';
import { defaultJobs, runPool } from '../run/run-pool.ts';
import { UsageError, RowsFileError } from '../core/errors.ts';
import { explore, writeExploreReport } from '../explore/explore.ts';
import { firstLine } from '../core/judgement.ts';
import type { EvidenceRecord } from '../report/evidence.ts';
import type { RuntimeChoice } from '../families/start-store.ts';
import { countStatuses } from './outputs.ts';
import {
  inShard,
  readJson,
  rowOracles,
  shapeProblems,
  type OracleResult,
  type Row,
  type RowsFile,
  type RowStatus,
} from './rows.ts';

export interface SettleOptions {
  /** Runs per row × oracle (each on a fresh store); Refuted needs every one to PASS. Default 1. */
  runs?: number;
  /** Rows × oracles in flight at once, each on its own store. Default: the core count. */
  jobs?: number;
  /** Only rows i, i+n, … (1-based), for a CI matrix. */
  shard?: { index: number; count: number };
  /** Where each run's evidence goes (default reports/ under the current directory); null: none. */
  reportDir?: string | null;
  runtime?: RuntimeChoice;
  /**
   * Run each oracle that supports it explored (every command boundary of A × every fault, as
   * `--explore`) instead of its one schedule; a row's own `"explore": true|false` wins. A Refuted
   * row says how much was tried: an unexplored PASS is weaker than an explored one.
   */
  explore?: boolean;
  /** A line per finished row × oracle (with an ETA), and start/end lines. */
  progress?: (message: string) => void;
}

export interface SettleResult {
  file: RowsFile;
  counts: Record<RowStatus, number> & { unsettled: number };
  wallMs: number;
}

interface Task {
  row: Row;
  oracle: string;
  request: RunRequest;
  /** Run it explored (the oracle supports --explore and the row or --explore asks for it). */
  explore: boolean;
}

/** Settles a rows file (path) or rows object. Throws RowsFileError (every bad row named) before starting anything. */
export async function settle(input: string | RowsFile, options: SettleOptions = {}): Promise<SettleResult> {
  const began = performance.now();
  const source = typeof input === 'string' ? input : 'rows';
  const { rowsFile, problems, badRows } = shapeProblems(
    source,
    structuredClone(typeof input === 'string' ? readJson(input) : input),
  );
  const file = rowsFile;
  const runs = options.runs ?? 1;
  const jobs = options.jobs ?? defaultJobs();
  const progress = options.progress ?? (() => undefined);
  const reportDir = options.reportDir === null ? undefined : resolve(options.reportDir ?? 'reports');

  const selected = file.rows.filter((_, position) => inShard(position, options.shard));
  const tasks = await checkTasks(
    selected.filter((row) => !badRows.has(row)),
    options,
    problems,
  );
  if (problems.length) throw new RowsFileError(source, problems);
  progress(
    `settling ${selected.length} row(s)${options.shard ? ` (shard ${options.shard.index}/${options.shard.count} of ${file.rows.length})` : ''}: ` +
      `${tasks.length} oracle run(s) (${tasks.filter((t) => t.explore).length} explored, the rest × ${runs}), ${jobs} at a time`,
  );

  let done = 0;
  // Explored tasks first: each runs many points, and a long task started last would run alone at the end.
  const order = tasks.map((_, i) => i).sort((a, b) => Number(tasks[b]!.explore) - Number(tasks[a]!.explore));
  const finished = await runPool(order, jobs, async (index) => {
    const task = tasks[index]!;
    const taskBegan = performance.now();
    const result = task.explore ? await exploreTask(task, reportDir) : await runTask(task, runs, reportDir);
    done++;
    const elapsed = performance.now() - began;
    const eta = done < tasks.length ? ` · ETA ${formatSeconds((elapsed / done) * (tasks.length - done))}` : '';
    progress(
      `[${done}/${tasks.length}] ${task.row.id} ${task.oracle} ${result.verdict} in ${formatSeconds(performance.now() - taskBegan)}${eta}`,
    );
    return result;
  });
  const results: OracleResult[] = [];
  order.forEach((index, k) => (results[index] = finished[k]!));

  for (const row of selected) {
    const own = results.filter((_, i) => tasks[i]!.row === row);
    Object.assign(row, settleRow(own));
  }
  const counts = countStatuses(file);
  const wallMs = Math.round(performance.now() - began);
  file.settle = {
    at: new Date().toISOString(),
    runs,
    jobs,
    ...(options.shard ? { shard: `${options.shard.index}/${options.shard.count}` } : {}),
    wallMs,
    counts,
  };
  progress(
    `settled in ${formatSeconds(wallMs)}: ${counts.Confirmed} Confirmed, ${counts.Refuted} Refuted, ${counts.Unconfirmed} Unconfirmed`,
  );
  return { file, counts, wallMs };
}

/** Every row × oracle checked without starting a process; every problem named at once. */
async function checkTasks(rows: Row[], options: SettleOptions, problems: string[]): Promise<Task[]> {
  const tasks: Task[] = [];
  for (const row of rows) {
    if (row.explore !== undefined && typeof row.explore !== 'boolean') {
      problems.push(`row ${row.id}: "explore" must be true or false, got ${JSON.stringify(row.explore)}`);
      continue;
    }
    for (const oracle of rowOracles(row)) {
      const request: RunRequest = {
        oracle,
        target: row.target,
        params: row.params ?? {},
        ...(row.store ? { store: row.store } : {}),
        ...(options.runtime ? { runtime: options.runtime } : {}),
      };
      try {
        const { oracle: definition } = await checkRequest(request);
        tasks.push({
          row,
          oracle,
          request,
          explore: definition.explore !== undefined && (row.explore ?? options.explore ?? false),
        });
      } catch (error) {
        if (!(error instanceof UsageError)) throw error;
        problems.push(`row ${row.id}: ${error.message}`);
      }
    }
  }
  return tasks;
}

/** One row × oracle explored: every point once, one at a time (the rows themselves run in parallel). */
async function exploreTask(task: Task, reportDir: string | undefined): Promise<OracleResult> {
  const began = performance.now();
  try {
    const result = await explore({ ...task.request, jobs: 1 });
    const { record } = result;
    const points = record.exploration?.points.length ?? 0;
    return {
      oracle: task.oracle,
      verdict: record.verdict,
      runs: 1,
      tried: `explored ${points} point${points === 1 ? '' : 's'}`,
      ...(reportDir ? { evidence: relative(process.cwd(), writeExploreReport(result, reportDir)) || '.' } : {}),
      explanation: record.explanation,
      ...(record.verdict === 'FAIL' ? { offending: offendingLine(record) } : {}),
      wallMs: Math.round(performance.now() - began),
    };
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return {
      oracle: task.oracle,
      verdict: 'ERROR',
      runs: 1,
      tried: 'nothing (refused)',
      explanation: error.message,
      wallMs: Math.round(performance.now() - began),
    };
  }
}

async function runTask(task: Task, runs: number, reportDir: string | undefined): Promise<OracleResult> {
  const began = performance.now();
  try {
    const result = await runRepeated(task.request, runs, reportDir);
    const failed = result.records.find((r) => r.verdict === 'FAIL');
    return {
      oracle: task.oracle,
      verdict: result.verdict,
      runs,
      tried: ONE_SCHEDULE,
      ...(result.reportPath ? { evidence: relative(process.cwd(), result.reportPath) || '.' } : {}),
      explanation: result.explanation,
      ...(failed ? { offending: offendingLine(failed) } : {}),
      wallMs: Math.round(performance.now() - began),
    };
  } catch (error) {
    // Only what the run itself found out (e.g. the target lacks a member the oracle calls).
    if (!(error instanceof UsageError)) throw error;
    return {
      oracle: task.oracle,
      verdict: 'ERROR',
      runs,
      tried: ONE_SCHEDULE,
      explanation: error.message,
      wallMs: Math.round(performance.now() - began),
    };
  }
}

/** A row's status from its oracles' results. */
export function settleRow(
  results: OracleResult[],
): Pick<Row, 'status' | 'strength' | 'evidence' | 'summary' | 'reason' | 'next' | 'results'> {
  const fail = results.find((r) => r.verdict === 'FAIL');
  if (fail) {
    return {
      status: 'Confirmed',
      ...(fail.evidence ? { evidence: fail.evidence } : {}),
      summary: `${fail.oracle}: ${fail.offending ?? firstLine(fail.explanation)}`,
      results,
    };
  }
  const open = results.filter((r) => r.verdict !== 'PASS');
  if (!open.length) return { status: 'Refuted', strength: refutedStrength(results), results };
  const first = open[0]!;
  return {
    status: 'Unconfirmed',
    reason: open.map((r) => `${r.oracle} ${r.verdict}: ${firstLine(r.explanation)}`).join(' | '),
    next: nextStep(first),
    ...(first.evidence ? { evidence: first.evidence } : {}),
    results,
  };
}

/** What a plain run tries: the oracle's one schedule. */
const ONE_SCHEDULE = 'one schedule';

/**
 * How strong a Refuted is: "explored N points" when every oracle was explored, else "one schedule"
 * (weaker: a PASS of the one schedule tried; exploring may find a failing one).
 */
function refutedStrength(results: OracleResult[]): string {
  if (results.some((r) => r.tried === ONE_SCHEDULE)) return ONE_SCHEDULE;
  const points = results.reduce((sum, r) => sum + Number(/^explored (\d+)/.exec(r.tried)?.[1] ?? 0), 0);
  return `explored ${points} point${points === 1 ? '' : 's'}`;
}

function nextStep(result: OracleResult): string {
  if (result.verdict === 'INCONCLUSIVE') {
    return (
      `The fault did not land, so nothing was proven: read the preconditions in ${result.evidence ?? 'the report'}/summary.md. ` +
      `If the machine was busy, run the row again (more --runs); if it stays INCONCLUSIVE, the target does not reach what ` +
      `${result.oracle} needs (its preconditions are in \`lock-oracles ${result.oracle} --help\`).`
    );
  }
  if (/does not fit|has no .* member/.test(result.explanation)) {
    return `Add the missing member(s) to the target (see targets/contract.ts and \`lock-oracles ${result.oracle} --help\`), then settle the row again.`;
  }
  return `The target or the harness broke before a verdict: fix what the message names, then run \`lock-oracles ${result.oracle} --target <target>\` alone to check.`;
}

/** The property's detail and the offending events, one line. */
function offendingLine(record: EvidenceRecord): string {
  const events = (record.property?.offending ?? [])
    .slice(0, 5)
    .map((e) =>
      'seq' in e
        ? `#${e.seq} ${e.holder} ${e.name}${e.fence !== undefined ? ` fence ${e.fence}` : ''} at ${e.t.toFixed(0)} ms`
        : `${e.holder ?? 'store'} ${e.kind} at ${e.t.toFixed(0)} ms`,
    );
  const more = (record.property?.offending.length ?? 0) > events.length ? ', …' : '';
  return `${record.property?.detail ?? firstLine(record.explanation)}${events.length ? ` [${events.join(', ')}${more}]` : ''}`;
}

function formatSeconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
