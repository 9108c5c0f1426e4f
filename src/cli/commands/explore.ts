/** `npm run oracle -- <ID> --target T --explore [--max-points N] [--first-fail] [--jobs J] [--emit-test file]` */
import { join, resolve } from 'node:path';
import { exitCodeFor, expectationLine } from '../exit-codes.ts';
import { COMMAND } from '../../core/invocation.ts';
import { colourVerdict } from '../../run/progress.ts';
import { UsageError } from '../../core/errors.ts';
import type { RuntimeChoice } from '../../families/start-store.ts';
import type { StoreKind } from '../../stores/types.ts';
import { emitTest } from '../../explore/emit-test.ts';
import { DEFAULT_MAX_POINTS, explore, writeExploreReport } from '../../explore/explore.ts';
import { explorationTable } from '../../report/explore-table.ts';

export interface ExploreOptions {
  oracle: string;
  target: string;
  params: Record<string, string>;
  store?: StoreKind;
  runtime: RuntimeChoice;
  maxPoints?: string;
  firstFail?: boolean;
  jobs?: string;
  emitTest?: string;
  expect?: 'pass' | 'fail';
  json: boolean;
  reportDir?: string;
  noReport: boolean;
  progress: (message: string) => void;
  quiet: boolean;
}

function wholeNumber(option: string, raw: string | undefined, fallback: number | undefined): number | undefined {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${option} must be a whole number ≥ 1, got "${raw}"`);
  return n;
}

export async function exploreCommand(o: ExploreOptions): Promise<number> {
  const maxPoints = wholeNumber('--max-points', o.maxPoints, DEFAULT_MAX_POINTS)!;
  const jobs = wholeNumber('--jobs', o.jobs, undefined);
  const result = await explore({
    oracle: o.oracle,
    target: o.target,
    params: o.params,
    ...(o.store ? { store: o.store } : {}),
    runtime: o.runtime,
    maxPoints,
    ...(o.firstFail ? { firstFail: true } : {}),
    ...(jobs ? { jobs } : {}),
    progress: o.progress,
  });
  const { record, schedule } = result;
  let written: string | undefined;
  if (!o.noReport) {
    written = writeExploreReport(result, resolve(o.reportDir ?? 'reports'));
  }
  if (o.emitTest) {
    if (!schedule)
      throw new UsageError(
        `--emit-test: no schedule failed (${record.verdict}), so there is no failing-first test to write`,
      );
    o.progress(`wrote ${emitTest(o.emitTest, schedule)}`);
  }
  if (o.json) process.stdout.write(`${JSON.stringify(record, null, 2)}\n`);
  if (!o.quiet) {
    if (record.exploration?.points.length)
      process.stderr.write(`\n${explorationTable(record.exploration).join('\n')}\n`);
    process.stderr.write(
      `\n${colourVerdict(record.verdict)}  ${record.explanation}\n` +
        (written
          ? `Evidence: ${written}/${schedule ? `  (replay: ${COMMAND} replay ${join(written, 'schedule.json')} --target ${o.target})` : ''}\n`
          : ''),
    );
  }
  process.stderr.write(expectationLine(record.verdict, o.expect));
  return exitCodeFor(record.verdict, o.expect);
}
