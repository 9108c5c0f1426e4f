/**
 * Whether what a target's storeKey(env) returned names a place where its lock lives (a key, a hash
 * field, a Postgres lease row, a file lock: targets/contract.ts StoreLocation). Checked on the
 * harness's side, for a holder in any language (docs/holder-protocol.md: `init`'s value carries the
 * location as the target returned it).
 */
import type { StoreLocation } from '../../targets/contract.ts';

/** Why storeKey(env)'s result names no location, with the shapes to return instead; undefined when it names one. */
export function storeKeyProblem(location: StoreLocation): string | undefined {
  const named = (value: unknown) => typeof value === 'string' && value !== '';
  const ok =
    named(location) ||
    (typeof location === 'object' &&
      location !== null &&
      ('path' in location
        ? named(location.path) &&
          (location.staleMs === undefined || typeof location.staleMs === 'number') &&
          (location.flock === undefined || typeof location.flock === 'boolean') &&
          (location.record === undefined ||
            (named(location.record.owner) &&
              (location.record.expiresAt === undefined || named(location.record.expiresAt))))
        : named(location.key) &&
          ('field' in location
            ? named(location.field) && (location.expiresField === undefined || named(location.expiresField))
            : named(location.table) &&
              named(location.keyColumn) &&
              named(location.expiresColumn) &&
              (location.ownerColumn === undefined || named(location.ownerColumn)))));
  return ok
    ? undefined
    : `storeKey(env) returned ${JSON.stringify(location)}: return a key ('lock.' + env.key), { key, field, expiresField? } for a lock kept in a hash field, { table, keyColumn, key, expiresColumn, ownerColumn? } for a Postgres lease row, or { path, owner?, staleMs?, record?, flock? } for a file lock`;
}
