/**
 * A user project as it would bind its own helper: `withLock(redis, key, ttlMs, fn)` on ioredis and
 * a three-line target using fromWithLock (test/fixtures/user-project/). The bare-DEL, no-renewal
 * helper FAILs V310 and V313; the fixed one (compare-and-delete, a fencing token passed to fn)
 * PASSes both, with every precondition held.
 */
import { describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { runOracle } from '../src/run/run-oracle.ts';

const project = 'test/fixtures/user-project';

describe('fromWithLock on a user project', () => {
  test('each target is three lines plus an import of the adapter', () => {
    for (const file of ['lock.target.ts', 'lock-fixed.target.ts']) {
      const lines = readFileSync(`${project}/${file}`, 'utf8').trim().split('\n');
      expect(lines).toHaveLength(4);
      expect(lines.at(-1)).toMatch(/^export default fromWithLock\(\(\{ url \}\) => new Redis\(url\), withLock/);
    }
  });

  test.each([
    ['V310', 'lock.target.ts', 'FAIL'],
    ['V310', 'lock-fixed.target.ts', 'PASS'],
    ['V313', 'lock.target.ts', 'FAIL'],
    ['V313', 'lock-fixed.target.ts', 'PASS'],
  ] as const)('%s on %s: %s', async (oracle, file, verdict) => {
    const record = await runOracle({ oracle, target: `${project}/${file}` });
    expect(record.verdict, record.explanation).toBe(verdict);
    expect(record.preconditions.every((c) => c.held)).toBe(true);
    if (verdict === 'FAIL') expect(record.property?.offending.length).toBeGreaterThan(0);
  });
});
