/**
 * Empty is free (issue 34 item 4), on real stores: an owner or expiry field the app left empty,
 * blank or absent reads as no lease held, and the read says what the field held; an expiry that is
 * no instant is an unreadable read, and a run that meets one ends INCONCLUSIVE naming the field and
 * the value, never ERROR. Redis/Valkey hash fields, a lease file's JSON record, a Postgres lease row.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fsFamily } from '../src/families/fs/index.ts';
import { postgresFamily } from '../src/families/postgres/index.ts';
import { redisFamily } from '../src/families/redis/index.ts';
import { startStore } from '../src/families/start-store.ts';
import type { StoreView } from '../src/families/family.ts';
import type { StartedStore } from '../src/stores/types.ts';
import { READS_JUDGEABLE } from '../src/judging/unreadable-reads.ts';
import { runOracle } from '../src/run/run-oracle.ts';
import { unmet, unmetChecks } from './unmet.ts';

const FREE = "the app's way of saying free, so no lease is held";

describe('a Redis job claim', () => {
  let store: StartedStore;
  let client: Redis;
  let view: StoreView;
  const claim = { key: 'job:k', field: 'lockId', expiresField: 'lockExpiresAt' };

  beforeAll(async () => {
    store = await startStore({ kind: 'redis' }, 'local');
    client = new Redis(store.url);
    view = redisFamily.view(store);
  }, 60_000);

  afterAll(async () => {
    await view?.close();
    client?.disconnect();
    await store?.stop();
  });

  test("cleared with empty fields is free, and the read says lockId held ''", async () => {
    await client.hset('job:k', 'lockId', '', 'lockExpiresAt', '');
    const read = await view.lock(claim);
    expect(read).toMatchObject({ exists: false, value: '', pttlMs: -2, free: `found lockId "": ${FREE}` });
  });

  test('with its owner set and its expiry empty or absent is free, naming the expiry field and the owner', async () => {
    await client.hset('job:k', 'lockId', 'B', 'lockExpiresAt', ' ');
    expect((await view.lock(claim)).free).toBe(`found lockExpiresAt " " (its owner "B"): ${FREE}`);
    await client.hdel('job:k', 'lockExpiresAt');
    expect(await view.lock(claim)).toMatchObject({
      exists: false,
      free: `found no lockExpiresAt (its owner "B"): ${FREE}`,
    });
  });

  test('with an expiry ahead is held; with one that is no instant it is an unreadable read, not an error', async () => {
    await client.hset('job:k', 'lockId', 'B', 'lockExpiresAt', new Date(Date.now() + 5000).toISOString());
    const held = await view.lock(claim);
    expect(held).toMatchObject({ exists: true, value: 'B' });
    expect(held.pttlMs).toBeGreaterThan(4000);
    expect(held.unreadable).toBeUndefined();
    await client.hset('job:k', 'lockExpiresAt', 'soon');
    expect((await view.lock(claim)).unreadable).toMatch(/^job:k: its expiry field lockExpiresAt holds "soon", neither/);
  });

  test('a plain hash field left empty is free; no hash at all is nothing, with no such words', async () => {
    await client.hset('job:k', 'owner', '');
    expect(await view.lock({ key: 'job:k', field: 'owner' })).toMatchObject({
      exists: false,
      free: `found owner "": ${FREE}`,
    });
    await client.del('job:k');
    const gone = await view.lock({ key: 'job:k', field: 'owner' });
    expect(gone).toMatchObject({ exists: false, pttlMs: -2 });
    expect(gone.free).toBeUndefined();
  });

  test('V310 on a lock whose declared expiry field holds a duration is INCONCLUSIVE naming the field and the value', async () => {
    const record = await runOracle({ oracle: 'V310', target: 'test/fixtures/targets/hash-expiry-not-an-instant.ts' });
    expect(record.verdict, record.explanation).toBe('INCONCLUSIVE');
    expect(unmet(record)).toEqual([READS_JUDGEABLE]);
    expect(unmetChecks(record)[0]!.detail).toMatch(
      /"after A acquired" at \d+ ms.*: job:lock-oracles:V310: its expiry field ttl holds "PT0\.2S"/,
    );
  }, 60_000);
});

describe("a lease file's JSON record", () => {
  test('with a blank owner or expiry is free; with an expiry that is no instant, unreadable', async () => {
    const store = await startStore({ kind: 'fs' });
    const dir = fileURLToPath(store.url);
    const view = fsFamily.view(store);
    const lease = { path: 'k.lease', record: { owner: 'ownerId', expiresAt: 'expiresAt' } };
    const write = (record: object) => writeFileSync(join(dir, 'k.lease'), JSON.stringify(record));
    try {
      write({ ownerId: '', expiresAt: '' });
      expect(await view.lock(lease)).toMatchObject({ exists: false, kind: 'file', free: `found ownerId "": ${FREE}` });
      write({ ownerId: 'B', expiresAt: null });
      expect((await view.lock(lease)).free).toBe(`found no expiresAt (its owner "B"): ${FREE}`);
      write({ ownerId: 'B', expiresAt: new Date(Date.now() + 5000).toISOString() });
      const held = await view.lock(lease);
      expect(held).toMatchObject({ exists: true, value: 'B' });
      expect(held.pttlMs).toBeGreaterThan(4000);
      write({ ownerId: 'B', expiresAt: 'tomorrow' });
      expect(await view.lock(lease)).toMatchObject({
        exists: true,
        pttlMs: -1,
        unreadable: expect.stringMatching(/^k\.lease: its expiry field expiresAt holds "tomorrow"/),
      });
    } finally {
      await view.close();
      await store.stop();
    }
  });
});

describe('a Postgres lease row', () => {
  let store: StartedStore;
  let client: pg.Client;
  let view: StoreView;
  const row = { table: 'claims', keyColumn: 'name', key: 'job', expiresColumn: 'lease_until', ownerColumn: 'owner' };

  beforeAll(async () => {
    store = await startStore({ kind: 'postgres' }, 'local');
    client = new pg.Client({ connectionString: store.url });
    client.on('error', () => {});
    await client.connect();
    await client.query('CREATE TABLE claims (name text PRIMARY KEY, owner text, lease_until timestamptz)');
    view = postgresFamily.view(store);
  }, 60_000);

  afterAll(async () => {
    await view?.close();
    await client?.end().catch(() => {});
    await store?.stop();
  });

  const setRow = (owner: string | null, leftMs: number | null) =>
    client.query(
      `INSERT INTO claims VALUES ('job', $1, now() + $2 * interval '1 millisecond')
         ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, lease_until = excluded.lease_until`,
      [owner, leftMs],
    );

  test('with a NULL or empty owner, or a NULL expiry, is free, not a lapsed record', async () => {
    await setRow(null, 5000);
    expect(await view.lock(row)).toMatchObject({ exists: false, free: `found no owner: ${FREE}` });
    await setRow('', 5000);
    expect(await view.lock(row)).toMatchObject({ exists: false, free: `found owner "": ${FREE}` });
    await setRow('B', null);
    const noEnd = await view.lock(row);
    expect(noEnd).toMatchObject({ exists: false, free: `found no lease_until (its owner "B"): ${FREE}` });
    expect(noEnd.lapsedRecord).toBeUndefined();
    await setRow('B', 5000);
    expect(await view.lock(row)).toMatchObject({ exists: true, value: 'B' });
  });
});
