/**
 * A lock that lives under another key than env.key and does not declare it (storeKey): the harness
 * finds nothing where it looks and says so (INCONCLUSIVE naming storeKey) instead of judging. The
 * same lock with storeKey declared is a reference target (PASS) of V310, V311 and V313.
 */
import { expect, test } from 'vitest';
import { runOracle } from '../src/run/run-oracle.ts';
import { unmetChecks } from './unmet.ts';

const undeclared = 'test/fixtures/targets/lock-prefixed-undeclared.ts';

test.each([
  ['V310', {}, 'the harness found the lock where the target says it lives'],
  ['V311', {}, 'the key existed when A was killed'],
  ['V313', { variant: 'renewal-wire' }, "A's renewal was held at the wire"],
] as const)(
  '%s on a prefixed-key lock without storeKey: INCONCLUSIVE, naming storeKey',
  async (oracle, params, unmet) => {
    const record = await runOracle({ oracle, target: undeclared, params });
    expect(record.verdict, record.explanation).toBe('INCONCLUSIVE');
    const failed = unmetChecks(record);
    expect(failed.map((c) => c.name)).toEqual([unmet]);
    expect(failed[0]!.detail).toMatch(/storeKey\(env\)/);
  },
);
