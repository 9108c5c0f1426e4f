/**
 * The batch store pool (src/run/store-pool.ts) for Postgres, etcd and ZooKeeper with real servers:
 * each family's reset (src/families/<family>/reset.ts) hands the next run a server as found after a
 * run that left everything it could behind (each test fails with that reset removed: the next
 * borrower would find the run's rows, keys or znodes), a run that changed what the reset cannot undo
 * (an ALTER SYSTEM, a ZooKeeper session still connected) gets its server stopped, a SIGKILLed
 * ZooKeeper holder's short session is waited out before its server is handed on, PgBouncer keeps a
 * server per run, an idle server is stopped past its idle limit, and the reference matrix and selfcheck take their pool from batchStorePool, which
 * LOCK_ORACLES_FRESH_STORES=1 turns off.
 */
import { spawn } from 'node:child_process';
import { Etcd3 } from 'etcd3';
import pg from 'pg';
import zookeeper from 'node-zookeeper-client';
import { afterEach, expect, test } from 'vitest';
import { StorePool, batchStorePool, type BorrowedStore } from '../src/run/store-pool.ts';
import { fourLetterWord } from '../src/families/zookeeper/four-letter.ts';
import { connectionRefused } from './store-pool-probe.ts';

const pools: StorePool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
});

function newPool(options?: ConstructorParameters<typeof StorePool>[0]): StorePool {
  const pool = new StorePool(options);
  pools.push(pool);
  return pool;
}

async function postgres(borrowed: BorrowedStore): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: borrowed.store.url });
  client.on('error', () => {});
  await client.connect();
  return client;
}

test('Postgres: a session holding an advisory lock, a row lock and a LISTEN, and the tables, schema, type, role and database it made, are gone for the next run', async () => {
  const pool = newPool();
  const first = await pool.borrow({ kind: 'postgres' }, undefined);
  const dirty = await postgres(first);
  await dirty.query('SELECT pg_advisory_lock(42)');
  await dirty.query('LISTEN lock_released');
  await dirty.query("CREATE TABLE leases (name text PRIMARY KEY, owner text); INSERT INTO leases VALUES ('k', 'A')");
  await dirty.query("CREATE SCHEMA app; CREATE TABLE app.jobs (id int); CREATE TYPE mood AS ENUM ('held')");
  await dirty.query('CREATE FUNCTION one() RETURNS int LANGUAGE sql AS $$ SELECT 1 $$; CREATE SEQUENCE fences');
  await dirty.query('CREATE ROLE worker');
  await dirty.query('CREATE DATABASE scratch');
  await dirty.query('BEGIN; SELECT * FROM leases FOR UPDATE');
  await first.giveBack('finished');
  await dirty.end().catch(() => {});

  const second = await pool.borrow({ kind: 'postgres' }, undefined);
  expect(second.store.url, 'the same server and database URL, reused').toBe(first.store.url);
  expect(second.reuse).toMatchObject({ reused: true });
  const look = await postgres(second);
  const count = async (sql: string) => Number((await look.query<{ n: string }>(sql)).rows[0]!.n);
  expect(await count("SELECT count(*) AS n FROM pg_class WHERE relname IN ('leases', 'jobs', 'fences')")).toBe(0);
  expect(await count("SELECT count(*) AS n FROM pg_namespace WHERE nspname = 'app'")).toBe(0);
  expect(await count("SELECT count(*) AS n FROM pg_type WHERE typname = 'mood'")).toBe(0);
  expect(await count("SELECT count(*) AS n FROM pg_proc WHERE proname = 'one'")).toBe(0);
  expect(await count("SELECT count(*) AS n FROM pg_roles WHERE rolname = 'worker'")).toBe(0);
  expect(await count("SELECT count(*) AS n FROM pg_database WHERE datname = 'scratch'")).toBe(0);
  expect(await count('SELECT count(*) AS n FROM pg_locks WHERE pid <> pg_backend_pid()'), 'no lock of the run').toBe(0);
  expect(await count('SELECT pg_try_advisory_lock(42)::int AS n'), 'its advisory lock is free').toBe(1);
  expect(
    await count("SELECT count(*) AS n FROM pg_stat_activity WHERE backend_type = 'client backend'"),
    'only this session',
  ).toBe(1);
  await look.end();
  await second.giveBack('finished');
  expect(pool.discarded()).toEqual([]);
});

