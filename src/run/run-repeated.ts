/**
 * An oracle run N times on a fresh store each time, the verdict over all runs, and the report:
 * what the CLI, `settle`, `prove` and the programmatic API all do with one request.
 */
import { colourVerdict } from './progress.ts';
import { runOracle, type RunRequest } from './run-oracle.ts';
import { combineRuns, type EvidenceRecord, type MultiRunRecord } from '../report/evidence.ts';
import { writeMultiRunReport, writeRunReport } from '../report/write-report.ts';
import type { Verdict } from '../core/judgement.ts';

export interface RepeatedRun {
  records: EvidenceRecord[];
  /** Set when runs > 1. */
  combined?: MultiRunRecord;
  verdict: Verdict;
  explanation: string;
  /** Where the report was written (absent with no report dir). */
  reportPath?: string;
}

export async function runRepeated(
  request: RunRequest,
  runs: number,
  reportDir: string | undefined,
): Promise<RepeatedRun> {
  const progress = request.progress ?? (() => undefined);
  const records: EvidenceRecord[] = [];
  for (let run = 1; run <= runs; run++) {
    if (runs > 1) progress(`run ${run}/${runs}`);
    const record = await runOracle(request);
    records.push(record);
    progress(
      `${record.oracle.id} ${colourVerdict(record.verdict)} — ${record.property?.detail ?? record.explanation.split('\n')[0]}`,
    );
  }
  const combined = runs > 1 ? combineRuns(records) : undefined;
  const runDirs = reportDir === undefined ? [] : records.map((r) => writeRunReport(r, reportDir));
  const reportPath =
    reportDir === undefined ? undefined : combined ? writeMultiRunReport(combined, reportDir, runDirs) : runDirs[0];
  return {
    records,
    ...(combined ? { combined } : {}),
    verdict: combined?.verdict ?? records[0]!.verdict,
    explanation: combined?.explanation ?? records[0]!.explanation,
    ...(reportPath ? { reportPath } : {}),
  };
}
