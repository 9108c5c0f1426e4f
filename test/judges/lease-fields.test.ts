/**
 * A lease the app keeps in fields of its own (a Redis hash's owner and expiresField, a lease file's
 * JSON record), read by the harness: the instant parsed (epoch ms or ISO 8601) and compared with
 * the harness's clock; a blank or absent owner or expiry read as the app's "free"; an expiry that
 * is no instant an unreadable read, naming the field and the value. Pure: no store.
 */
import { describe, expect, it } from 'vitest';
import { byAppClock, instantOf, isBlank, recordLease } from '../../src/families/lease-fields.ts';

const where = { key: 'job:k', owner: 'lockId', field: 'lockExpiresAt' };
const now = Date.parse('2026-12-01T12:00:00.000Z');

describe('an app-clock expiry field', () => {
  it('reads epoch ms and ISO 8601 as the same instant, and nothing else as one', () => {
    expect(instantOf(String(now + 250))).toBe(now + 250);
    expect(instantOf(now + 250)).toBe(now + 250);
    expect(instantOf('2026-12-01T12:00:00.250Z')).toBe(now + 250);
    expect(instantOf(' 2026-12-01T13:00:00.250+01:00 ')).toBe(now + 250);
    // Date.parse alone would take these for instants in 2001.
    for (const loose of ['soon', 'Dec 25', '1 2', 'PT0.2S']) expect(instantOf(loose)).toBeUndefined();
  });

  it('takes empty, whitespace and absent for blank, and nothing else', () => {
    expect([null, undefined, '', '  \t'].map(isBlank)).toEqual([true, true, true, true]);
    expect(['0', 'x', 0].map(isBlank)).toEqual([false, false, false]);
  });

  it("holds the lock while the instant is ahead of the harness's clock, with the ms left as its PTTL", () => {
    const state = byAppClock('B', '2026-12-01T12:00:00.250Z', -1, where, now);
    expect(state).toMatchObject({ exists: true, value: 'B', pttlMs: 250 });
    expect(state.free).toBeUndefined();
    expect(state.unreadable).toBeUndefined();
    expect(state.expiry).toEqual({
      field: 'lockExpiresAt',
      raw: '2026-12-01T12:00:00.250Z',
      atMs: now + 250,
      comparedWithMs: now,
    });
  });

  it('shows a claim whose instant has passed as gone, though the hash (PTTL -1) is still there', () => {
    expect(byAppClock('B', String(now - 1), -1, where, now)).toMatchObject({ exists: false, value: 'B', pttlMs: -2 });
  });

  it("reads a claim cleared with empty fields as free, and says the field held '' (not that nothing was found)", () => {
    const state = byAppClock('', '', -1, where, now);
    expect(state).toMatchObject({ exists: false, pttlMs: -2 });
    expect(state.free).toBe('found lockId "": the app\'s way of saying free, so no lease is held');
  });

  it('reads an owner set with an empty or absent expiry as free, naming the expiry field and the owner', () => {
    for (const expiry of ['', ' ', null]) {
      const state = byAppClock('B', expiry, -1, where, now);
      expect(state).toMatchObject({ exists: false, value: 'B', pttlMs: -2 });
      expect(state.free).toMatch(
        /^found (lockExpiresAt "\s*"|no lockExpiresAt) \(its owner "B"\): the app's way of saying free/,
      );
    }
  });

  it('reads an absent owner in a hash that is there as free, and no hash at all as nothing', () => {
    expect(byAppClock(null, null, -1, where, now).free).toBe(
      "found no lockId: the app's way of saying free, so no lease is held",
    );
    expect(byAppClock(null, null, -2, where, now)).toMatchObject({ exists: false, pttlMs: -2 });
    expect(byAppClock(null, null, -2, where, now).free).toBeUndefined();
  });

  it('keeps an expiry that is no instant as an unreadable read, naming the key, the field and the value, and throws nothing', () => {
    const state = byAppClock('B', 'soon', -1, where, now);
    expect(state).toMatchObject({ exists: true, value: 'B', pttlMs: -1 });
    expect(state.unreadable).toMatch(
      /^job:k: its expiry field lockExpiresAt holds "soon", neither ms since the epoch nor an ISO 8601 instant/,
    );
  });
});

describe("a lease file's JSON record", () => {
  const fields = { owner: 'ownerId', expiresAt: 'expiresAt' };

  it('gives its owner and its end, in ms or ISO 8601', () => {
    expect(recordLease({ ownerId: 'B', expiresAt: now + 5 }, fields, 'k.lock')).toEqual({ value: 'B', atMs: now + 5 });
    expect(recordLease({ ownerId: 'B', expiresAt: '2026-12-01T12:00:00.005Z' }, fields, 'k.lock')).toEqual({
      value: 'B',
      atMs: now + 5,
    });
  });

  it('is free with a blank, null or absent owner or expiry', () => {
    expect(recordLease({ ownerId: '', expiresAt: '' }, fields, 'k.lock').free).toMatch(/^found ownerId ""/);
    expect(recordLease({ ownerId: null, expiresAt: now }, fields, 'k.lock')).toEqual({
      value: null,
      free: expect.stringMatching(/^found no ownerId/),
    });
    expect(recordLease({ ownerId: 'B' }, fields, 'k.lock').free).toMatch(/^found no expiresAt \(its owner "B"\)/);
    expect(recordLease({ ownerId: 'B' }, { owner: 'ownerId' }, 'k.lock')).toEqual({ value: 'B' });
  });

  it('is unreadable with an expiry that is no instant, naming the path, the field and the value', () => {
    expect(recordLease({ ownerId: 'B', expiresAt: { at: 1 } }, fields, 'k.lock')).toEqual({
      value: 'B',
      unreadable: expect.stringMatching(/^k\.lock: its expiry field expiresAt holds "\{\\"at\\":1\}"/),
    });
  });
});