test('Postgres: a run that ran ALTER SYSTEM has its server stopped; PgBouncer keeps a server per run', async () => {
  const pool = newPool();
  const altered = await pool.borrow({ kind: 'postgres' }, undefined);
  const client = await postgres(altered);
  await client.query("ALTER SYSTEM SET work_mem = '8MB'");
  await client.end();
  await altered.giveBack('finished');
  expect(pool.discarded().map((d) => d.why)).toEqual([expect.stringMatching(/pg_file_settings differ/)]);
  expect(await connectionRefused(altered.store.port), 'the changed server was stopped').toBe(true);
  expect(StorePool.whyOwnServer({ kind: 'pgbouncer' }, undefined)).toBe(
    'pgbouncer has no reset yet, so each run starts its own server',
  );
});

test("etcd: a killed holder's keys and lease are gone for the next run", async () => {
  const pool = newPool();
  const first = await pool.borrow({ kind: 'etcd' }, undefined);
  // A holder killed while its lease is kept alive: its keepalive stream ends with its process, its lease and keys stay.
  const holder = spawn(
    process.execPath,
    [
      '-e',
      `const { Etcd3 } = require('etcd3');
       const etcd = new Etcd3({ hosts: '${first.store.url}' });
       const lease = etcd.lease(30);
       lease.put('lock.k').value('A').then(() => etcd.put('left-behind').value('x')).then(() => console.log('held'));`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise((resolve) => holder.stdout.once('data', resolve));
  holder.kill('SIGKILL');
  await new Promise((resolve) => holder.once('exit', resolve));
  await first.giveBack('finished');

  const second = await pool.borrow({ kind: 'etcd' }, undefined);
  expect(second.store.url).toBe(first.store.url);
  expect(second.reuse).toMatchObject({ reused: true });
  const look = new Etcd3({ hosts: second.store.url });
  expect(await look.getAll().keys(), 'no key of the run').toEqual([]);
  expect((await look.leaseClient.leaseLeases({})).leases, 'no lease of the run').toEqual([]);
  expect(
    await look
      .lock('lock.k')
      .ttl(5)
      .acquire()
      .then((held) => held.release().then(() => 'taken')),
  ).toBe('taken');
  look.close();
  await second.giveBack('finished');
  expect(pool.discarded()).toEqual([]);
});

async function zkSession(borrowed: BorrowedStore, timeoutMs: number): Promise<zookeeper.Client> {
  const client = zookeeper.createClient(`127.0.0.1:${borrowed.store.port}`, { sessionTimeout: timeoutMs });
  await new Promise<void>((resolve) => {
    client.once('connected', () => resolve());
    client.connect();
  });
  return client;
}

function create(client: zookeeper.Client, path: string, mode = zookeeper.CreateMode.PERSISTENT): Promise<string> {
  return new Promise((resolve, reject) =>
    client.create(path, Buffer.from('A'), mode, (error, made) => (error ? reject(error) : resolve(made))),
  );
}

test("ZooKeeper: the run's znodes are gone for the next run; a session of the run still alive keeps its server from being handed on", async () => {
  const pool = newPool();
  const first = await pool.borrow({ kind: 'zookeeper' }, undefined);
  const dirty = await zkSession(first, 4000);
  await create(dirty, '/locks');
  await create(dirty, '/locks/job');
  await create(dirty, '/locks/job/lock-', zookeeper.CreateMode.PERSISTENT_SEQUENTIAL);
  await new Promise<void>((resolve) => (dirty.once('disconnected', () => resolve()), dirty.close()));
  await first.giveBack('finished');

  const second = await pool.borrow({ kind: 'zookeeper' }, undefined);
  expect(second.store.url).toBe(first.store.url);
  expect(second.reuse).toMatchObject({ reused: true });
  const look = await zkSession(second, 4000);
  const children = await new Promise<string[]>((resolve, reject) =>
    look.getChildren('/', (error, names) => (error ? reject(error) : resolve(names))),
  );
  expect(children, 'only /zookeeper').toEqual(['zookeeper']);
  expect(await create(look, '/locks'), "the run's /locks is free to make again").toBe('/locks');
  // This session stays open past the run: the server must not be handed on with it alive.
  await second.giveBack('finished');
  expect(pool.discarded().map((d) => d.why)).toEqual([
    expect.stringMatching(/1 session\(s\) of the run still connected/),
  ]);
  expect(await connectionRefused(second.store.port), 'stopped, not handed on').toBe(true);
  look.close();
  expect(await fourLetterWord(first.store.port, 'ruok').catch(() => 'gone')).toBe('gone');
});

test("ZooKeeper: a SIGKILLed holder's short session is waited out, its ephemeral node gone, before the server is handed on", async () => {
  const pool = newPool();
  const first = await pool.borrow({ kind: 'zookeeper' }, undefined);
  const holder = spawn(
    process.execPath,
    [
      '-e',
      `const zk = require('node-zookeeper-client');
       const client = zk.createClient('127.0.0.1:${first.store.port}', { sessionTimeout: 800 });
       client.once('connected', () => client.create('/held', Buffer.from('A'), zk.CreateMode.EPHEMERAL, (error) => console.log(error ? 'failed' : 'held')));
       client.connect();`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  expect(String(await new Promise((resolve) => holder.stdout.once('data', resolve))).trim()).toBe('held');
  holder.kill('SIGKILL');
  await new Promise((resolve) => holder.once('exit', resolve));
  expect(await fourLetterWord(first.store.port, 'dump'), 'its session outlives it').toMatch(/\/held/);
  await first.giveBack('finished');
  expect(pool.discarded()).toEqual([]);

  const second = await pool.borrow({ kind: 'zookeeper' }, undefined);
  expect(second.reuse).toMatchObject({ reused: true });
  const dump = await fourLetterWord(second.store.port, 'dump');
  expect(dump, 'no session and no ephemeral node of the run').toMatch(/Session Sets \(\d+\)\/\(0\)/);
  expect(dump).not.toMatch(/\/held/);
  await second.giveBack('finished');
});

test('an idle server is stopped once kept past its idle limit; one borrowed again in time is not', async () => {
  const pool = newPool({ keepIdleAtMostMs: 300 });
  const first = await pool.borrow({ kind: 'etcd' }, undefined);
  await first.giveBack('finished');
  const again = await pool.borrow({ kind: 'etcd' }, undefined);
  expect(again.reuse.reused, 'borrowed within its idle limit').toBe(true);
  await again.giveBack('finished');
  // Timers fire in order: by this one's end the 300 ms idle limit has passed.
  await new Promise((resolve) => setTimeout(resolve, 600));
  const next = await pool.borrow({ kind: 'etcd' }, undefined);
  expect(next.reuse.reused, 'the idle server was let go').toBe(false);
  await next.giveBack('finished');
  await pool.close();
  expect(await connectionRefused(first.store.port), 'and stopped').toBe(true);
});

test('LOCK_ORACLES_FRESH_STORES=1 turns the batch pool off (explorations, --runs, the reference matrix, selfcheck)', () => {
  expect(batchStorePool(false)).toBeInstanceOf(StorePool);
  expect(batchStorePool(true)).toBeUndefined();
  const before = process.env.LOCK_ORACLES_FRESH_STORES;
  process.env.LOCK_ORACLES_FRESH_STORES = '1';
  try {
    expect(batchStorePool()).toBeUndefined();
  } finally {
    if (before === undefined) delete process.env.LOCK_ORACLES_FRESH_STORES;
    else process.env.LOCK_ORACLES_FRESH_STORES = before;
  }
});
