/**
 * The Postgres and PgBouncer stores, started for real: they answer, report their versions, remove
 * their files, honour pause/resume/kill, and show the measured PgBouncer fact V314 is built on.
 */
import { execa } from 'execa';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { findPostgresBinaries } from '../src/families/postgres/postgres-binaries.ts';
import { ensureTemplate } from '../src/families/postgres/postgres-template.ts';
import { serverUser } from '../src/stores/server-user.ts';
import { startStore } from '../src/families/start-store.ts';
import type { StartedStore } from '../src/stores/types.ts';

const started: StartedStore[] = [];
const clients: pg.Client[] = [];

async function start(request: Parameters<typeof startStore>[0]): Promise<StartedStore> {
  const store = await startStore(request, 'local');
  started.push(store);
  return store;
}

async function connect(url: string, database?: string): Promise<pg.Client> {
  const target = new URL(url);
  if (database) target.pathname = `/${database}`;
  const client = new pg.Client({ connectionString: target.href });
  client.on('error', () => {});
  await client.connect();
  clients.push(client);
  return client;
}

async function one<T>(client: pg.Client, sql: string, params: unknown[] = []): Promise<T> {
  const result = await client.query(sql, params);
  return Object.values(result.rows[0] ?? {})[0] as T;
}

function processState(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
}

afterEach(async () => {
  for (const client of clients.splice(0)) await client.end().catch(() => {});
  for (const store of started.splice(0)) await store.stop();
});

describe('postgres store', () => {
  it('answers on loopback with durability off, reports its version, and removes its dir on stop', async () => {
    const store = await start({ kind: 'postgres' });
    expect(store.url).toBe(`postgres://postgres@127.0.0.1:${store.port}/postgres`);
    expect(store.version).toMatch(/^PostgreSQL \d+\.\d+/);
    const client = await connect(store.url);
    expect(await one<number>(client, 'SELECT 1')).toBe(1);
    expect(store.version).toBe(`PostgreSQL ${await one<string>(client, 'SHOW server_version')}`);
    expect(await one<string>(client, 'SHOW fsync')).toBe('off');
    expect(await one<string>(client, 'SHOW listen_addresses')).toBe('127.0.0.1');
    const runDir = dirname(await one<string>(client, 'SHOW data_directory'));
    expect(existsSync(runDir)).toBe(true);
    await client.end();
    await store.stop();
    expect(existsSync(runDir)).toBe(false);
  });

  it('pauses and resumes every process of the server, not only the postmaster', async () => {
    const store = await start({ kind: 'postgres' });
    const client = await connect(store.url);
    const backendPid = await one<number>(client, 'SELECT pg_backend_pid()');
    await store.capabilities.pause?.();
    expect(processState(backendPid)).toBe('T');
    await store.capabilities.resume?.();
    expect(processState(backendPid)).not.toBe('T');
    expect(await one<number>(client, 'SELECT 2')).toBe(2);
  });

  it('kill takes the whole server down, and stop still removes its shared memory segment', async () => {
    const store = await start({ kind: 'postgres' });
    const client = await connect(store.url);
    const dataDir = await one<string>(client, 'SHOW data_directory');
    const shmId = readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[6]?.trim().split(/\s+/)[1];
    await store.capabilities.kill?.();
    await expect(client.query('SELECT 1')).rejects.toThrow();
    await expect(connect(store.url)).rejects.toThrow(/ECONNREFUSED/);
    await store.stop();
    const segments = (await execa('ipcs', ['-m'])).stdout;
    expect(shmId).toMatch(/^\d+$/);
    expect(segments.split('\n').some((line) => line.split(/\s+/)[1] === shmId)).toBe(false);
  });
});

describe('postgres template', () => {
  it('two concurrent initialisations leave one complete template and no staging dirs', async () => {
    const bin = findPostgresBinaries();
    if (!bin) throw new Error('Postgres is not installed: run npm run setup');
    const parent = mkdtempSync(join(tmpdir(), 'lock-oracles-template-test-'));
    chmodSync(parent, 0o755);
    try {
      const cache = join(parent, 'cache');
      const paths = await Promise.all([
        ensureTemplate(bin, serverUser(), cache),
        ensureTemplate(bin, serverUser(), cache),
      ]);
      expect(paths[0]).toBe(paths[1]);
      expect(readdirSync(cache)).toEqual([`pg${bin.major}-template`]);
      expect(readFileSync(join(cache, `pg${bin.major}-template`, 'PG_VERSION'), 'utf8').trim()).toBe(String(bin.major));
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });
});

describe('pgbouncer store', () => {
  for (const poolMode of ['transaction', 'session'] as const) {
    it(`${poolMode} mode: answers through the pooler, exposes its Postgres as backend, removes both dirs`, async () => {
      const store = await start({ kind: 'pgbouncer', poolMode });
      expect(store.backend?.kind).toBe('postgres');
      expect(store.backend?.port).not.toBe(store.port);
      const client = await connect(store.url);
      expect(await one<number>(client, 'SELECT 1')).toBe(1);
      const backendClient = await connect(store.backend?.url ?? '');
      const postgresDir = dirname(await one<string>(backendClient, 'SHOW data_directory'));
      const admin = await connect(store.url, 'pgbouncer');
      expect(store.version).toBe(`${await one<string>(admin, 'SHOW VERSION')} (pool_mode=${poolMode})`);
      const config = await admin.query<{ key: string; value: string }>('SHOW CONFIG');
      expect(config.rows.find((row) => row.key === 'pool_mode')?.value).toBe(poolMode);
      const bouncerDir = dirname(config.rows.find((row) => row.key === 'auth_file')?.value ?? '');
      expect(existsSync(bouncerDir)).toBe(true);
      for (const c of clients.splice(0)) await c.end();
      await store.stop();
      expect(existsSync(bouncerDir)).toBe(false);
      expect(existsSync(postgresDir)).toBe(false);
    });
  }

  it('transaction mode lets a second client take a session advisory lock the first holds; session mode denies it', async () => {
    const outcomes: Record<string, { second: boolean; sameBackend: boolean; locksInPgLocks: number }> = {};
    for (const poolMode of ['transaction', 'session'] as const) {
      const store = await start({ kind: 'pgbouncer', poolMode });
      const first = await connect(store.url);
      const second = await connect(store.url);
      const probe = await connect(store.backend?.url ?? '');
      expect(await one<boolean>(first, 'SELECT pg_try_advisory_lock(42)')).toBe(true);
      const firstPid = await one<number>(first, 'SELECT pg_backend_pid()');
      const secondGot = await one<boolean>(second, 'SELECT pg_try_advisory_lock(42)');
      const secondPid = await one<number>(second, 'SELECT pg_backend_pid()');
      const locks = await one<string>(probe, "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted");
      outcomes[poolMode] = { second: secondGot, sameBackend: firstPid === secondPid, locksInPgLocks: Number(locks) };
    }
    // Through the transaction pooler both clients ran on one server backend, where the session
    // lock is re-entrant: the second "acquires" a lock the first still holds.
    expect(outcomes.transaction).toEqual({ second: true, sameBackend: true, locksInPgLocks: 1 });
    expect(outcomes.session).toEqual({ second: false, sameBackend: false, locksInPgLocks: 1 });
  });
});
