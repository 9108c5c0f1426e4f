/**
 * npm run oracle -- references [V310 …] [--jobs J] [--json]
 * Runs the reference matrix (src/references.ts), prints one line per reference and exits 1 when
 * any verdict or its evidence is wrong.
 */
import { colourVerdict } from '../progress.ts';
import { EXIT } from '../exit-codes.ts';
import { referenceCases, runReferences, type ReferenceOutcome } from '../references.ts';

export async function referencesCommand(only: string[], options: { jobs: number; json: boolean; progress: (message: string) => void }): Promise<number> {
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
      })),
    };
    process.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
  } else {
    for (const o of outcomes) process.stdout.write(`${line(o)}\n`);
    for (const o of wrong) process.stdout.write(`\nWRONG ${o.oracle.id} ${o.name}\n  ${o.problems.join('\n  ')}\n`);
    process.stdout.write(`\n${outcomes.length} references: ${outcomes.length - wrong.length} right, ${wrong.length} wrong, in ${(wallMs / 1000).toFixed(1)} s with --jobs ${options.jobs}\n`);
  }
  return wrong.length ? EXIT.FAIL : EXIT.PASS;
}

function line(o: ReferenceOutcome): string {
  const mark = o.problems.length ? 'WRONG' : 'ok   ';
  return `${mark} ${colourVerdict(o.record.verdict).padEnd(5)} ${`${Math.round(o.record.timing.wallMs)} ms`.padStart(8)}  ${o.oracle.id} ${o.name}${o.record.crowdedAttempt ? ' (played again alone)' : ''}`;
}
