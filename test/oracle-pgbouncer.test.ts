/**
 * V314's pooler scenario through a real PgBouncer: it ships bad and good references (their
 * verdicts are checked in reference-targets.test.ts), and a denial that is not the first holder's
 * lock is INCONCLUSIVE.
 */
import { describe, expect, test } from 'vitest';
import V314 from '../oracles/V314/index.ts';
import { runOracle } from '../src/run/run-oracle.ts';
import { unmet } from './unmet.ts';

const poolerReferences = V314.references.filter((r) => r.params?.scenario === 'pooler');

describe('V314 pooler scenario', () => {
  test('ships bad and good reference targets', () => {
    expect(poolerReferences.map((r) => r.expect)).toEqual(expect.arrayContaining(['FAIL', 'PASS']));
  });

  test("a denial that is not A's lock makes the run INCONCLUSIVE", async () => {
    const record = await runOracle({
      oracle: 'V314',
      target: 'test/fixtures/targets/postgres/b-always-denied.ts',
      params: { scenario: 'pooler' },
    });
    expect(record.verdict).toBe('INCONCLUSIVE');
    expect(record.counts.bGrantedWhileAHeld).toBe(0);
    expect(unmet(record)).toContain("B's denial came from A's lock, held on another server session");
  });
});
