/**
 * Where a target says its lock lives (storeKey): a Redis key, a hash field, or a Postgres lease
 * row. How each is named in the evidence, whichever store the harness reads it from.
 */
import type { FileLock, LeaseRow, StoreLocation } from '../../targets/contract.ts';

/** The key a location names (the hash's key for a hash field, the key column's value for a lease row, a file lock's path). */
export function keyOf(location: StoreLocation): string {
  return typeof location === 'string' ? location : isFileLock(location) ? location.path : location.key;
}

/** A location in a file store (a path with its owner file and stale time), not in a Redis key. */
export function isFileLock(location: StoreLocation): location is FileLock {
  return typeof location === 'object' && 'path' in location;
}

/** A location in a Postgres table (a lease row), not in a Redis key. */
export function isLeaseRow(location: StoreLocation): location is LeaseRow {
  return typeof location === 'object' && 'table' in location;
}

/** How the harness reads a location, as the evidence shows it. */
export function describeLocation(location: StoreLocation): string {
  if (typeof location === 'string') return `GET ${location}`;
  if (isLeaseRow(location))
    return `${location.expiresColumn} - now() of ${location.table} where ${location.keyColumn} = '${location.key}'`;
  if (isFileLock(location)) return `stat ${location.path}`;
  return location.expiresField === undefined
    ? `HGET ${location.key} ${location.field}`
    : `HMGET ${location.key} ${location.field} ${location.expiresField} (its end on the app's clock)`;
}
