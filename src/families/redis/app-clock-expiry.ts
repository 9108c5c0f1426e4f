/**
 * A lease whose end the app writes in a hash field on its own clock (storeKey's expiresField): the
 * instant parsed (ms since the epoch, or an ISO 8601 string) and compared with the harness's own
 * wall clock, which no fault skews.
 */
import type { AppClockExpiry, LockState } from '../family.ts';

/** The instant an expiry field holds, epoch ms; an error naming the field when it is neither form. */
export function parseExpiryInstant(raw: string, field: string, key: string): number {
  const atMs = /^\s*\d+(\.\d+)?\s*$/.test(raw) ? Number(raw) : Date.parse(raw);
  if (Number.isNaN(atMs))
    throw new Error(
      `the expiry field ${field} of ${key} (storeKey's expiresField) holds ${JSON.stringify(raw)}, neither ms since the epoch nor an ISO 8601 instant: name the field that holds the lease's end, or leave expiresField out to judge by the key's PTTL`,
    );
  return atMs;
}

/**
 * The lock as the app's own expiry says: held while the owner field is set and the instant is
 * still ahead of the harness's clock (`nowMs`), with the ms left as its pttlMs. With the expiry
 * field empty the key's PTTL stands, and the evidence says the field held nothing.
 */
export function byAppClock(
  value: string | null,
  rawExpiry: string | null,
  keyPttlMs: number,
  where: { key: string; field: string },
  nowMs: number,
): Omit<LockState, 'where'> {
  const atMs = rawExpiry === null ? null : parseExpiryInstant(rawExpiry, where.field, where.key);
  const expiry: AppClockExpiry = { field: where.field, raw: rawExpiry, atMs, comparedWithMs: nowMs };
  if (value === null) return { exists: false, value, pttlMs: -2, expiry };
  if (atMs === null) return { exists: true, value, pttlMs: keyPttlMs, expiry };
  const leftMs = Math.floor(atMs - nowMs);
  return leftMs > 0 ? { exists: true, value, pttlMs: leftMs, expiry } : { exists: false, value, pttlMs: -2, expiry };
}
