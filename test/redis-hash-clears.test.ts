/**
 * A lock kept in a Redis hash field is freed by clearing the field, as job queues clear a claim:
 * the family's delete patterns for such a location (what V310 --variant narrow holds at A's wire
 * proxy) match HDEL of the field, HSET of it to '' and a script that hdels or hsets it to '', on
 * the lock's key only, and never a claim that sets it. Commands framed from real RESP bytes. Pure.
 */
import { describe, expect, it } from 'vitest';
import { redisFamily } from '../src/families/redis/index.ts';
import { matchesPattern, type WireCommand } from '../src/wire/command.ts';
import { RespRequestFramer } from '../src/wire/resp-framer.ts';

const framed = (...args: string[]): WireCommand => {
  const bytes = Buffer.from(`*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('')}`);
  return new RespRequestFramer().push(bytes)[0]!.command!;
};
const claim = { key: 'job:k', field: 'lockId', expiresField: 'lockExpiresAt' };
const deletes = (command: WireCommand, location: Parameters<NonNullable<typeof redisFamily.commands.delete>>[0]) =>
  redisFamily.commands.delete!(location).some((pattern) => matchesPattern(command, pattern));

describe("a hash-field lock's delete, as the wire proxy recognises it", () => {
  it("matches HDEL of the field and HSET of it to '' (or blank), on the lock's key", () => {
    expect(deletes(framed('HDEL', 'job:k', 'lockId', 'lockExpiresAt'), claim)).toBe(true);
    expect(deletes(framed('HSET', 'job:k', 'lockId', '', 'lockExpiresAt', ''), claim)).toBe(true);
    expect(deletes(framed('HMSET', 'job:k', 'lockExpiresAt', '', 'lockId', ' '), claim)).toBe(true);
    expect(deletes(framed('HSET', 'job:other', 'lockId', ''), claim)).toBe(false);
  });

  it('does not match a claim or a renewal that sets the field, nor HDEL of another field', () => {
    expect(deletes(framed('HSET', 'job:k', 'lockId', 'B', 'lockExpiresAt', ''), claim)).toBe(false);
    expect(deletes(framed('HSET', 'job:k', 'lockId', 'B', 'lockExpiresAt', '2026-12-03T10:00:00Z'), claim)).toBe(false);
    expect(deletes(framed('HDEL', 'job:k', 'progress'), claim)).toBe(false);
  });

  it("matches a script that hdels or hsets the field to '', and not one that claims it", () => {
    const empties = "redis.call('hset', KEYS[1], 'lockId', '', 'lockExpiresAt', '')";
    const hdels = "redis.call('hdel', KEYS[1], 'lockId', 'lockExpiresAt')";
    const claims = "redis.call('hset', KEYS[1], 'lockId', ARGV[1], 'lockExpiresAt', ARGV[2])";
    expect(deletes(framed('EVAL', empties, '1', 'job:k', 'A'), claim)).toBe(true);
    expect(deletes(framed('EVAL', hdels, '1', 'job:k', 'A'), claim)).toBe(true);
    expect(deletes(framed('EVAL', claims, '1', 'job:k', 'A', '1'), claim)).toBe(false);
  });

  it('adds nothing for a lock in a key of its own: a hash command there is no delete', () => {
    expect(deletes(framed('HDEL', 'lock.k', 'lockId'), 'lock.k')).toBe(false);
    expect(deletes(framed('DEL', 'lock.k'), 'lock.k')).toBe(true);
  });
});
