/**
 * When the fault does not land, V315-V319 (and the wire holds of V310 and V313) say INCONCLUSIVE,
 * never PASS, naming the precondition that was not met; nothing counts as violated.
 */
import { describe, expect, test } from 'vitest';
import { runOracle } from '../src/run/run-oracle.ts';
import { unmet } from './unmet.ts';

const fixture = (name: string) => `test/fixtures/targets/${name}.ts`;

describe('INCONCLUSIVE when the fault did not land (V315-V319, wire holds)', () => {
  test("V315 on a leader with a hard-coded 60 s lease: cut off, A's lease never lapses and B never leads", async () => {
    const record = await runOracle({
      oracle: 'V315',
      target: fixture('leader/fixed-long-lease'),
      params: { ttl: 100, timeout: 600 },
    });
    expect(record.verdict).toBe('INCONCLUSIVE');
    expect(unmet(record)).toEqual(['B became leader and wrote while A was cut off']);
    expect(record.counts).toMatchObject({ bWrites: 0, aWritesAcceptedAfterBFirstWrite: 0, overlapMs: 0 });
  });

  test('V316 on an operation that returns before the clock step: its guard never ran when the clock moved', async () => {
    const record = await runOracle({
      oracle: 'V316',
      target: fixture('clock/timeout-fast-operation'),
      params: { ttl: 400, tolerance: 100 },
    });
    expect(record.verdict).toBe('INCONCLUSIVE');
    // The fast operation always returns before its limit; it returns before the step unless the machine stalls for ~200 ms.
    expect(unmet(record)).toEqual(
      expect.arrayContaining([
        "A's operation was still running when its timeout was due",
        "B's operation was still running when its timeout was due",
      ]),
    );
    for (const name of unmet(record))
      expect(name).toMatch(
        /^[AB]'s (wall-clock step landed mid-operation|operation was still running when its timeout was due)$/,
      );
    expect(record.counts).toMatchObject({ AFiredAfterMs: -1, BFiredAfterMs: -1 });
  });

  test('V317 on a lease row that is only ever taken over, never inserted: A is denied on the empty database', async () => {
    const record = await runOracle({ oracle: 'V317', target: fixture('clock/lease-takeover-only'), store: 'postgres' });
    expect(record.verdict).toBe('INCONCLUSIVE');
    expect(unmet(record)).toEqual(['app-ahead: A took the lease', 'store-ahead: A took the lease']);
    expect(record.counts).toMatchObject({
      earlyTakeovers: 0,
      skippedTakeovers: 0,
      'app-ahead overlapMs': 0,
      'store-ahead overlapMs': 0,
    });
  });

  test("V318 on a writer that drops writes stamped in the future: A's write never lands, so B's wins unopposed", async () => {
    const record = await runOracle({ oracle: 'V318', target: fixture('clock/lww-rejects-future-stamps') });
    expect(record.verdict).toBe('INCONCLUSIVE');
    expect(unmet(record)).toEqual(["both writes happened, A's before B's in real time"]);
    expect(record.preconditions.find((c) => !c.held)?.detail).toMatch(/A's write is not in the record/);
    // Without the precondition this would be a PASS: the later write (B's) is what the record holds.
    expect(record.counts.laterWriteWon).toBe(1);
  });

  test('V319 on a CronJob that is never started: no replica arms a timer', async () => {
    const record = await runOracle({
      oracle: 'V319',
      target: fixture('clock/cron-never-started'),
      params: { replicas: 2, days: 'Europe/Berlin:2025-03-30' },
    });
    expect(record.verdict).toBe('INCONCLUSIVE');
    expect(unmet(record)).toEqual(["every replica's scheduler was armed"]);
    expect(record.preconditions.find((c) => !c.held)?.detail).toMatch(/R1, R2 had no timer pending/);
    expect(record.counts).toMatchObject({
      'Europe/Berlin 2025-03-30 fires': 0,
      'Europe/Berlin 2025-03-30 R1': 0,
      'Europe/Berlin 2025-03-30 R2': 0,
    });
  });

  test('V319 on a scheduler that storms zero-delay timers all day: the day stops at its CPU budget, saying how far it got, with small evidence', async () => {
    const record = await runOracle({
      oracle: 'V319',
      target: fixture('clock/timer-storm'),
      params: { replicas: 2, days: 'Europe/Berlin:2025-10-26,America/New_York:2025-11-02', cpuBudget: 1500 },
    });
    expect(record.verdict).toBe('INCONCLUSIVE');
    expect(unmet(record)).toEqual(['every day ran to its end within its CPU and real-time budgets']);
    const detail = record.preconditions.find((c) => !c.held)?.detail;
    // The stopped day decides the run: the next day is not simulated (it would only spend the deadline).
    expect(detail).toMatch(/not simulated after it: America\/New_York 2025-11-02$/);
    // From 02:00 the fixture re-arms a zero-delay timer each simulated ms (1 ms once inside a tick).
    // The rate the message reports is a measurement, not a property: in a CI-like run the budget ran
    // out at 02:02:40 with the last timers at 22 per simulated second, so only its form is checked.
    expect(detail).toMatch(
      /stopped at 2025-10-26 0\d:\d\d:\d\d.*: (replica R\d spent its CPU budget \(1\.\d s of 1\.5 s\)|the day spent its real-time budget .*) on \d+ timers, the last ones at \d+ per simulated second; /,
    );
    expect(record.counts['Europe/Berlin 2025-10-26 timers']).toBeGreaterThan(1000);
    expect(JSON.stringify(record).length).toBeLessThan(5_000_000);
  });

  test('V313 renewal-wire on a job that never renews: there is no renewal to hold', async () => {
    const record = await runOracle({
      oracle: 'V313',
      target: 'targets/redis/ioredis/lease-no-renewal.ts',
      params: { variant: 'renewal-wire', ttl: 100, timeout: 600 },
    });
    expect(record.verdict).toBe('INCONCLUSIVE');
    expect(unmet(record)).toEqual(["A's renewal was held at the wire"]);
    expect(record.preconditions.find((c) => !c.held)?.detail).toMatch(/ended without renewing/);
    expect(record.counts).toMatchObject({ bWrites: 0, aWritesAcceptedAfterBFirstWrite: 0, overlapMs: 0 });
  });

  test('V310 narrow --hold wire on a release that ends the lock with PEXPIRE, not a delete: the hold never lands', async () => {
    const record = await runOracle({
      oracle: 'V310',
      target: fixture('release-get-compare-pexpire'),
      params: { variant: 'narrow', hold: 'wire' },
    });
    expect(record.verdict).toBe('INCONCLUSIVE');
    expect(unmet(record)).toEqual(['A was held inside its release, before its delete']);
    expect(record.preconditions.find((c) => !c.held)?.detail).toMatch(
      /without sending a delete of the lock's key the wire proxy recognises/,
    );
    expect(record.counts).toMatchObject({ cAcquired: 0, keyGoneAfterRelease: 0 });
  });
});
