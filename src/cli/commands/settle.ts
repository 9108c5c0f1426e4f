/**
 * lock-oracles settle <rows.json> [--out settled.json] [--junit junit.xml] [--fail-on confirmed|unconfirmed|never]
 *                     [--runs N] [--explore] [--jobs N] [--shard i/n] [--report-dir DIR | --no-report] [--runtime R] [--quiet]
 * lock-oracles settle merge <settled.json>… [--out FILE] [--junit FILE] [--fail-on …]
 *
 * stdout: the Markdown table (for a CI job summary); progress on stderr.
 * Exit: 0, or 1 when a row has a status --fail-on names; 2 for a bad rows file (nothing started).
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { EXIT } from '../exit-codes.ts';
import { progressPrinter } from '../../run/progress.ts';
import { UsageError, RowsFileError } from '../../core/errors.ts';
import { RUNTIME_CHOICES, type RuntimeChoice } from '../../families/start-store.ts';
import { parseShard, type RowsFile } from '../../settle/rows.ts';
import { settle } from '../../settle/settle.ts';
import { mergeSettled } from '../../settle/merge.ts';
import { countStatuses, settleJunit, settleMarkdown } from '../../settle/outputs.ts';

const FAIL_ON = ['confirmed', 'unconfirmed', 'never'] as const;

export const SETTLE_USAGE = `Usage:
  lock-oracles settle <rows.json> [options]     run every row's oracle(s) and write the rows back settled
  lock-oracles settle merge <a.json> <b.json>…  join the outputs of --shard runs into one

Options:
  --out <file>          the rows file back with status (Confirmed | Refuted | Unconfirmed) and evidence per row
  --junit <file>        JUnit XML: one testcase per row × oracle (Confirmed = failure, Unconfirmed = skipped)
  --fail-on <what>      confirmed (default) | unconfirmed (Confirmed or Unconfirmed) | never: when to exit 1
  --runs <N>            runs per row × oracle, each on a fresh store (Refuted needs every one to PASS; default 1)
  --explore             run each oracle that supports it explored (every command boundary of A × every fault,
                        as <ID> --explore) instead of its one schedule; a row's "explore": true|false wins.
                        A Refuted row says how much was tried: "one schedule" (weaker) or "explored N points"
  --jobs <N>            rows in flight at once, each on its own store (default: the core count)
  --shard <i/n>         only rows i, i+n, … of the file (for a CI matrix; join with settle merge)
  --report-dir <dir>    where each run's evidence goes (default reports/); --no-report for none
  --runtime <name>      local | container | auto (as for one oracle)
  --quiet               no progress lines
The Markdown table goes to stdout (append it to $GITHUB_STEP_SUMMARY). A row's target path is
relative to the current directory. Exit: 0; 1 when a row has a status --fail-on names; 2 for a
bad rows file (every bad row named, nothing started).`;

const OPTIONS = {
  out: { type: 'string' },
  junit: { type: 'string' },
  'fail-on': { type: 'string' },
  runs: { type: 'string' },
  explore: { type: 'boolean' },
  jobs: { type: 'string' },
  shard: { type: 'string' },
  'report-dir': { type: 'string' },
  'no-report': { type: 'boolean' },
  runtime: { type: 'string' },
  quiet: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export async function settleCommand(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: OPTIONS });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n${SETTLE_USAGE}`);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(`${SETTLE_USAGE}\n`);
    return EXIT.PASS;
  }
  const failOn = (values['fail-on'] ?? 'confirmed') as (typeof FAIL_ON)[number];
  if (!FAIL_ON.includes(failOn))
    throw new UsageError(`--fail-on must be ${FAIL_ON.join(' | ')}, got "${values['fail-on']}"`);
  const [first, ...rest] = positionals;
  if (!first) throw new UsageError(`settle needs a rows file.\n${SETTLE_USAGE}`);

  let file: RowsFile;
  try {
    if (first === 'merge') {
      file = mergeSettled(rest);
    } else {
      if (rest.length)
        throw new UsageError(
          `settle takes one rows file, got ${positionals.length} (${positionals.join(', ')}); to join shards use settle merge`,
        );
      const runtime = values.runtime ?? 'local';
      if (!(RUNTIME_CHOICES as readonly string[]).includes(runtime))
        throw new UsageError(`--runtime must be ${RUNTIME_CHOICES.join(', ')}, got "${runtime}"`);
      file = (
        await settle(first, {
          runs: whole('--runs', values.runs, 1),
          explore: values.explore === true,
          ...(values.jobs !== undefined ? { jobs: whole('--jobs', values.jobs, 1) } : {}),
          ...(values.shard ? { shard: shardOf(values.shard) } : {}),
          reportDir: values['no-report'] ? null : (values['report-dir'] ?? 'reports'),
          runtime: runtime as RuntimeChoice,
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
  const failing =
    failOn === 'never' ? 0 : failOn === 'confirmed' ? counts.Confirmed : counts.Confirmed + counts.Unconfirmed;
  return failing ? EXIT.FAIL : EXIT.PASS;
}

function whole(option: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1)
    throw new UsageError(`${option} must be a whole number ≥ 1, got "${text}"`);
  return value;
}

function shardOf(text: string): { index: number; count: number } {
  try {
    return parseShard(text);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}
