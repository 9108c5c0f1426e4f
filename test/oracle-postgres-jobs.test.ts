/**
 * V312 and V313 on a real Postgres (the store is a parameter of the same oracles): every bad
 * Postgres reference target FAILs and every good one PASSes, with the counts behind the verdict.
 */
import { describe, expect, test } from 'vitest';
import V312 from '../oracles/V312.ts';
import V313 from '../oracles/V313.ts';
import { runOracle } from '../src/run-oracle.ts';

const postgresReferences = [V312, V313].flatMap((oracle) =>
  oracle.references.filter((r) => r.store === 'postgres').map((r) => [`${oracle.id} ${r.expect} ${r.target} ${JSON.stringify(r.params ?? {})}`, oracle.id, r] as const),
);

describe('V312 and V313 on Postgres', () => {
  test('both oracles ship bad and good Postgres reference targets', () => {
    for (const id of ['V312', 'V313']) {
      const expects = postgresReferences.filter(([, oracle]) => oracle === id).map(([, , r]) => r.expect);
      expect(expects).toContain('FAIL');
      expect(expects).toContain('PASS');
    }
  });

  test.each(postgresReferences)('%s', async (_name, id, reference) => {
    const record = await runOracle({ oracle: id, target: reference.target, params: reference.params ?? {}, store: 'postgres' });
    expect(record.verdict, `${record.explanation}\n${record.error ?? ''}`).toBe(reference.expect);
    expect(record.preconditions.every((c) => c.held)).toBe(true);
    expect(record.store?.version).toMatch(/^PostgreSQL \d+/);
    const violations = id === 'V312' ? record.counts.aEffects : record.counts.aWritesAcceptedAfterBAcquired;
    expect((violations ?? 0) > 0).toBe(reference.expect === 'FAIL');
  });
});
