/**
 * lock-oracles prove <ID> --before <target> --after <target>            [--runs N] [--out-dir D] [--<param> v …]
 * lock-oracles prove <ID> --target <target> --before-ref <ref> [--after-ref <ref>]   (after: the working tree)
 *
 * Exit 0 when the proof is valid (every before-run FAILed, every after-run PASSed), 1 when not
 * (the message says which side broke and how), 2 for a usage error.
 */
import { EXIT } from '../exit-codes.ts';
import { progressPrinter } from '../../run/progress.ts';
import { UsageError } from '../../core/errors.ts';
import type { RuntimeChoice } from '../../families/start-store.ts';
import type { StoreKind } from '../../stores/types.ts';
import { prove } from '../../prove/prove.ts';

export const PROVE_USAGE = `Usage:
  lock-oracles prove <ID> --before <target> --after <target> [options] [--<param> <value> ...]
  lock-oracles prove <ID> --target <target> --before-ref <ref> [--after-ref <ref>] [options]
      (a ref side is checked out in a temporary git worktree that uses the project's own node_modules;
       without --after-ref the after side is the working tree)
Options:
  --runs <N>        runs per side (default 5); valid only if every before-run FAILs and every after-run PASSes
  --out-dir <dir>   where proof.md, proof.json and both sides' evidence go (default reports/proof-<time>-<ID>)
  --store, --runtime, --quiet, and the oracle's parameters, as for one oracle
Exit: 0 valid proof, 1 not a proof (which side broke and how), 2 usage error.`;

interface HarnessValues {
  target?: string;
  runs?: string;
  store?: string;
  runtime?: string;
  quiet?: boolean;
  help?: boolean;
}

/** `extra` holds every option the CLI does not know itself: prove's own and the oracle's parameters. */
export async function proveCommand(
  positionals: string[],
  values: HarnessValues,
  extra: Record<string, string>,
): Promise<number> {
  if (values.help) {
    process.stdout.write(`${PROVE_USAGE}\n`);
    return EXIT.PASS;
  }
  const [oracle, ...more] = positionals;
  if (!oracle || more.length)
    throw new UsageError(
      `prove takes one oracle id${more.length ? `, got ${positionals.join(' ')}` : ''}.\n${PROVE_USAGE}`,
    );
  const { before, after, beforeRef, afterRef, outDir, ...params } = extra;
  const runs = values.runs === undefined ? 5 : Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1)
    throw new UsageError(`--runs must be a whole number ≥ 1, got "${values.runs}"`);
  const progress = progressPrinter(!values.quiet);
  const proof = await prove({
    oracle,
    ...(before !== undefined ? { before } : {}),
    ...(after !== undefined ? { after } : {}),
    ...(values.target !== undefined ? { target: values.target } : {}),
    ...(beforeRef !== undefined ? { beforeRef } : {}),
    ...(afterRef !== undefined ? { afterRef } : {}),
    ...(outDir !== undefined ? { outDir } : {}),
    params,
    ...(values.store ? { store: values.store as StoreKind } : {}),
    ...(values.runtime ? { runtime: values.runtime as RuntimeChoice } : {}),
    runs,
    progress,
  });
  process.stderr.write(
    `\n${proof.valid ? 'VALID PROOF' : 'NOT A PROOF'}  ${proof.explanation}\nProof: ${proof.dir}/proof.md\n`,
  );
  return proof.valid ? EXIT.PASS : EXIT.FAIL;
}
