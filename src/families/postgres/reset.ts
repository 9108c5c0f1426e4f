/**
 * A Postgres server served again after a run (src/families/store-reuse.ts), in place: the holders'
 * database URL stays the same (postgres://postgres@127.0.0.1:PORT/postgres), so nothing a target
 * builds from it changes. Every other client backend is terminated (advisory and session locks,
 * LISTENs, open transactions and temp tables are a session's and end with it), prepared
 * transactions rolled back, replication slots dropped, and everything the run created dropped:
 * databases, schemas, the tables, views, sequences, routines and types in `public`, extensions,
 * large objects, roles. Then verified: no other client backend, no lock of another session, no
 * prepared transaction or slot, and the catalogs as at start — every catalog row a user made
 * (oid ≥ 16384, the first oid after initdb's) counted per catalog, the databases and roles by name,
 * every setting (pg_settings, pg_file_settings for an ALTER SYSTEM not yet reloaded,
 * pg_db_role_setting). What the reset does not drop (an event trigger, a publication) shows up
 * there, and the server is stopped instead of reused.
 */
import type { Client } from 'pg';
import type { StartedStore } from '../../stores/types.ts';
import type { StoreReuse } from '../store-reuse.ts';

/** Longest a terminated backend takes to be gone from pg_stat_activity. */
const BACKENDS_GONE_MS = 1000;
/** Postgres's FirstNormalObjectId: objects initdb made have smaller oids. */
const FIRST_USER_OID = 16384;
const TEMP_SCHEMA = String.raw`^pg_(toast_)?temp_\d+$`;

export const postgresReuse: StoreReuse = {
  kinds: ['postgres'],
  // idle ~0 CPU ms a second against ~220 CPU ms a start.
  keepIdleMs: 30_000,
  verifies:
    'no session, lock, prepared transaction or object of the run left, its databases, roles and settings as it started',
  baseline: (store) => withClient(store, catalogsOf),
  reset: (store, baseline) =>
    withClient(store, async (client) => {
      await client.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND backend_type = 'client backend'",
      );
      const left = await backendsLeft(client);
      if (left) return left;
      await dropWhatTheRunMade(client);
      return notAsFound(client, baseline);
    }),
};

async function dropWhatTheRunMade(client: Client): Promise<void> {
  const each = async (list: string, drop: (name: string) => string) => {
    for (const { name } of (await client.query<{ name: string }>(list)).rows) await client.query(drop(name));
  };
  await each(
    'SELECT gid AS name FROM pg_prepared_xacts WHERE database = current_database()',
    (gid) => `ROLLBACK PREPARED ${literal(gid)}`,
  );
  await each(
    'SELECT slot_name AS name FROM pg_replication_slots',
    (slot) => `SELECT pg_drop_replication_slot(${literal(slot)})`,
  );
  await each(
    `SELECT datname AS name FROM pg_database WHERE oid >= ${FIRST_USER_OID}`,
    (db) => `DROP DATABASE ${ident(db)} WITH (FORCE)`,
  );
  await each(
    `SELECT extname AS name FROM pg_extension WHERE oid >= ${FIRST_USER_OID}`,
    (ext) => `DROP EXTENSION IF EXISTS ${ident(ext)} CASCADE`,
  );
  await each(
    `SELECT nspname AS name FROM pg_namespace WHERE oid >= ${FIRST_USER_OID} AND nspname !~ '${TEMP_SCHEMA}'`,
    (schema) => `DROP SCHEMA IF EXISTS ${ident(schema)} CASCADE`,
  );
  // In public: relations (a table's CASCADE takes its views, sequences and indexes), then routines and types.
  const kinds: Record<string, string> = {
    r: 'TABLE',
    p: 'TABLE',
    v: 'VIEW',
    m: 'MATERIALIZED VIEW',
    f: 'FOREIGN TABLE',
    S: 'SEQUENCE',
  };
  for (const [relkind, what] of Object.entries(kinds))
    await each(
      `SELECT relname AS name FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind = '${relkind}'`,
      (name) => `DROP ${what} IF EXISTS public.${ident(name)} CASCADE`,
    );
  await each(
    "SELECT oid::regprocedure::text AS name FROM pg_proc WHERE pronamespace = 'public'::regnamespace",
    (routine) => `DROP ROUTINE IF EXISTS ${routine} CASCADE`,
  );
  await each(
    "SELECT typname AS name FROM pg_type WHERE typnamespace = 'public'::regnamespace AND typtype IN ('e', 'd', 'c', 'r', 'm') AND typrelid = 0",
    (type) => `DROP TYPE IF EXISTS public.${ident(type)} CASCADE`,
  );
  await client.query('SELECT lo_unlink(oid) FROM pg_largeobject_metadata');
  await each(`SELECT rolname AS name FROM pg_authid WHERE oid >= ${FIRST_USER_OID}`, (role) =>
    [`DROP OWNED BY ${ident(role)} CASCADE`, `DROP ROLE ${ident(role)}`].join('; '),
  );
}

