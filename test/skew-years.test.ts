/**
 * No parameter limit forbids the fault a real bug needs (issue 23): V318 takes a skew of a year
 * (a device clock a year ahead), which is never waited out, so the run's deadline stays minutes.
 */
import { expect, test } from 'vitest';
import { runOracle } from '../src/run/run-oracle.ts';

const YEAR_MS = 365 * 24 * 3_600_000;

test.each([
  ['targets/clock/lww-wall-clock.ts', 'FAIL'],
  ['targets/clock/lww-version-counter.ts', 'PASS'],
] as const)('V318 with a skew of a year on %s: %s', async (target, expected) => {
  const record = await runOracle({ oracle: 'V318', target, params: { skew: String(YEAR_MS) } });
  expect(record.verdict, record.explanation).toBe(expected);
  expect(record.params.skew).toBe(YEAR_MS);
  expect(record.counts.skewMs).toBe(YEAR_MS);
});

test('a skew past 100 years is refused, naming the option and the limit', async () => {
  await expect(
    runOracle({ oracle: 'V318', target: 'targets/clock/lww-wall-clock.ts', params: { skew: String(101 * YEAR_MS) } }),
  ).rejects.toThrow(/--skew must be at most/);
});
