/** `npm run oracle -- <ID> --target T --explore [--max-points N] [--first-fail] [--jobs J] [--emit-test file]` */
import { join, resolve } from 'node:path';
import { exitCodeFor, expectationLine } from '../exit-codes.ts';
import { COMMAND } from '../../core/invocation.ts';
import { colourVerdict, progressPrinter } from '../../run/progress.ts';
import { UsageError } from '../../core/errors.ts';
import type { StoreKind } from '../../stores/types.ts';
import { emitTest } from '../../explore/emit-test.ts';
import { explore, writeExploreReport } from '../../explore/explore.ts';
import { explorationTable } from '../../report/explore-table.ts';
import type { Values } from '../options/values.ts';

export async function exploreCommand(
  oracle: string,
  target: string,
  values: Values<'run'>,
  params: Record<string, string>,
): Promise<number> {
  const progress = progressPrinter(!values.quiet);
  const result = await explore({
    oracle,
    target,
    params,
    ...(values.store ? { store: values.store as StoreKind } : {}),
    runtime: values.runtime,
    ...(values.topology ? { topology: values.topology } : {}),
    ...(values['max-points'] ? { maxPoints: values['max-points'] } : {}),
    ...(values['first-fail'] ? { firstFail: true } : {}),
    jobs: values.jobs,
    progress,
  });
  const { record, schedule } = result;
  const written = values['no-report'] ? undefined : writeExploreReport(result, resolve(values['report-dir']));
  const emitTo = values['emit-test'];
  if (emitTo) {
    if (!schedule)
      throw new UsageError(
        `--emit-test: no schedule failed (${record.verdict}), so there is no failing-first test to write`,
      );
    progress(`wrote ${emitTest(emitTo, schedule)}`);
  }
  if (values.json) process.stdout.write(`${JSON.stringify(record, null, 2)}\n`);
  if (!values.quiet) {
    if (record.exploration?.points.length)
      process.stderr.write(`\n${explorationTable(record.exploration).join('\n')}\n`);
    process.stderr.write(
      `\n${colourVerdict(record.verdict)}  ${record.explanation}\n` +
        (written
          ? `Evidence: ${written}/${schedule ? `  (replay: ${COMMAND} replay ${join(written, 'schedule.json')} --target ${target})` : ''}\n`
          : ''),
    );
  } else process.stderr.write(`${colourVerdict(record.verdict)}  ${record.explanation.split('\n')[0]}\n`);
  process.stderr.write(expectationLine(record.verdict, values.expect));
  return exitCodeFor(record.verdict, values.expect);
}