/** What is not as the server was found, or undefined. */
async function notAsFound(client: Client, baseline: string): Promise<string | undefined> {
  const locks = await client.query<{ what: string }>(
    "SELECT locktype || ' of ' || coalesce(pid::text, 'a prepared transaction') AS what FROM pg_locks WHERE pid IS DISTINCT FROM pg_backend_pid()",
  );
  if (locks.rows.length)
    return `${locks.rows.length} lock(s) of other sessions left: ${locks.rows.map((r) => r.what).join(', ')}`;
  const { rows } = await client.query<{ prepared: number; slots: number }>(
    'SELECT (SELECT count(*) FROM pg_prepared_xacts)::int AS prepared, (SELECT count(*) FROM pg_replication_slots)::int AS slots',
  );
  if (rows[0]!.prepared || rows[0]!.slots)
    return `${rows[0]!.prepared} prepared transaction(s) and ${rows[0]!.slots} replication slot(s) left`;
  const now = JSON.parse(await catalogsOf(client)) as Record<string, unknown>;
  const then = JSON.parse(baseline) as Record<string, unknown>;
  const changed = Object.keys(then).filter((part) => JSON.stringify(now[part]) !== JSON.stringify(then[part]));
  return changed.length ? `not as it started after the reset: ${changed.join(', ')} differ` : undefined;
}

/** Other client backends, waiting a moment for terminated ones to be gone. */
async function backendsLeft(client: Client): Promise<string | undefined> {
  const until = performance.now() + BACKENDS_GONE_MS;
  for (;;) {
    const { rows } = await client.query<{ pid: number; state: string | null }>(
      "SELECT pid, state FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND backend_type = 'client backend'",
    );
    if (!rows.length) return undefined;
    if (performance.now() > until)
      return `${rows.length} client backend(s) still there after pg_terminate_backend: ${rows.map((r) => `pid ${r.pid} ${r.state ?? ''}`).join(', ')}`;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * The server's catalogs as the reset compares them: rows a user made in each catalog with an oid
 * (temp schemas aside: Postgres keeps those once made), databases and roles by name, every setting.
 */
async function catalogsOf(client: Client): Promise<string> {
  const catalogs = await client.query<{ name: string }>(
    "SELECT c.relname AS name FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'oid' WHERE c.relnamespace = 'pg_catalog'::regnamespace AND c.relkind = 'r' ORDER BY 1",
  );
  const userRows: Record<string, number> = {};
  for (const { name } of catalogs.rows) {
    const temp = name === 'pg_namespace' ? ` AND nspname !~ '${TEMP_SCHEMA}'` : '';
    const { rows } = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_catalog.${ident(name)} WHERE oid >= ${FIRST_USER_OID}${temp}`,
    );
    if (rows[0]!.n) userRows[name] = rows[0]!.n;
  }
  const list = async (sql: string) => (await client.query<{ v: string }>(sql)).rows.map((row) => row.v);
  return JSON.stringify({
    'objects made after initdb': userRows,
    databases: await list('SELECT datname AS v FROM pg_database ORDER BY 1'),
    roles: await list('SELECT rolname AS v FROM pg_authid ORDER BY 1'),
    'settings (pg_settings)': await list(
      "SELECT name || '=' || coalesce(setting, '') AS v FROM pg_settings ORDER BY 1",
    ),
    pg_file_settings: await list("SELECT name || '=' || coalesce(setting, '') AS v FROM pg_file_settings ORDER BY 1"),
    pg_db_role_setting: await list(
      "SELECT setdatabase::text || '/' || setrole::text || ':' || array_to_string(setconfig, ',') AS v FROM pg_db_role_setting ORDER BY 1",
    ),
  });
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;
const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

async function withClient<T>(store: StartedStore, use: (client: Client) => Promise<T>): Promise<T> {
  const { default: pg } = await import('pg'); // loaded only by runs on a Postgres store
  const client = new pg.Client({
    connectionString: store.url,
    connectionTimeoutMillis: 5000,
    application_name: 'lock-oracles-reset',
  });
  client.on('error', () => {});
  try {
    await client.connect();
    return await use(client);
  } finally {
    await client.end().catch(() => {});
  }
}
