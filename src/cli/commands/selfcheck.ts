/**
 * npm run oracle -- selfcheck [<ID> ...] [--runs N] [--jobs J] [--json] [--stress] [--cases <file.json>]
 * The harness checking itself (src/selfcheck/selfcheck.ts): the reference matrix, every mutation
 * and every hostile fixture, N times; exit 1 on any wrong verdict or anything left behind.
 */
import { COMMAND } from '../../core/invocation.ts';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { interruptExitCode, interruption, onInterrupt } from '../../process/cleanup.ts';
import { EXIT } from '../exit-codes.ts';
import { colourVerdict, progressPrinter } from '../../run/progress.ts';
import { UsageError } from '../../core/errors.ts';
import { defaultJobs } from '../../run/run-pool.ts';
import { declaredCases, label, runSelfcheck, selfcheckCases, type SelfcheckRow } from '../../selfcheck/selfcheck.ts';

const MAX_RUNS = 100;

export const SELFCHECK_USAGE = `Usage: ${COMMAND} selfcheck [<ID> ...] [--runs N] [--jobs J] [--json] [--stress] [--cases <file.json>] [--report-dir <dir> | --no-report] [--quiet]
The harness checking itself: the reference matrix, each good reference with its guard removed (must FAIL)
and every hostile fixture, N times; exit 1 on a wrong verdict or anything left behind (INCONCLUSIVE is
allowed and counted).
  --runs <N>           play every case N times (at most ${MAX_RUNS}; default 1)
  --jobs <J>           up to J runs at once (default: the core count)
  --json               {"matrix":[…],"wrong":…,"inconclusive":…,"errors":…,"leftovers":[…]} on stdout
  --stress             a busy process per core for the whole selfcheck (INCONCLUSIVE allowed, never a wrong verdict)
  --cases <file.json>  play these cases instead: [{"oracle","target","expect","params"?,"store"?,"deadlineMs"?}]
  --report-dir <dir>   keep the evidence of every wrong, ERROR and INCONCLUSIVE row there
                       (default: wrong and ERROR rows' evidence goes to a fresh temp dir, named in the output)
  --no-report          keep no evidence
  --quiet              no progress lines`;

export async function selfcheckCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseSelfcheckArgs(argv);
  if (values.help) {
    process.stdout.write(`${SELFCHECK_USAGE}\n`);
    return EXIT.PASS;
  }
  const runs = whole('--runs', values.runs, 1, MAX_RUNS);
  const jobs = whole('--jobs', values.jobs, defaultJobs(), 64);
  const progress = progressPrinter(!values.quiet);
  let cases;
  if (values.cases) {
    if (positionals.length) throw new UsageError('selfcheck: give oracle IDs or --cases, not both');
    let declared: unknown;
    try {
      declared = JSON.parse(readFileSync(values.cases, 'utf8'));
    } catch (error) {
      throw new UsageError(`--cases: cannot read ${values.cases} as JSON: ${(error as Error).message}`);
    }
    cases = await declaredCases(declared);
  } else {
    cases = await selfcheckCases(positionals.length ? positionals : undefined);
  }
  const stop = new AbortController();
  onInterrupt((signal) => stop.abort(signal));
  progress(
    `${cases.length} cases × ${runs} run(s), up to ${jobs} at once${values.stress ? ', with a busy process per core' : ''}`,
  );
  if (values['report-dir'] !== undefined && values['no-report'])
    throw new UsageError('selfcheck: give --report-dir or --no-report, not both');
  const reportDir = values['report-dir'];
  const keep = values['no-report']
    ? undefined
    : {
        dir: () =>
          reportDir !== undefined
            ? (mkdirSync(reportDir, { recursive: true }), reportDir)
            : mkdtempSync(join(tmpdir(), 'lock-oracles-selfcheck-')),
        inconclusive: reportDir !== undefined,
      };
  const onRow = (row: SelfcheckRow) => progress(`${line(row)}${row.evidence ? `\n  evidence: ${row.evidence}` : ''}`);
  const report = await runSelfcheck(cases, {
    runs,
    jobs,
    stress: values.stress === true,
    stop: stop.signal,
    progress,
    onRow,
    ...(keep ? { keep } : {}),
  });
  if (values.json) {
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    for (const row of report.matrix.filter((r) => r.outcome !== 'right')) {
      process.stdout.write(
        `${line(row)}\n  ${row.problems.join('\n  ')}\n${row.evidence ? `  evidence: ${row.evidence}\n` : ''}`,
      );
    }
    for (const what of report.leftovers) process.stdout.write(`LEFT BEHIND ${what}\n`);
    process.stdout.write(
      `\n${report.matrix.length} runs: ${report.right} right, ${report.wrong} wrong, ${report.inconclusive} inconclusive, ${report.errors} errors, ${report.leftovers.length} left behind; ` +
        `${(report.wallMs / 1000).toFixed(1)} s with --jobs ${jobs}${report.stressWorkers ? ` and ${report.stressWorkers} busy processes` : ''}, load ${report.load.mean} mean / ${report.load.max} max\n`,
    );
  }
  const signal = interruption();
  if (signal) return interruptExitCode(signal);
  return report.wrong || report.leftovers.length ? EXIT.FAIL : EXIT.PASS;
}

function parseSelfcheckArgs(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        runs: { type: 'string' },
        jobs: { type: 'string' },
        json: { type: 'boolean' },
        stress: { type: 'boolean' },
        cases: { type: 'string' },
        'report-dir': { type: 'string' },
        'no-report': { type: 'boolean' },
        quiet: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError(`selfcheck: ${(error as Error).message}\n${SELFCHECK_USAGE}`);
  }
}

function whole(option: string, raw: string | undefined, fallback: number, max: number): number {
  const value = raw === undefined ? fallback : /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < 1 || value > max)
    throw new UsageError(`${option} must be a whole number from 1 to ${max}, got "${raw}"`);
  return value;
}

function line(row: SelfcheckRow): string {
  const mark = { right: 'ok   ', wrong: 'WRONG', inconclusive: 'incon', error: 'ERROR' }[row.outcome];
  return `${mark} ${colourVerdict(row.observed).padEnd(5)} ${`${row.wallMs} ms`.padStart(8)}  run ${row.run}  ${label(row)}${row.playedAgainAlone ? ' (played again alone)' : ''}`;
}
