/**
 * A lease the app keeps in fields of its own (a Redis hash's owner and expiresField, a lease file's
 * JSON record, a Postgres lease row's owner column), read the way the app reads them: an owner or
 * expiry that is empty, blank or absent is the app saying "free" (a queue worker clearing its claim
 * with `HSET job:k lockId '' lockExpiresAt ''`), so no lease is held there; an expiry that holds
 * something that is no instant cannot be judged, and the read says so (`unreadable`) instead of
 * failing the run. Shared by the families that read such fields.
 */
import type { AppClockExpiry, LockState } from './family.ts';

/** A field's value as read: absent (HGET nil, a record without it, SQL NULL) or what it held. */
export type FieldValue = string | number | null | undefined;

/** Absent, empty or whitespace only: the app's way of saying no lease is held. */
export function isBlank(value: FieldValue): value is string | null | undefined {
  return value === null || value === undefined || (typeof value === 'string' && value.trim() === '');
}

/** An ISO 8601 date or date-time (Date.parse alone takes "Dec 25" or "1 2" for instants in 2001). */
const ISO_8601 = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

/** The instant an expiry holds, epoch ms (ms since the epoch, or an ISO 8601 string); undefined when it is neither. */
export function instantOf(value: string | number): number | undefined {
  const text = String(value).trim();
  const atMs = /^\d+(\.\d+)?$/.test(text) ? Number(text) : ISO_8601.test(text) ? Date.parse(text) : NaN;
  return Number.isFinite(atMs) ? atMs : undefined;
}

/** `lockId ""` / `no lockId`: what a blank field held, for the evidence. */
export function blankInWords(field: string, value: string | null | undefined): string {
  return value === null || value === undefined ? `no ${field}` : `${field} ${JSON.stringify(value)}`;
}

/** Why a lease is free though its record is there: a blank owner or expiry, named. */
export function freeInWords(field: string, value: string | null | undefined, ownerValue?: string | null): string {
  const owner = ownerValue === undefined || ownerValue === null ? '' : ` (its owner ${JSON.stringify(ownerValue)})`;
  return `found ${blankInWords(field, value)}${owner}: the app's way of saying free, so no lease is held`;
}

/** Why an expiry that is no instant cannot be judged, naming where, the field and the value. */
export function notAnInstant(where: string, field: string, value: string | number): string {
  return `${where}: its expiry field ${field} holds ${JSON.stringify(value)}, neither ms since the epoch nor an ISO 8601 instant, so whether the lease was live cannot be told from this read (name the field that holds the lease's end, or leave it out to judge by the store's own expiry)`;
}

/**
 * A Redis hash-field claim as the app's own expiry says (storeKey's expiresField): free when its
 * owner or its expiry is blank, held while the owner is set and the instant is still ahead of the
 * harness's clock (`nowMs`), with the ms left as its pttlMs; an expiry that is no instant is an
 * unreadable read. `keyPttlMs` (-2: no key) tells a claim cleared in a hash that is there from no hash at all.
 */
export function byAppClock(
  value: string | null,
  rawExpiry: string | null,
  keyPttlMs: number,
  where: { key: string; owner: string; field: string },
  nowMs: number,
): Omit<LockState, 'where'> {
  const atMs = isBlank(rawExpiry) ? null : (instantOf(rawExpiry) ?? null);
  const expiry: AppClockExpiry = { field: where.field, raw: rawExpiry, atMs, comparedWithMs: nowMs };
  const free = (why: string) => ({ exists: false, value, pttlMs: -2, expiry, free: why });
  if (keyPttlMs === -2) return { exists: false, value, pttlMs: -2, expiry };
  if (isBlank(value)) return free(freeInWords(where.owner, value));
  if (isBlank(rawExpiry)) return free(freeInWords(where.field, rawExpiry, value));
  if (atMs === null)
    return { exists: true, value, pttlMs: -1, expiry, unreadable: notAnInstant(where.key, where.field, rawExpiry) };
  const leftMs = Math.floor(atMs - nowMs);
  return leftMs > 0 ? { exists: true, value, pttlMs: leftMs, expiry } : { exists: false, value, pttlMs: -2, expiry };
}

/** A lease record's fields as read: its owner, and its end (epoch ms) where it declares one; or why it is free or unreadable. */
export interface RecordLease {
  value: string | null;
  atMs?: number;
  free?: string;
  unreadable?: string;
}

/**
 * A lease record the app keeps as a whole (a lease file's JSON `{ ownerId, expiresAt }`): free
 * when its owner, or its declared expiry, is blank or absent; unreadable when that expiry is no instant.
 */
export function recordLease(
  record: Record<string, unknown>,
  fields: { owner: string; expiresAt?: string },
  where: string,
): RecordLease {
  const owner = fieldValue(record[fields.owner]);
  const value = owner === undefined || owner === null ? null : String(owner);
  if (isBlank(owner)) return { value, free: freeInWords(fields.owner, owner) };
  if (fields.expiresAt === undefined) return { value };
  const expires = fieldValue(record[fields.expiresAt]);
  if (isBlank(expires)) return { value, free: freeInWords(fields.expiresAt, expires, value) };
  const atMs = instantOf(expires);
  return atMs === undefined ? { value, unreadable: notAnInstant(where, fields.expiresAt, expires) } : { value, atMs };
}

/** A JSON field as a string or number; anything else (an object, a boolean) as its JSON text. */
function fieldValue(field: unknown): FieldValue {
  if (field === undefined || field === null || typeof field === 'string' || typeof field === 'number') return field;
  return JSON.stringify(field);
}
