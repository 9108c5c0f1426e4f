/**
 * `npm run oracle -- conformance --target X`: proves the holder shim X runs in (any language, by
 * its extension or --lang) speaks the holder protocol (src/holder/conformance.ts,
 * docs/holder-protocol.md), before its first oracle. One line per check; exit 0 when all pass, 1
 * naming each missing piece when not.
 */
import { UsageError } from '../../core/errors.ts';
import { runConformance } from '../../holder/conformance.ts';
import { EXIT } from '../exit-codes.ts';
import type { Values } from '../options/values.ts';

export async function conformanceCommand(values: Values<'conformance'>): Promise<number> {
  if (!values.target) throw new UsageError('conformance needs --target <a target in the language whose shim to check>');
  if (values.lang) process.env.LOCK_ORACLES_LANG = values.lang;
  if (values.python) process.env.LOCK_ORACLES_PYTHON = values.python;
  const checks = await runConformance(values.target);
  for (const check of checks) {
    process.stdout.write(`${check.ok ? 'ok  ' : 'FAIL'}  ${check.name}${check.ok ? '' : `: ${check.problem}`}\n`);
  }
  const failed = checks.filter((c) => !c.ok).length;
  process.stdout.write(
    failed === 0
      ? `conformance: all ${checks.length} checks passed for ${values.target}\n`
      : `conformance: ${failed} of ${checks.length} checks failed for ${values.target}\n`,
  );
  return failed === 0 ? EXIT.PASS : EXIT.FAIL;
}
