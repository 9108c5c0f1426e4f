/**
 * npm run oracle -- selfcheck [<ID> ...] [--runs N] [--jobs J] [--json] [--stress] [--cases <file.json>]
 * The harness checking itself (src/selfcheck/selfcheck.ts): the reference matrix, every mutation
 * and every hostile fixture, N times; exit 1 on any wrong verdict or anything left behind.
 */
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { interruptExitCode, interruption, onInterrupt } from '../../process/cleanup.ts';
import { EXIT } from '../exit-codes.ts';
import { colourVerdict, progressPrinter } from '../../run/progress.ts';
import { UsageError } from '../../core/errors.ts';
import { checkReferencePackages } from '../../run/reference-packages.ts';
import type { Values } from '../options/values.ts';
import { declaredCases, label, runSelfcheck, selfcheckCases, type SelfcheckRow } from '../../selfcheck/selfcheck.ts';

export async function selfcheckCommand(ids: string[], values: Values<'selfcheck'>): Promise<number> {
  const { runs, jobs } = values;
  const progress = progressPrinter(!values.quiet);
  let cases;
  if (values.cases) {
    if (ids.length) throw new UsageError('selfcheck: give oracle IDs or --cases, not both');
    let declared: unknown;
    try {
      declared = JSON.parse(readFileSync(values.cases, 'utf8'));
    } catch (error) {
      throw new UsageError(`--cases: cannot read ${values.cases} as JSON: ${(error as Error).message}`);
    }
    cases = await declaredCases(declared);
  } else {
    cases = await selfcheckCases(ids.length ? ids : undefined);
    checkReferencePackages(cases.map((c) => c.target));
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
    stress: values.stress,
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

function line(row: SelfcheckRow): string {
  const mark = { right: 'ok   ', wrong: 'WRONG', inconclusive: 'incon', error: 'ERROR' }[row.outcome];
  return `${mark} ${colourVerdict(row.observed).padEnd(5)} ${`${row.wallMs} ms`.padStart(8)}  run ${row.run}  ${label(row)}${row.playedAgainAlone ? ' (played again alone)' : ''}`;
}
