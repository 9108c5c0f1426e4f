/**
 * V314's pool scenario on a real Postgres: every bad reference target FAILs and every good one
 * PASSes, with the number the verdict rests on (advisory locks left in pg_locks after the unlock),
 * and a run whose fault did not land is INCONCLUSIVE. The pooler scenario is in
 * oracle-pgbouncer.test.ts, the Postgres variants of V312 and V313 in oracle-postgres-jobs.test.ts.
 */
import { describe, expect, test } from 'vitest';
import V314 from '../oracles/V314.ts';
import { runOracle } from '../src/run-oracle.ts';

const poolReferences = V314.references.filter((r) => r.params?.scenario !== 'pooler');

describe('V314 pool scenario', () => {
  test('ships bad and good reference targets', () => {
    expect(poolReferences.map((r) => r.expect).sort()).toEqual(expect.arrayContaining(['FAIL', 'PASS']));
  });

  test.each(poolReferences.map((r) => [`${r.expect} ${r.target}`, r] as const))('%s', async (_name, reference) => {
    const record = await runOracle({ oracle: 'V314', target: reference.target, params: reference.params ?? {} });
    expect(record.verdict, `${record.explanation}\n${record.error ?? ''}`).toBe(reference.expect);
    expect(record.preconditions.every((c) => c.held)).toBe(true);
    expect(record.store?.version).toMatch(/^PostgreSQL \d+/);
    expect(record.counts.advisoryLocksAfterAcquire).toBeGreaterThan(0);
    expect((record.counts.advisoryLocksAfterRelease ?? 0) > 0).toBe(reference.expect === 'FAIL');
  });

  test('a parallel query that never occupies a pooled connection makes the run INCONCLUSIVE', async () => {
    const record = await runOracle({ oracle: 'V314', target: 'test/fixtures/targets/postgres/query-off-pool.ts' });
    expect(record.verdict).toBe('INCONCLUSIVE');
    expect(record.preconditions.filter((c) => !c.held).map((c) => c.name)).toEqual(["a parallel query held one of A's pooled connections"]);
  });
});
