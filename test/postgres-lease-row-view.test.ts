/**
 * The Postgres family's read of a declared lease row, on a real Postgres: a live row gives its owner
 * (when the row declares its owner column) and its time left by the database's clock; a row past its
 * lease_until is free, and reported as the lapsed record the table still keeps; a missing row is nothing.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresFamily } from '../src/families/postgres/index.ts';
import { startStore } from '../src/families/start-store.ts';
import type { StoreView } from '../src/families/family.ts';
import type { StartedStore } from '../src/stores/types.ts';
import type { LeaseRow } from '../targets/contract.ts';

let store: StartedStore;
let client: pg.Client;
let view: StoreView;
const row: LeaseRow = {
  table: 'leases',
  keyColumn: 'name',
  key: 'job',
  expiresColumn: 'lease_until',
  ownerColumn: 'owner',
};

beforeAll(async () => {
  store = await startStore({ kind: 'postgres' }, 'local');
  client = new pg.Client({ connectionString: store.url });
  client.on('error', () => {});
  await client.connect();
  await client.query(
    'CREATE TABLE leases (name text PRIMARY KEY, owner text NOT NULL, lease_until timestamptz NOT NULL)',
  );
  view = postgresFamily.view(store);
}, 60_000);

afterAll(async () => {
  await view?.close();
  await client?.end().catch(() => {});
  await store?.stop();
});

const setLease = (offsetMs: number) =>
  client.query(
    `INSERT INTO leases VALUES ('job', 'token-a', now() + $1 * interval '1 millisecond')
       ON CONFLICT (name) DO UPDATE SET lease_until = excluded.lease_until`,
    [offsetMs],
  );

describe('postgres lease row view', () => {
  it('reads a live row with its owner and time left, and without an owner column its owner as null', async () => {
    await setLease(5000);
    const live = await view.lock(row);
    expect(live).toMatchObject({ exists: true, value: 'token-a' });
    expect(live.pttlMs).toBeGreaterThan(0);
    expect(live.pttlMs).toBeLessThanOrEqual(5000);
    expect(live.lapsedRecord).toBeUndefined();
    const { ownerColumn: _, ...ownerless } = row;
    expect(await view.lock(ownerless)).toMatchObject({ exists: true, value: null });
  });

  it('reads a row past its lease_until as free, with the lapsed record it keeps, and a missing row as nothing', async () => {
    await setLease(-2000);
    const lapsed = await view.lock(row);
    expect(lapsed).toMatchObject({ exists: false, value: null, pttlMs: -2 });
    expect(lapsed.lapsedRecord?.value).toBe('token-a');
    expect(lapsed.lapsedRecord?.lapsedMs).toBeGreaterThanOrEqual(2000);
    await client.query('DELETE FROM leases');
    const gone = await view.lock(row);
    expect(gone).toMatchObject({ exists: false, pttlMs: -2 });
    expect(gone.lapsedRecord).toBeUndefined();
  });
});
