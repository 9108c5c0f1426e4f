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
import type { StoreKind } from '../../stores/types.ts';
import { prove } from '../../prove/prove.ts';
import { commandHelp } from '../options/help.ts';
import type { Values } from '../options/values.ts';

/** `params`: every option a proof does not take itself, the oracle's parameters. */
export async function proveCommand(
  args: string[],
  values: Values<'prove'>,
  params: Record<string, string>,
): Promise<number> {
  const [oracle, ...more] = args;
  if (!oracle || more.length)
    throw new UsageError(
      `prove takes one oracle id${more.length ? `, got ${args.join(' ')}` : ''}.\n${commandHelp('prove')}`,
    );
  const { before, after, 'before-ref': beforeRef, 'after-ref': afterRef, 'out-dir': outDir, runs } = values;
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
    ...(values.runtime ? { runtime: values.runtime } : {}),
    runs,
    progress,
  });
  process.stderr.write(
    `\n${proof.valid ? 'VALID PROOF' : 'NOT A PROOF'}  ${proof.explanation}\nProof: ${proof.dir}/proof.md\n`,
  );
  return proof.valid ? EXIT.PASS : EXIT.FAIL;
}
