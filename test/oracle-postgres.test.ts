/**
 * V314's pool scenario on a real Postgres: it ships bad and good references (their verdicts are
 * checked, with every other oracle's, in reference-targets.test.ts), and a run whose fault did not
 * land is INCONCLUSIVE. The pooler scenario is in oracle-pgbouncer.test.ts.
 */
import { describe, expect, test } from 'vitest';
import V314 from '../oracles/V314/index.ts';
import { runOracle } from '../src/run/run-oracle.ts';
import { unmet } from './unmet.ts';

const poolReferences = V314.references.filter((r) => r.params?.scenario !== 'pooler');

describe('V314 pool scenario', () => {
  test('ships bad and good reference targets', () => {
    expect(poolReferences.map((r) => r.expect).sort()).toEqual(expect.arrayContaining(['FAIL', 'PASS']));
  });

  test('a parallel query that never occupies a pooled connection makes the run INCONCLUSIVE', async () => {
    const record = await runOracle({ oracle: 'V314', target: 'test/fixtures/targets/postgres/query-off-pool.ts' });
    expect(record.verdict).toBe('INCONCLUSIVE');
    expect(unmet(record)).toEqual(["a parallel query held one of A's pooled connections"]);
  });
});
