/**
 * The ready bindings (targets/bindings/, built on targets/adapters/) against real stores: one test
 * per row of the verdict table in targets/bindings/README.md, asserting the verdicts that tell the
 * row apart (its FAIL and the PASS of its fix). The full table: scripts/measure-bindings.ts.
 */
import { describe, expect, test } from 'vitest';
import { runOracle } from '../src/run/run-oracle.ts';
import type { StoreKind } from '../src/stores/types.ts';

type Row = [
  target: string,
  oracle: string,
  expected: 'PASS' | 'FAIL',
  params: Record<string, string>,
  store?: StoreKind,
];
const rows: Row[] = [
  ['ioredis-set-nx', 'V313', 'FAIL', {}],
  ['ioredis-set-nx-fenced', 'V313', 'PASS', {}],
  ['node-redis-set-nx', 'V310', 'PASS', { variant: 'narrow' }],
  ['node-redis-set-nx-fenced', 'V313', 'PASS', {}],
  ['redlock5', 'V313', 'FAIL', {}],
  ['redlock5-check-signal', 'V313', 'PASS', {}],
  ['sesame-redlock', 'V313', 'FAIL', {}],
  ['sesame-redlock-check-signal', 'V313', 'PASS', {}],
  ['pg-advisory-session-via-pool', 'V314', 'FAIL', {}],
  ['pg-advisory-session', 'V314', 'FAIL', { scenario: 'pooler' }],
  ['pg-advisory-transaction', 'V314', 'PASS', { scenario: 'pooler' }],
];

describe('ready bindings', () => {
  test.each(rows)('%s: %s %s %j', async (target, oracle, expected, params, store) => {
    const record = await runOracle({
      oracle,
      target: `targets/bindings/${target}.ts`,
      params,
      ...(store ? { store } : {}),
    });
    expect(record.verdict, record.explanation).toBe(expected);
    expect(record.preconditions.every((c) => c.held)).toBe(true);
  });
});
