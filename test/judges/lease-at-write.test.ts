/**
 * Each of A's writes judged by B's lock as read just before the harness accepted it
 * (src/judging/lease-at-write.ts): live by its PTTL, gone, another's, or a session lock kept. Pure.
 */
import { describe, expect, it } from 'vitest';
import type { EffectRecord } from '../../src/core/resource.ts';
import { leaseAtWrites, type LeaseReading } from '../../src/judging/lease-at-write.ts';

const write = (seq: number, t: number): EffectRecord => ({ seq, t, holder: 'A', name: 'write', accepted: true });
const store = (over: Partial<Extract<LeaseReading, { kind: 'store' }>>): LeaseReading => ({
  kind: 'store',
  where: 'GET k',
  sentAt: 100,
  receivedAt: 101,
  exists: true,
  value: 'B',
  pttlMs: 50,
  ...over,
});
const atFirst = store({ sentAt: 0, receivedAt: 1, pttlMs: 300 });

describe("B's lease at each of A's writes", () => {
  it('is live when the reading before the write leaves it time past the write', () => {
    const [judged] = leaseAtWrites([write(7, 120)], [{ seq: 7, reading: store({}) }], atFirst);
    expect(judged!.live).toBe(true);
  });

  it('is not live when the PTTL read ran out before the write was accepted', () => {
    const [judged] = leaseAtWrites([write(7, 160)], [{ seq: 7, reading: store({}) }], atFirst);
    expect(judged!.live).toBe(false);
  });

  it("is not live when the key was gone or held another's token", () => {
    const gone = leaseAtWrites([write(7, 120)], [{ seq: 7, reading: store({ exists: false, pttlMs: -2 }) }], atFirst);
    const other = leaseAtWrites([write(7, 120)], [{ seq: 7, reading: store({ value: 'A' }) }], atFirst);
    expect([gone[0]!.live, other[0]!.live]).toEqual([false, false]);
    expect(other[0]!.why).toMatch(/someone else held the lock/);
  });

  it('is not live when B\'s claim was emptied (the app\'s "free"), and says what the field held', () => {
    const free = 'found lockId "": the app\'s way of saying free, so no lease is held';
    const emptied = store({ exists: false, value: '', pttlMs: -2, free });
    const [judged] = leaseAtWrites([write(7, 120)], [{ seq: 7, reading: emptied }], atFirst);
    expect(judged!.live).toBe(false);
    expect(judged!.why).toContain(`${free}: B's lease was gone`);
    expect(judged!.why).not.toContain('found nothing');
  });

  it('says what is known of a key with no expiry: live as read, nothing more', () => {
    const [judged] = leaseAtWrites([write(7, 120)], [{ seq: 7, reading: store({ pttlMs: -1 }) }], atFirst);
    expect(judged!.live).toBe(true);
    expect(judged!.why).toMatch(/no expiry in the store \(PTTL -1\).*declare it/);
  });

  it('is not live for a write with no reading', () => {
    expect(leaseAtWrites([write(7, 120)], [], atFirst)[0]!.live).toBe(false);
  });

  it("is live while B's session of its first write still holds its session lock", () => {
    const session = (bSessions: number[]): LeaseReading => ({
      kind: 'session',
      sentAt: 100,
      receivedAt: 101,
      bSessions,
      locationUnread: 'a session lock',
    });
    const kept = leaseAtWrites([write(7, 120)], [{ seq: 7, reading: session([42]) }], session([42]));
    const lost = leaseAtWrites([write(7, 120)], [{ seq: 7, reading: session([]) }], session([42]));
    const never = leaseAtWrites([write(7, 120)], [{ seq: 7, reading: session([42]) }], session([]));
    expect([kept[0]!.live, lost[0]!.live, never[0]!.live]).toEqual([true, false, false]);
  });
});
