/**
 * `npm run oracle -- list [--json]`: every oracle with its parameters, the target members it needs,
 * its explore support and its references (src/cli/listing.ts makes it; the dist build keeps it made).
 */
import { EXIT } from '../exit-codes.ts';
import { readListing } from '../listing.ts';
import { oracleIdOf } from '../../run/registry.ts';
import type { Values } from '../options/values.ts';

export async function list(values: Values<'list'>): Promise<number> {
  const listing = await readListing();
  process.stdout.write(
    values.json ? `${JSON.stringify(listing.json, null, 2)}\n` : Object.values(listing.text).join('\n'),
  );
  return EXIT.PASS;
}

/** `<ID> --help`: one oracle's part of the listing (an unknown id is a usage error naming the known ones). */
export async function describeOracle(id: string): Promise<string> {
  return (await readListing()).text[oracleIdOf(id)]!;
}
