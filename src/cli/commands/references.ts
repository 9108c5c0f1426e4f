/**
 * npm run oracle -- references [V310 …] [--jobs J] [--json] [--report-dir <dir> | --no-report]
 * Runs the reference matrix (src/run/references.ts), prints one line per reference and exits 1 when
 * any verdict or its evidence is wrong. The evidence of every wrong entry is kept (and of every
 * INCONCLUSIVE one with --report-dir): under --report-dir, else in a fresh temp dir it names.
 */
import { COMMAND } from '../../core/invocation.ts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { colourVerdict } from '../../run/progress.ts';
import { EXIT } from '../exit-codes.ts';
import { referenceCases, runReferences, type ReferenceOutcome } from '../../run/references.ts';
import { writeRunReport } from '../../report/write-report.ts';

export const REFERENCES_USAGE = `Usage: ${COMMAND} references [<ID> ...] [--jobs J] [--json] [--report-dir <dir> | --no-report] [--quiet]
Runs every reference target of the oracles named (default all; Redis ones on Valkey too), each checked
against its expected verdict and the evidence that verdict needs; exit 1 when any is wrong.
  --jobs <J>           up to J runs at once (default: twice the core count, a reference run mostly waits);
                       an INCONCLUSIVE among parallel runs is played again alone
  --json               one JSON document on stdout (progress stays on stderr)
  --report-dir <dir>   keep the evidence of every wrong and every INCONCLUSIVE entry there
                       (default: a wrong entry's evidence goes to a fresh temp dir, named in the output)
  --no-report          keep no evidence`;

export interface ReferencesOptions {
  jobs: number;
  json: boolean;
  progress: (message: string) => void;
  /** Where to keep the evidence of wrong and INCONCLUSIVE entries; undefined: wrong ones in a temp dir. */
  reportDir?: string;
  noReport?: boolean;
}

export async function referencesCommand(only: string[], options: ReferencesOptions): Promise<number> {
  const began = performance.now();
  const cases = await referenceCases(only.length ? only : undefined);
  options.progress(`${cases.length} reference runs, up to ${options.jobs} at once`);
  const outcomes = await runReferences(cases, {
    jobs: options.jobs,
    progress: options.progress,
    onOutcome: (_, o) => options.progress(line(o)),
  });
  const wrong = outcomes.filter((o) => o.problems.length);
  const wallMs = Math.round(performance.now() - began);
  const reports = options.noReport ? new Map<ReferenceOutcome, string>() : keepEvidence(outcomes, options.reportDir);
  if (options.json) {
    const body = {
      jobs: options.jobs,
      wallMs,
      right: outcomes.length - wrong.length,
      wrong: wrong.length,
      references: outcomes.map((o) => ({
        oracle: o.oracle.id,
        target: o.reference.target,
        params: o.reference.params ?? {},
        store: o.store,
        expect: o.reference.expect,
        ...(o.reference.knownBad ? { knownBad: o.reference.knownBad } : {}),
        verdict: o.record.verdict,
        ok: o.problems.length === 0,
        problems: o.problems,
        wallMs: o.record.timing.wallMs,
        ...(o.record.crowdedAttempt ? { crowdedAttempt: o.record.crowdedAttempt } : {}),
        ...(reports.has(o) ? { report: reports.get(o) } : {}),
      })),
    };
    process.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
  } else {
    for (const o of outcomes) process.stdout.write(`${line(o)}\n`);
    for (const o of wrong)
      process.stdout.write(
        `\nWRONG ${o.oracle.id} ${o.name}\n  ${o.problems.join('\n  ')}\n${reports.has(o) ? `  evidence: ${reports.get(o)}\n` : ''}`,
      );
    const inconclusive = outcomes.filter((o) => !o.problems.length && reports.has(o));
    if (inconclusive.length)
      process.stdout.write(
        `\nINCONCLUSIVE evidence kept:\n${inconclusive.map((o) => `  ${o.oracle.id} ${o.name}: ${reports.get(o)}`).join('\n')}\n`,
      );
    process.stdout.write(
      `\n${outcomes.length} references: ${outcomes.length - wrong.length} right, ${wrong.length} wrong, in ${(wallMs / 1000).toFixed(1)} s with --jobs ${options.jobs}\n`,
    );
  }
  return wrong.length ? EXIT.FAIL : EXIT.PASS;
}

/**
 * Writes the report of each wrong entry (and, under an asked-for dir, each INCONCLUSIVE one): a
 * wrong verdict is only worth reporting with the evidence that shows why.
 */
export function keepEvidence(
  outcomes: readonly ReferenceOutcome[],
  reportDir: string | undefined,
): Map<ReferenceOutcome, string> {
  const kept = outcomes.filter(
    (o) => o.problems.length > 0 || (reportDir !== undefined && o.record.verdict === 'INCONCLUSIVE'),
  );
  const written = new Map<ReferenceOutcome, string>();
  if (!kept.length) return written;
  const dir = reportDir ?? mkdtempSync(join(tmpdir(), 'lock-oracles-references-'));
  for (const o of kept) written.set(o, writeRunReport(o.record, dir));
  return written;
}

function line(o: ReferenceOutcome): string {
  const mark = o.problems.length ? 'WRONG' : 'ok   ';
  return `${mark} ${colourVerdict(o.record.verdict).padEnd(5)} ${`${Math.round(o.record.timing.wallMs)} ms`.padStart(8)}  ${o.oracle.id} ${o.name}${o.record.crowdedAttempt ? ' (played again alone)' : ''}`;
}
