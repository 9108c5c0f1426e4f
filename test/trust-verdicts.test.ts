/**
 * Verdicts that stay honest when the target or the machine is hostile: a slow acquire, an acquire
 * returning a non-lease. Real stores, real holder processes; fixtures under test/fixtures/targets.
 */
import { describe, expect, test } from 'vitest';
import type { EvidenceRecord } from '../src/report/evidence.ts';
import { runOracle } from '../src/run/run-oracle.ts';
import { unmet, unmetChecks } from './unmet.ts';

const fixture = (name: string) => `test/fixtures/targets/${name}.ts`;

/** INCONCLUSIVE for this reason alone: A's writes after B's first came once B's lease, read on its declared Postgres row, had lapsed. */
function expectOutsideBLeaseReadOnItsRow(record: EvidenceRecord): void {
  expect(record.verdict).toBe('INCONCLUSIVE');
  expect(unmet(record)).toEqual(["B's lease was live at A's writes after B's first"]);
  expect(
    record.history.some(
      (e) =>
        e.kind === 'store-observed' && String(e.detail.where).startsWith('lease_until - now() of lock_oracles_leases'),
    ),
  ).toBe(true);
}

describe("V310 judges only while B's lease is live", () => {
  test.each(['pause', 'narrow'])(
    'a correct lock whose acquire outlasts the TTL is never FAIL (--variant %s)',
    async (variant) => {
      const record = await runOracle({
        oracle: 'V310',
        target: fixture('lock-correct-slow-acquire'),
        params: { variant },
      });
      expect(record.verdict).toBe('INCONCLUSIVE');
      expect(record.preconditions.find((c) => !c.held)?.name).toBe("B's lease was live when the harness judged");
      expect(record.explanation).toMatch(/slower than the 200 ms TTL/);
    },
  );
});

