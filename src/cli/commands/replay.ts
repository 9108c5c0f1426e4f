/** `npm run oracle -- replay <schedule.json> [--target T] [--runs N] [--expect pass|fail] [--json]`: rerun one explored point exactly. */
import { resolve } from 'node:path';
import { combineRuns, type EvidenceRecord } from '../../report/evidence.ts';
import { exitCodeFor, expectationLine } from '../exit-codes.ts';
import { COMMAND } from '../../core/invocation.ts';
import { colourVerdict } from '../../run/progress.ts';
import { UsageError } from '../../core/errors.ts';
import { writeMultiRunReport, writeRunReport } from '../../report/write-report.ts';
import type { RuntimeChoice } from '../../families/start-store.ts';
import { readSchedule, replaySchedule } from '../../explore/replay.ts';
import { pointLabel } from '../../oracle/explore-point.ts';

export interface ReplayCommandOptions {
  schedulePath: string | undefined;
  target?: string;
  runs?: string;
  runtime: RuntimeChoice;
  expect?: 'pass' | 'fail';
  json: boolean;
  reportDir?: string;
  noReport: boolean;
  quiet: boolean;
  progress: (message: string) => void;
}

export async function replayCommand(o: ReplayCommandOptions): Promise<number> {
  if (!o.schedulePath)
    throw new UsageError(`replay needs a schedule: ${COMMAND} replay reports/<run>/schedule.json [--target <path>]`);
  const schedule = readSchedule(o.schedulePath);
  const runs = o.runs === undefined ? 1 : Number(o.runs);
  if (!Number.isInteger(runs) || runs < 1) throw new UsageError(`--runs must be a whole number ≥ 1, got "${o.runs}"`);
  const target = o.target ?? schedule.target;
  o.progress(
    `replaying ${schedule.oracle} at ${pointLabel(schedule)} on ${target} (found ${schedule.verdict} on ${schedule.target})`,
  );
  const records: EvidenceRecord[] = [];
  for (let run = 1; run <= runs; run++) {
    const record = await replaySchedule(schedule, { target, runtime: o.runtime });
    records.push(record);
    o.progress(
      `${runs > 1 ? `run ${run}/${runs} ` : ''}${colourVerdict(record.verdict)} — ${record.property?.detail ?? record.explanation.split('\n')[0]}`,
    );
  }
  const combined = runs > 1 ? combineRuns(records) : undefined;
  const verdict = combined?.verdict ?? records[0]!.verdict;
  const reportDir = resolve(o.reportDir ?? 'reports');
  const written = o.noReport
    ? undefined
    : combined
      ? writeMultiRunReport(
          combined,
          reportDir,
          records.map((r) => writeRunReport(r, reportDir)),
        )
      : writeRunReport(records[0]!, reportDir);
  if (o.json) process.stdout.write(`${JSON.stringify(combined ?? records[0], null, 2)}\n`);
  if (!o.quiet) {
    const same = records.filter((r) => r.verdict === schedule.verdict).length;
    process.stderr.write(
      `\n${colourVerdict(verdict)}  ${target === schedule.target ? `reproduced ${schedule.verdict} ${same}/${runs}. ` : ''}${combined?.explanation ?? records[0]!.explanation}\n` +
        (written ? `Evidence: ${written}/\n` : ''),
    );
  }
  process.stderr.write(expectationLine(verdict, o.expect));
  return exitCodeFor(verdict, o.expect);
}
