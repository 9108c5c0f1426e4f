/**
 * `--explore` on the fs store: A's boundaries are its filesystem calls (no wire, no seam needed),
 * traced as `release#3 rm <key>.lock` and each held before it, its result held, or A killed once it
 * ran. V310 FAILs the owner-checked mkdir lock at a filesystem boundary (its compare-then-rm is not
 * atomic), V311 PASSes the stale-takeover lock at every point and FAILs its twin with no staleness
 * rule. Real holders on a real directory.
 */
import { describe, expect, test } from 'vitest';
import { explore } from '../src/explore/explore.ts';

describe('--explore on --store fs', () => {
  test("V310: the owner-checked mkdir lock FAILs at a filesystem boundary of A's release", async () => {
    // A 500 ms TTL, as V310's explored references use: 25 points (its renewal's and its release's) on a loaded machine (120 s at load 30).
    const { record, schedule } = await explore({
      oracle: 'V310',
      target: 'targets/fs/mkdir-lock.ts',
      store: 'fs',
      params: { ttl: 500 },
    });
    const points = record.exploration!.points;
    expect(record.verdict).toBe('FAIL');
    expect(schedule!.boundary.kind).toBe('fs');
    expect(points.map((p) => p.command)).toEqual(
      expect.arrayContaining(['readFile lock-oracles:V310.lock/owner', 'rm lock-oracles:V310.lock']),
    );
    expect(points.filter((p) => p.command === 'rm lock-oracles:V310.lock').map((p) => p.verdict)).toContain('FAIL');
    // Its renewal (extend: readFile owner, utimes) is explored too, each point under both --renewal schedules.
    expect(points.some((p) => p.boundary.part === 'renewal')).toBe(true);
  }, 300_000);

  test('V311: the stale-takeover lock PASSes at every filesystem boundary of its acquire; its twin with no staleness rule FAILs', async () => {
    const good = await explore({ oracle: 'V311', target: 'targets/fs/mkdir-lock.ts', store: 'fs' });
    expect(good.record.exploration!.points.map((p) => [p.command, p.verdict])).toEqual([
      ['mkdir lock-oracles:V311.lock', 'PASS'],
      ['writeFile lock-oracles:V311.lock/owner', 'PASS'],
    ]);
    const bad = await explore({ oracle: 'V311', target: 'targets/fs/mkdir-no-stale.ts', store: 'fs' });
    expect(bad.record.verdict).toBe('FAIL');
    expect(bad.record.exploration!.points.every((p) => p.verdict === 'FAIL')).toBe(true);
  }, 120_000);
});
