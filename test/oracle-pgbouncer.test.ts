/**
 * V314's pooler scenario through a real PgBouncer: every bad reference target FAILs (the second
 * holder is granted a lock the first holds) and every good one PASSes, and a denial that is not
 * the first holder's lock is INCONCLUSIVE.
 */
import { describe, expect, test } from 'vitest';
import V314 from '../oracles/V314.ts';
import { runOracle } from '../src/run-oracle.ts';

const poolerReferences = V314.references.filter((r) => r.params?.scenario === 'pooler');

describe('V314 pooler scenario', () => {
  test('ships bad and good reference targets', () => {
    expect(poolerReferences.map((r) => r.expect)).toEqual(expect.arrayContaining(['FAIL', 'PASS']));
  });

  test.each(poolerReferences.map((r) => [`${r.expect} ${r.target} ${JSON.stringify(r.params)}`, r] as const))('%s', async (_name, reference) => {
    const record = await runOracle({ oracle: 'V314', target: reference.target, params: reference.params ?? {}, ...(reference.store ? { store: reference.store } : {}) });
    expect(record.verdict, `${record.explanation}\n${record.error ?? ''}`).toBe(reference.expect);
    expect(record.preconditions.every((c) => c.held)).toBe(true);
    expect(record.store?.kind).toBe('pgbouncer');
    expect(record.store?.version).toContain(`pool_mode=${reference.params?.poolMode ?? 'transaction'}`);
    expect(record.store?.backend?.version).toMatch(/^PostgreSQL \d+/);
    expect(record.counts.bGrantedWhileAHeld).toBe(reference.expect === 'FAIL' ? 1 : 0);
  });

  test("a denial that is not A's lock makes the run INCONCLUSIVE", async () => {
    const record = await runOracle({ oracle: 'V314', target: 'test/fixtures/targets/postgres/b-always-denied.ts', params: { scenario: 'pooler' } });
    expect(record.verdict).toBe('INCONCLUSIVE');
    expect(record.counts.bGrantedWhileAHeld).toBe(0);
    expect(record.preconditions.filter((c) => !c.held).map((c) => c.name)).toContain("B's denial came from A's lock, held on another server session");
  });
});
