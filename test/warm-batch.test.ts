/**
 * The reference matrix's runs take warm holders (src/run/warm-batch.ts): two reference runs played
 * one after the other, the second's holders started while the first played (its evidence's
 * `timing.holdersStartedAheadMs`), the first's cold; each still a fresh process of its own run,
 * whose verdict the matrix checks as it does any other's.
 */
import { expect, test } from 'vitest';
import { referenceCases, runReferences } from '../src/run/references.ts';

test('a matrix played one run at a time starts each next case’s holders while the case before it plays', async () => {
  const cases = (await referenceCases(['V310'])).filter(
    (entry) =>
      ['targets/redis/ioredis/release-bare-del.ts', 'targets/redis/ioredis/lock-correct.ts'].includes(
        entry.reference.target,
      ) &&
      entry.store === 'redis' &&
      !entry.reference.params,
  );
  expect(cases.map((entry) => entry.reference.target).sort()).toEqual([
    'targets/redis/ioredis/lock-correct.ts',
    'targets/redis/ioredis/release-bare-del.ts',
  ]);
  const outcomes = await runReferences(cases, { jobs: 1, runtime: 'local' });
  const ahead = outcomes.map((outcome) => outcome.record.timing.holdersStartedAheadMs);
  expect(ahead.filter((ms) => ms === undefined)).toHaveLength(1);
  expect(ahead.find((ms) => ms !== undefined)).toBeGreaterThan(0);
  for (const outcome of outcomes)
    expect(outcome.record.verdict).toMatch(new RegExp(`^(${outcome.reference.expect}|INCONCLUSIVE)$`));
});
