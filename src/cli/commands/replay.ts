/** `npm run oracle -- replay <schedule.json> [--target T] [--runs N] [--expect pass|fail] [--json]`: rerun one explored point exactly. */
import { resolve } from 'node:path';
import { combineRuns, type EvidenceRecord } from '../../report/evidence.ts';
import { exitCodeFor, expectationLine } from '../exit-codes.ts';
import { COMMAND } from '../../core/invocation.ts';
import { colourVerdict, progressPrinter } from '../../run/progress.ts';
import { UsageError } from '../../core/errors.ts';
import { writeMultiRunReport, writeRunReport } from '../../report/write-report.ts';
import { readSchedule, replaySchedule } from '../../explore/replay.ts';
import { pointLabel } from '../../oracle/explore-point.ts';
import type { Values } from '../options/values.ts';

export async function replayCommand(args: string[], values: Values<'replay'>): Promise<number> {
  const [schedulePath] = args;
  if (!schedulePath)
    throw new UsageError(`replay needs a schedule: ${COMMAND} replay reports/<run>/schedule.json [--target <path>]`);
  const schedule = readSchedule(schedulePath);
  const { runs } = values;
  const progress = progressPrinter(!values.quiet);
  const target = values.target ?? schedule.target;
  progress(
    `replaying ${schedule.oracle} at ${pointLabel(schedule)} on ${target} (found ${schedule.verdict} on ${schedule.target})`,
  );
  const records: EvidenceRecord[] = [];
  for (let run = 1; run <= runs; run++) {
    const record = await replaySchedule(schedule, { target, runtime: values.runtime });
    records.push(record);
    progress(
      `${runs > 1 ? `run ${run}/${runs} ` : ''}${colourVerdict(record.verdict)} — ${record.property?.detail ?? record.explanation.split('\n')[0]}`,
    );
  }
  const combined = runs > 1 ? combineRuns(records) : undefined;
  const verdict = combined?.verdict ?? records[0]!.verdict;
  const reportDir = resolve(values['report-dir']);
  const written = values['no-report']
    ? undefined
    : combined
      ? writeMultiRunReport(
          combined,
          reportDir,
          records.map((r) => writeRunReport(r, reportDir)),
        )
      : writeRunReport(records[0]!, reportDir);
  if (values.json) process.stdout.write(`${JSON.stringify(combined ?? records[0], null, 2)}\n`);
  if (!values.quiet) {
    const same = records.filter((r) => r.verdict === schedule.verdict).length;
    process.stderr.write(
      `\n${colourVerdict(verdict)}  ${target === schedule.target ? `reproduced ${schedule.verdict} ${same}/${runs}. ` : ''}${combined?.explanation ?? records[0]!.explanation}\n` +
        (written ? `Evidence: ${written}/\n` : ''),
    );
  } else
    process.stderr.write(
      `${colourVerdict(verdict)}  ${(combined?.explanation ?? records[0]!.explanation).split('\n')[0]}\n`,
    );
  process.stderr.write(expectationLine(verdict, values.expect));
  return exitCodeFor(verdict, values.expect);
}
