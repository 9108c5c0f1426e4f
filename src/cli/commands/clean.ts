/**
 * npm run oracle -- clean [--json]: remove what runs killed outright (SIGKILL) left behind —
 * their temp dirs (/tmp/lock-oracles-<store>-*) and their store containers — and nothing of a
 * run still going (src/run/reaper.ts). Every run does the same first; this is for the time between.
 */
import { reapLeftovers } from '../../run/reaper.ts';
import { EXIT } from '../exit-codes.ts';
import type { Values } from '../options/values.ts';

export async function clean(values: Values<'clean'>): Promise<number> {
  const reaped = await reapLeftovers();
  if (values.json) {
    process.stdout.write(`${JSON.stringify(reaped, null, 2)}\n`);
  } else {
    for (const what of reaped.removed) process.stdout.write(`removed ${what}\n`);
    for (const what of reaped.failed) process.stderr.write(`could not remove ${what}\n`);
    if (!reaped.removed.length && !reaped.failed.length) process.stdout.write('nothing left behind by a dead run\n');
  }
  return reaped.failed.length ? EXIT.ERROR : EXIT.PASS;
}
