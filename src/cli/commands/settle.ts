/**
 * lock-oracles settle <rows.json> [--out settled.json] [--junit junit.xml] [--fail-on confirmed|unconfirmed|never]
 *                     [--runs N] [--explore] [--jobs N] [--shard i/n] [--report-dir DIR | --no-report] [--runtime R] [--quiet]
 * lock-oracles settle merge <settled.json>… [--out FILE] [--junit FILE] [--fail-on …]
 *
 * stdout: the Markdown table (for a CI job summary); progress on stderr.
 * Exit: 0, or 1 when a row has a status --fail-on names; 2 for a bad rows file (nothing started).
 */
import { writeFileSync } from 'node:fs';
import { EXIT } from '../exit-codes.ts';
import { progressPrinter } from '../../run/progress.ts';
import { UsageError, RowsFileError } from '../../core/errors.ts';
import { parseShard, type RowsFile } from '../../settle/rows.ts';
import { settle } from '../../settle/settle.ts';
import { mergeSettled } from '../../settle/merge.ts';
import { countStatuses, settleJunit, settleMarkdown } from '../../settle/outputs.ts';
import { commandHelp } from '../options/help.ts';
import type { Values } from '../options/values.ts';

export async function settleCommand(args: string[], values: Values<'settle'>): Promise<number> {
  const [first, ...rest] = args;
  if (!first) throw new UsageError(`settle needs a rows file.\n${commandHelp('settle')}`);

  let file: RowsFile;
  try {
    if (first === 'merge') {
      file = mergeSettled(rest);
    } else {
      if (rest.length)
        throw new UsageError(
          `settle takes one rows file, got ${args.length} (${args.join(', ')}); to join shards use settle merge`,
        );
      file = (
        await settle(first, {
          runs: values.runs,
          explore: values.explore,
          jobs: values.jobs,
          ...(values.shard ? { shard: shardOf(values.shard) } : {}),
          reportDir: values['no-report'] ? null : values['report-dir'],
          runtime: values.runtime,
          progress: progressPrinter(!values.quiet),
        })
      ).file;
    }
  } catch (error) {
    if (error instanceof RowsFileError) throw new UsageError(error.message);
    throw error;
  }

  if (values.out) writeFileSync(values.out, `${JSON.stringify(file, null, 2)}\n`);
  if (values.junit) writeFileSync(values.junit, settleJunit(file));
  process.stdout.write(settleMarkdown(file));
  const counts = countStatuses(file);
  if (first === 'merge' && counts.unsettled) {
    throw new UsageError(
      `${counts.unsettled} row(s) were settled by no shard (${file.rows
        .filter((r) => !r.status)
        .map((r) => r.id)
        .join(', ')}): did a shard job fail?`,
    );
  }
  const failOn = values['fail-on'];
  const failing =
    failOn === 'never' ? 0 : failOn === 'confirmed' ? counts.Confirmed : counts.Confirmed + counts.Unconfirmed;
  return failing ? EXIT.FAIL : EXIT.PASS;
}

function shardOf(text: string): { index: number; count: number } {
  try {
    return parseShard(text);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}
