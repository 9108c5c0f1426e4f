/**
 * A lock that lives under another key than env.key and does not declare it (storeKey): V310 infers
 * the key from A's own acquire (SET … NX) and says so; where nothing is inferred the harness finds
 * nothing where it looks and says so (INCONCLUSIVE naming storeKey) instead of judging; an acquire
 * naming two places is refused (a usage error naming both). The same lock with storeKey declared is a
 * reference target (PASS) of V310, V311 and V313.
 */
import { expect, test } from 'vitest';
import { runOracle } from '../src/run/run-oracle.ts';
import { unmetChecks } from './unmet.ts';

const undeclared = 'test/fixtures/targets/lock-prefixed-undeclared.ts';

test.each([
  [undeclared, 'PASS'],
  ['test/fixtures/targets/release-bare-del-prefixed-undeclared.ts', 'FAIL'],
] as const)("V310 on %s: the key inferred from A's SET … NX, said so in the evidence: %s", async (target, verdict) => {
  const record = await runOracle({ oracle: 'V310', target });
  expect(record.verdict, record.explanation).toBe(verdict);
  const located = record.preconditions.find(
    (c) => c.name === 'the harness found the lock where the target says it lives',
  );
  expect(located?.detail).toMatch(/inferred from A's own acquire \(SET lock\.lock-oracles:V310 .*NX/);
});

test('V310 on an acquire that takes two keys with NX and no storeKey: a usage error naming both', async () => {
  await expect(
    runOracle({ oracle: 'V310', target: 'test/fixtures/targets/acquire-two-keys-undeclared.ts' }),
  ).rejects.toThrow(/GET lock\.lock-oracles:V310 .*GET fence\.lock-oracles:V310 .*storeKey/s);
});

test.each([
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
