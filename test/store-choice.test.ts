/**
 * With no --store, a run starts the store the target's own imports show (issue 23): a Redis
 * job-queue target on V317, whose default store is Postgres, gets Redis and is judged, instead of
 * failing in its client's connect; the evidence says how the store was chosen.
 */
import { describe, expect, it } from 'vitest';
import { chooseStore, packagesImportedBy } from '../src/run/store-choice.ts';
import { runOracle } from '../src/run/run-oracle.ts';

const V317_STORES = ['postgres', 'redis', 'valkey'] as const;

describe('the store a target needs', () => {
  it("reads the packages a target imports through its own files (redlock's target imports ioredis too)", async () => {
    expect([...(await packagesImportedBy('targets/redis/redlock/lock.ts'))].sort()).toEqual(['ioredis', 'redlock']);
  });

  it('picks Redis for a Redis target on an oracle whose default is Postgres, saying so', async () => {
    const choice = await chooseStore('V317', V317_STORES, 'targets/clock/redis-queue-app-clock-expiry.ts');
    expect(choice.kind).toBe('redis');
    expect(choice.why).toMatch(/target's imports \(ioredis\); V317's default is postgres; --store picks another/);
  });

  it('keeps the default for a target on the default store', async () => {
    expect((await chooseStore('V317', V317_STORES, 'targets/clock/lease-app-clock-expiry.ts')).kind).toBe('postgres');
  });

  it('falls back to the default, naming the flag, when the target imports no known client', async () => {
    const choice = await chooseStore('V317', V317_STORES, 'test/fixtures/targets/acquire-returns-42.ts');
    expect(choice.kind).toBe('postgres');
    expect(choice.why).toMatch(/imports no client the harness knows.*--store redis or --store valkey picks another/);
  });

  it('a real run of the Redis queue target on V317 without --store is judged on Redis', async () => {
    const record = await runOracle({ oracle: 'V317', target: 'targets/clock/redis-queue-app-clock-expiry.ts' });
    expect(record.store?.kind).toBe('redis');
    expect(record.store?.chosenBy).toMatch(/target's imports/);
    expect(record.verdict, record.explanation).toBe('FAIL');
  });
});
