/**
 * Each oracle judges only inside the window its property is about, and says INCONCLUSIVE when the
 * window closed (or cannot be seen) before the judgement. Real stores, real holder processes;
 * fixtures under test/fixtures/targets.
 */
import { describe, expect, test } from 'vitest';
import { runOracle } from '../src/run/run-oracle.ts';
import { unmet, unmetChecks } from './unmet.ts';

const fixture = (name: string) => `test/fixtures/targets/${name}.ts`;

describe("V319 judges a day only while the store's clock is in step at every advance that did work", () => {
  test('a replica stalling 1.5 s real time after its 200th working advance drifts the store clock: INCONCLUSIVE, not PASS', async () => {
    const record = await runOracle({
      oracle: 'V319',
      target: fixture('clock/cron-poller-stalls-late'),
      params: { days: 'Europe/Berlin:2025-06-01' },
    });
    expect(record.verdict).toBe('INCONCLUSIVE');
    expect(unmet(record)).toEqual(["the store's clock was in step with the simulated clock"]);
    expect(record.counts.storeSkewMaxMs).toBeGreaterThan(1000);
  }, 240_000);
});

describe("V317 counts an early takeover only when B's try was answered inside A's lease", () => {
  test("a correct lock whose B acquire lands after A's lease lapsed on time is INCONCLUSIVE, not an early takeover", async () => {
    const record = await runOracle({ oracle: 'V317', target: fixture('clock/slow-b-acquire'), store: 'redis' });
    expect(record.verdict).toBe('INCONCLUSIVE');
    expect(record.counts.earlyTakeovers).toBeGreaterThan(0);
    const unmetNames = unmet(record);
    expect(unmetNames.length).toBeGreaterThan(0);
    expect(unmetNames.every((name) => /B's early try was answered inside A's lease/.test(name))).toBe(true);
  }, 120_000);
});

describe('V311 counts B denied only when B tried after the key lapsed by its PTTL', () => {
  test('a correct lock whose denial comes back after B\'s whole TTL + grace: the lock frees (B takes it in the watch), and --strict-ttl on is INCONCLUSIVE, not "not within its TTL"', async () => {
    const record = await runOracle({ oracle: 'V311', target: fixture('slow-denial') });
    expect(record.verdict, record.explanation).toBe('PASS');
    expect(record.counts.bAcquired).toBe(1);
    expect(record.counts.observationsWithNoExpiry).toBe(0);
    const strict = await runOracle({ oracle: 'V311', target: fixture('slow-denial'), params: { strictTtl: 'on' } });
    expect(strict.verdict, strict.explanation).toBe('INCONCLUSIVE');
    expect(unmet(strict)).toEqual(["B's last try came after the key lapsed by its PTTL"]);
  }, 120_000);
});

describe("V311 counts B denied only while the store still shows A's key when B gives up", () => {
  // B's acquire refusing a lock its own SET took (redlock's clock check after a slow reply) was
  // called "the lock outlived its TTL" though the key held B's token.
  test('a correct lock whose B refuses by its own clock is INCONCLUSIVE, not "the lock outlived its TTL"', async () => {
    const record = await runOracle({ oracle: 'V311', target: fixture('acquire-refused-by-own-clock') });
    expect(record.verdict).toBe('INCONCLUSIVE');
    expect(record.counts.bAcquired).toBe(0);
    expect(record.counts.observationsWithNoExpiry).toBe(0);
    const failed = unmetChecks(record);
    expect(failed.map((c) => c.name)).toEqual(["A's key still held the lock when B gave up"]);
    expect(failed[0]!.detail).toMatch(/B's denial is the target's own/);
  }, 120_000);
});

describe("V312 takes the key for P's lock only while it holds P's token", () => {
  // The key holding A's token when A's job ended was taken for P's lock still live: a job that waits
  // for the lock, takes it once P's lease lapsed and writes FAILed.
  test("a job that waits out P's lease, then writes on the free lock, is INCONCLUSIVE, not FAIL", async () => {
    const record = await runOracle({
      oracle: 'V312',
      target: fixture('job-waits-then-keeps-lease'),
      params: { ttl: 1000 },
    });
    expect(record.verdict).toBe('INCONCLUSIVE');
    expect(record.counts.aEffects).toBe(1);
    const failed = unmetChecks(record);
    expect(failed.map((c) => c.name)).toEqual(["P's lock was still live when A's job ended"]);
    expect(failed[0]!.detail).toMatch(/not P's token/);
  }, 120_000);
});

describe('V316 counts a late firing only when the wall-clock step explains it', () => {
  // A correct monotonic guard in a process starved of CPU as it fell due fired ~300 ms late and was
  // called a guard that follows the wall clock (B's clock stepped forward, yet it fired late).
  test('a monotonic guard whose process is starved 400 ms as it falls due is INCONCLUSIVE, not FAIL', async () => {
    const record = await runOracle({ oracle: 'V316', target: fixture('clock/timeout-monotonic-starved') });
    expect(record.verdict).toBe('INCONCLUSIVE');
    expect(record.counts.AErrorMs).toBeGreaterThan(250);
    expect(record.counts.BErrorMs).toBeGreaterThan(250);
    expect(unmet(record)).toEqual([
      "A's late firing is its wall-clock step's doing",
      "B's late firing is its wall-clock step's doing",
    ]);
  }, 120_000);
});
