/**
 * npm run oracle -- references [V310 …] [--jobs J] [--json] [--report-dir <dir> | --no-report]
 * Runs the reference matrix (src/run/references.ts), prints one line per reference and exits 1 when
 * any verdict or its evidence is wrong. The evidence of every wrong entry is kept (and of every
 * INCONCLUSIVE one with --report-dir): under --report-dir, else in a fresh temp dir it names.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { colourVerdict, progressPrinter } from '../../run/progress.ts';
import { EXIT } from '../exit-codes.ts';
import { referenceCases, runReferences, type ReferenceOutcome } from '../../run/references.ts';
import { writeRunReport } from '../../report/write-report.ts';
import { checkReferencePackages } from '../../run/reference-packages.ts';
import type { Values } from '../options/values.ts';
import { writableReportDir } from './report-dir.ts';

export async function referencesCommand(ids: string[], values: Values<'references'>): Promise<number> {
  const reportDir = values['report-dir'] === undefined ? undefined : writableReportDir(values['report-dir']);
  const { jobs, json } = values;
  const progress = progressPrinter(!values.quiet);
  const began = performance.now();
  const cases = await referenceCases(ids.length ? ids : undefined);
  checkReferencePackages(cases.map((c) => c.reference.target));
  progress(`${cases.length} reference runs, up to ${jobs} at once`);
  const outcomes = await runReferences(cases, {
    jobs,
    progress,
    onOutcome: (_, o) => progress(line(o)),
  });
  const wrong = outcomes.filter((o) => o.problems.length);
  const wallMs = Math.round(performance.now() - began);
  const reports = values['no-report'] ? new Map<ReferenceOutcome, string>() : keepEvidence(outcomes, reportDir);
  if (json) {
    const body = {
      jobs,
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
      `\n${outcomes.length} references: ${outcomes.length - wrong.length} right, ${wrong.length} wrong, in ${(wallMs / 1000).toFixed(1)} s with --jobs ${jobs}\n`,
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
