/**
 * A lock that lives under another key than env.key and does not declare it (storeKey): V310, V311
 * and V313 infer the key from A's own acquire (SET … NX) and say so; an acquire naming two places is
 * refused (a usage error naming both). The same lock with storeKey declared is a
 * reference target (PASS) of V310, V311 and V313.
 */
import { expect, test } from 'vitest';
import { runOracle } from '../src/run/run-oracle.ts';

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
  [
    'V311',
    undeclared,
    {},
    'PASS',
    /where the lock lives was inferred from A's own acquire \(SET lock\.lock-oracles:V311 .*NX/,
  ],
  [
    'V313',
    undeclared,
    {},
    'PASS',
    /Where the lock lives was inferred from A's own job \(SET lock\.lock-oracles:V313 .*NX/,
  ],
  ['V313', undeclared, { variant: 'renewal-wire' }, 'PASS', /inferred from A's own job/],
  ['V313', 'test/fixtures/targets/lease-no-renewal-prefixed-undeclared.ts', {}, 'FAIL', /inferred from A's own job/],
  [
    'V315',
    'test/fixtures/targets/leader/cached-flag-prefixed-undeclared.ts',
    {},
    'FAIL',
    /Where the lock lives was inferred from A's own leader loop \(SET lock\.lock-oracles:V315 .*NX/,
  ],
] as const)(
  "%s on %s %o without storeKey: the key inferred from A's own SET … NX, said so in the evidence: %s",
  async (oracle, target, params, verdict, said) => {
    const record = await runOracle({ oracle, target, params });
    expect(record.verdict, record.explanation).toBe(verdict);
    expect(JSON.stringify([record.explanation, record.preconditions])).toMatch(said);
  },
);

test.each(['V311', 'V313'])(
  '%s on an acquire that takes two keys with NX and no storeKey: a usage error naming both',
  async (oracle) => {
    await expect(runOracle({ oracle, target: 'test/fixtures/targets/acquire-two-keys-undeclared.ts' })).rejects.toThrow(
      new RegExp(`GET lock\\.lock-oracles:${oracle} .*GET fence\\.lock-oracles:${oracle} .*storeKey`, 's'),
    );
  },
);