describe("V310 does not count a refusal of B's the store contradicts", () => {
  // Seen under stress with redlock (--variant narrow): B's extend refused by redlock's own clock
  // after a slow acquire, while the key still held B's token, was taken as A's release's damage.
  test.each(['pause', 'narrow'])(
    'a correct lock whose extend refuses by its own clock is never FAIL (--variant %s)',
    async (variant) => {
      const record = await runOracle({
        oracle: 'V310',
        target: fixture('extend-refused-by-own-clock'),
        params: { variant },
      });
      expect(['PASS', 'INCONCLUSIVE']).toContain(record.verdict);
      expect(record.counts.bRefusedOnItsOwnLease).toBe(0);
      if (record.verdict === 'PASS')
        expect(record.explanation).toMatch(/the refusal is the target's own .* not counted/);
    },
  );
});

describe("V313 judges A's writes only while B's lease is live", () => {
  test("a job that re-takes the lock after B's lease lapsed and writes is never FAIL", async () => {
    const record = await runOracle({ oracle: 'V313', target: fixture('job-retakes-free-lock') });
    expect(record.verdict).toBe('INCONCLUSIVE');
    expect(record.counts.aWritesAcceptedAfterBFirstWrite).toBe(1);
    expect(unmet(record)).toEqual(["B's lease was live at A's writes after B's first"]);
  });

  // --contender come-and-go: B's lease is gone before A resumes, so A's writes after B's break A's
  // section only on A's old lease. A job re-taking the free lock with a new token FAILed.
  test('come-and-go: a job that re-takes the free lock with a new lease and writes is never FAIL', async () => {
    const record = await runOracle({
      oracle: 'V313',
      target: fixture('job-retakes-free-lock'),
      params: { contender: 'come-and-go' },
    });
    expect(record.verdict).toBe('INCONCLUSIVE');
    expect(record.counts.aWritesAcceptedAfterBFirstWrite).toBe(1);
    const failed = unmetChecks(record);
    expect(failed.map((c) => c.name)).toEqual(["A wrote after B's on its old lease"]);
    expect(failed[0]!.detail).toMatch(/A took the free lock again with a new lease/);
  });
});

describe("V313 on Postgres judges A's writes only while B's lease is live", () => {
  // On Postgres V313 read no lease at all: a job that re-takes its lease row once B's has lapsed
  // (B held at its first write, never renewing; on a loaded machine, renewals that come late) FAILed.
  test("a job that re-takes the lease row after B's lapsed is never FAIL (read on the declared row)", async () => {
    const record = await runOracle({
      oracle: 'V313',
      target: fixture('postgres/job-retakes-free-row'),
      store: 'postgres',
    });
    expectOutsideBLeaseReadOnItsRow(record);
    expect(record.counts.aWritesAcceptedAfterBFirstWrite).toBe(1);
  });

  test("undeclared, with no advisory lock of B's in pg_locks, it is INCONCLUSIVE, asking for storeKey", async () => {
    const record = await runOracle({
      oracle: 'V313',
      target: fixture('postgres/job-retakes-free-row-undeclared'),
      store: 'postgres',
    });
    expect(record.verdict).toBe('INCONCLUSIVE');
    expect(record.preconditions.find((c) => !c.held)?.detail).toMatch(/storeKey: \(env\) => \(\{ table/);
  });

  test("a session advisory lock B holds at its first write and after A's job shows the window: the idle-timeout job still FAILs", async () => {
    const record = await runOracle({
      oracle: 'V313',
      target: 'targets/postgres/job-session-lock-idle-timeout.ts',
      store: 'postgres',
    });
    expect(['FAIL', 'INCONCLUSIVE']).toContain(record.verdict);
    const window = record.preconditions.find((c) => c.name === "B's lease was live at A's writes after B's first");
    expect(window?.detail).toMatch(/pg_locks/);
    if (record.verdict === 'FAIL')
      expect(window?.detail).toMatch(
        /pg_locks showed B's session \d+ holding its advisory lock before A's write #\d+ was accepted/,
      );
  });
});

describe("V315 judges A's writes only while B's lease is live", () => {
  test("a leader that takes the lock after B's lease lapsed (B stopped renewing) and writes is never FAIL", async () => {
    const record = await runOracle({ oracle: 'V315', target: fixture('leader/b-stops-renewing') });
    expect(record.verdict).toBe('INCONCLUSIVE');
    expect(record.counts.aWritesAcceptedAfterBFirstWrite).toBeGreaterThan(0);
    expect(unmet(record)).toEqual(["B's lease was live at A's writes after B's first"]);
  });
});

describe("V315 on Postgres judges A's writes only while B's lease row is live", () => {
  // Seen once in a 5-run selfcheck: the good recheck-each-write leader FAILed on Postgres (fault
  // kill) when B's renewals came late under load; the lease row was not read at all.
  test("a leader that re-takes the lease row after B's lapsed is never FAIL (read on the declared row)", async () => {
    const record = await runOracle({
      oracle: 'V315',
      target: fixture('postgres/leader/b-stops-renewing'),
      store: 'postgres',
    });
    expectOutsideBLeaseReadOnItsRow(record);
    expect(record.counts.aWritesAcceptedAfterBFirstWrite).toBeGreaterThan(0);
  });

  test('a real bug whose lease row is not declared is INCONCLUSIVE, asking for storeKey', async () => {
    const record = await runOracle({
      oracle: 'V315',
      target: fixture('postgres/leader/cached-flag-undeclared'),
      store: 'postgres',
    });
    expect(record.verdict).toBe('INCONCLUSIVE');
    expect(record.preconditions.find((c) => !c.held)?.detail).toMatch(/storeKey: \(env\) => \(\{ table/);
  });
});

describe('a target that breaks the contract is ERROR naming what it did', () => {
  test('acquire() returning 42 is not a lease: ERROR, no release blamed', async () => {
    const record = await runOracle({ oracle: 'V310', target: fixture('acquire-returns-42') });
    expect(record.verdict).toBe('ERROR');
    expect(record.error).toMatch(/acquire\(\) returned 42 \(a number\)/);
    expect(record.history.some((e) => e.kind === 'release')).toBe(false);
  });
});

describe('a holder that dies on its own during the scenario', () => {
  test('a crash right after a correct release is INCONCLUSIVE, naming the holder and its exit, never a silent PASS', async () => {
    const record = await runOracle({ oracle: 'V310', target: fixture('release-then-crash') });
    expect(record.verdict).toBe('INCONCLUSIVE');
    const failed = unmetChecks(record);
    expect(failed.map((c) => c.name)).toContain('every holder process lived through the scenario');
    expect(failed.find((c) => c.name === 'every holder process lived through the scenario')!.detail).toMatch(
      /^holder A \(exit code 3\) ended on its own/,
    );
    expect(record.explanation).toMatch(/^Nothing was proven\./);
  });
});
