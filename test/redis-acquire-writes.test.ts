/**
 * Which value each Redis command writes (or hands a script) where it takes a lock
 * (src/families/redis/lock-keys.ts redisAcquireWrites): what tells whose acquire wrote the value the
 * harness reads at the lock (src/judging/ownership.ts). Pure parsing of commands as the wire proxy frames them.
 */
import { describe, expect, it } from 'vitest';
import { redisAcquireWrites } from '../src/families/redis/lock-keys.ts';
import type { WireCommand } from '../src/wire/command.ts';

const command = (name: string, ...args: string[]): WireCommand => ({
  protocol: 'redis',
  name,
  args,
  text: `${name} ${args.join(' ')}`,
});

describe('redisAcquireWrites', () => {
  it('reads the value of SET … NX, SETNX and HSETNX, and nothing of a plain SET or a GET', () => {
    expect(redisAcquireWrites(command('SET', 'k', 'v1', 'PX', '200', 'NX'))).toEqual([{ location: 'k', value: 'v1' }]);
    expect(redisAcquireWrites(command('SETNX', 'k', 'v2'))).toEqual([{ location: 'k', value: 'v2' }]);
    expect(redisAcquireWrites(command('HSETNX', 'job', 'owner', 'v3'))).toEqual([
      { location: { key: 'job', field: 'owner' }, value: 'v3' },
    ]);
    expect(redisAcquireWrites(command('SET', 'k', 'v4'))).toEqual([]);
    expect(redisAcquireWrites(command('GET', 'k'))).toEqual([]);
  });

  it("hands each key a script names every argument after the keys, marked as a script's", () => {
    expect(redisAcquireWrites(command('EVAL', 'return 1', '1', 'k', 'tok', '200'))).toEqual([
      { location: 'k', value: 'tok', byScript: true },
      { location: 'k', value: '200', byScript: true },
    ]);
    expect(redisAcquireWrites(command('EVALSHA', 'abc', '0', 'tok'))).toEqual([]);
  });
});
