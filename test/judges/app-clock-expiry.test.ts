/**
 * A lease whose end the app writes in a hash field (storeKey's expiresField), read by the harness:
 * the instant parsed (epoch ms or ISO 8601), compared with the harness's clock, and a field that is
 * neither refused with its name. Pure: no store.
 */
import { describe, expect, it } from 'vitest';
import { byAppClock, parseExpiryInstant } from '../../src/families/redis/app-clock-expiry.ts';

const where = { key: 'job:k', field: 'lockExpiresAt' };
const now = Date.parse('2026-12-01T12:00:00.000Z');

describe('an app-clock expiry field', () => {
  it('reads epoch ms and ISO 8601 as the same instant', () => {
    expect(parseExpiryInstant(String(now + 250), 'lockExpiresAt', 'job:k')).toBe(now + 250);
    expect(parseExpiryInstant('2026-12-01T12:00:00.250Z', 'lockExpiresAt', 'job:k')).toBe(now + 250);
  });

  it('refuses a value that is neither, naming the field and the key', () => {
    expect(() => parseExpiryInstant('soon', 'lockExpiresAt', 'job:k')).toThrow(/lockExpiresAt of job:k .*"soon"/);
  });

  it("holds the lock while the instant is ahead of the harness's clock, with the ms left as its PTTL", () => {
    const state = byAppClock('B', '2026-12-01T12:00:00.250Z', -1, where, now);
    expect(state).toMatchObject({ exists: true, value: 'B', pttlMs: 250 });
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

  it("falls back to the key's PTTL when the field is empty, and says it was", () => {
    const state = byAppClock('B', null, -1, where, now);
    expect(state).toMatchObject({ exists: true, pttlMs: -1 });
    expect(state.expiry?.raw).toBeNull();
  });
});
