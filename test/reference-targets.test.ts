/**
 * Every oracle FAILs on each of its bad reference targets and PASSes on each good one, against a
 * real store with real holder processes; every Redis reference runs on Valkey too, with the same
 * expected verdict (src/reference-matrix.ts). The reference list lives in each oracle file, so a
 * new oracle (V320) is covered by adding its references there.
 */
import { describe, expect, test } from 'vitest';
import { loadAllOracles } from '../src/registry.ts';
import { referenceMatrix } from '../src/reference-matrix.ts';
import { runReference } from './reference-run.ts';

const oracles = await loadAllOracles();

describe.each(oracles.map((o) => [o.id, o] as const))('%s reference targets', (_id, oracle) => {
  test('ships at least one bad and one good reference target', () => {
    expect(oracle.references.some((r) => r.expect === 'FAIL')).toBe(true);
    expect(oracle.references.some((r) => r.expect === 'PASS')).toBe(true);
  });

  test.each(referenceMatrix([oracle]).map((entry) => [entry.name, entry] as const))('%s', (_name, entry) => runReference(entry, 'local'));
});
