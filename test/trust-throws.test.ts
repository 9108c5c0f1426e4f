/**
 * A member that throws where nothing in the scenario gave it a reason is the target's error: ERROR
 * naming the holder, the member and the error, the same rule in every oracle (targets/contract.ts,
 * "When a member throws"). Real stores, real holder processes; fixtures under test/fixtures/targets.
 */
import { describe, expect, test } from 'vitest';
import { runOracle } from '../src/run/run-oracle.ts';

const fixture = (name: string) => `test/fixtures/targets/${name}.ts`;

describe('an unprovoked throw is ERROR naming the member, in every oracle', () => {
  test.each([
    // V310 used to FAIL here: B's throwing extend counted as "refused" and was blamed on A's release.
    ['V310', 'B', 'extend', /on its own lease, which the store still showed as B's/],
    ['V312', 'P', 'job', /running alone on a free lock/],
    ['V313', 'B', 'job', /running alone on a free lock, with no fault/],
    ['V315', 'A', 'leader', /leading alone with no fault/],
    ['V316', 'A', 'timeout', /without reporting its timeout/],
    ['V318', 'A', 'write', /a writer has no lock to be refused/],
    ['V319', 'R\\d', 'schedule', /starting its scheduler/],
  ] as const)(
    "%s: %s's %s() throwing a bug",
    async (oracle, holder, member, why) => {
      const record = await runOracle({ oracle, target: fixture('members-throw') });
      expect(record.verdict).toBe('ERROR');
      expect(record.error).toMatch(new RegExp(`^holder ${holder}: the target's ${member}\\(\\) threw`));
      expect(record.error).toMatch(why);
      expect(record.error).toContain(`members-throw: ${member}() has a bug`);
      expect(record.property).toBeNull();
    },
    180_000,
  );

  test('V313: A\'s job throwing on every try while the lock is free (B\'s solo run long over) is ERROR, not "A never held the lock"', async () => {
    const record = await runOracle({ oracle: 'V313', target: fixture('job-throws-for-a'), params: { timeout: 1000 } });
    expect(record.verdict).toBe('ERROR');
    expect(record.error).toMatch(
      /^holder A: the target's job\(\) threw on its try #\d+ to reach its first write, begun \d+ ms after B's solo run ended/,
    );
    expect(record.error).toContain('job-throws-for-a: a bug before the acquire');
  }, 120_000);

  test('V315: B throwing while it waits to lead is ERROR (a denied replica waits and retries)', async () => {
    const record = await runOracle({ oracle: 'V315', target: fixture('leader/b-throws-waiting') });
    expect(record.verdict).toBe('ERROR');
    expect(record.error).toMatch(
      /^holder B: the target's leader\(\) threw before its first write, while waiting to lead/,
    );
  }, 120_000);

  test('a throw answering the scenario is judged, not ERROR: V313\'s job that throws "resource locked" / "lock lost" PASSes', async () => {
    const record = await runOracle({ oracle: 'V313', target: fixture('job-throws-lock-lost') });
    expect(record.verdict).toBe('PASS');
    expect(
      record.history.some(
        (e) => e.kind === 'call-error' && e.holder === 'A' && /lock lost/.test(String(e.detail.error)),
      ),
    ).toBe(true);
  }, 120_000);

  test('a holder that dies inside acquire() is no throw: INCONCLUSIVE naming the death, not ERROR blaming acquire()', async () => {
    const record = await runOracle({
      oracle: 'V310',
      target: fixture('acquire-exits-in-b'),
      params: { timeout: 1000 },
    });
    expect(record.verdict).toBe('INCONCLUSIVE');
    expect(record.error).toBeUndefined();
    expect(
      record.preconditions.find((c) => c.name === 'every holder process lived through the scenario')?.detail,
    ).toMatch(/B \(exit code 3\)/);
  }, 120_000);
});
