/**
 * The Postgres family: postgres, and pgbouncer in front of one (the harness reads the Postgres
 * behind it). A lock lives in a lease row the target declares (storeKey: its table, key column and
 * the timestamptz it runs until; read as `expiresColumn - now()` on the database's own clock) or in
 * a session advisory lock (the session-locks capability: pg_locks, each session named by the
 * application_name the harness gives each holder). A renewal is an UPDATE that sets a lease or expiry column; there is no delete
 * command to hold (an advisory unlock is a function call).
 */
import type { LeaseRow, StoreLocation } from '../../../targets/contract.ts';
import type { StartedStore } from '../../stores/types.ts';
import { isLeaseRow, keyOf } from '../../stores/store-location.ts';
import type { LockState, SessionLocks, StoreFamily, StoreView } from '../family.ts';
import { freeInWords, isBlank } from '../lease-fields.ts';
import { PG_RENEWAL } from './commands.ts';
import { PgGate } from './gate.ts';
import { poolerClients } from './pgbouncer-probe.ts';
import { holderOf, PgProbe, urlForHolder } from './probe.ts';
import { pgbouncerRecipe } from './pgbouncer-recipe.ts';
import { postgresReuse } from './reset.ts';
import { postgresRecipe } from './recipe.ts';

function describe(location: StoreLocation): string {
  if (isLeaseRow(location))
    return `${location.expiresColumn} - now() of ${location.table} where ${location.keyColumn} = '${location.key}'`;
  return `the lock ${JSON.stringify(keyOf(location))}`;
}

/** Only a declared lease row is read as the lock; a session advisory lock is read as session locks. */
function unreadable(location: StoreLocation): string | undefined {
  if (isLeaseRow(location)) return undefined;
  return (
    'the harness reads a lease in a table only where the target declares it, ' +
    'storeKey: (env) => ({ table, keyColumn, key: env.key, expiresColumn }); a session advisory lock shows in pg_locks instead'
  );
}

/** The URL of the Postgres server itself: the store, or the one behind a PgBouncer store. */
function postgresUrl(store: StartedStore): string {
  const postgres = store.kind === 'pgbouncer' ? store.backend : store;
  if (postgres?.kind !== 'postgres') throw new Error(`the Postgres family cannot read a ${store.kind} store`);
  return postgres.url;
}

/**
 * A lease row as the lock: live while its expiry is ahead of the database's now(); a lapsed row is
 * free, and kept. A row whose expiry is NULL, or whose declared owner column is NULL or blank, is
 * the app's "free" (../lease-fields.ts).
 */
async function leaseRow(probe: PgProbe, row: LeaseRow): Promise<LockState> {
  const found = await probe.leaseRow(row);
  const where = describe(row);
  if (!found) return { where, exists: false, value: null, pttlMs: -2 };
  const { owner, leftMs } = found;
  if (row.ownerColumn !== undefined && isBlank(owner))
    return { where, exists: false, value: owner, pttlMs: -2, free: freeInWords(row.ownerColumn, owner) };
  if (leftMs === null)
    return { where, exists: false, value: owner, pttlMs: -2, free: freeInWords(row.expiresColumn, null, owner) };
  if (leftMs > 0) return { where, exists: true, value: owner, pttlMs: Math.floor(leftMs) };
  return {
    where,
    exists: false,
    value: null,
    pttlMs: -2,
    lapsedRecord: { value: owner, lapsedMs: Math.round(-leftMs) },
  };
}

function view(store: StartedStore): StoreView {
  let opened: Promise<PgProbe> | undefined;
  const probe = () => (opened ??= PgProbe.open(postgresUrl(store)));
  const sessionLocks: SessionLocks = {
    locks: async () =>
      (await (await probe()).advisoryLocks()).map((lock) => ({
        session: lock.pid,
        granted: lock.granted,
        mode: lock.mode,
        key: lock.key,
        holder: holderOf(lock.application),
      })),
    sessions: async () =>
      (await (await probe()).clientSessions()).map((session) => ({
        session: session.pid,
        holder: holderOf(session.application),
        state: session.state,
        waitEventType: session.waitEventType,
        query: session.query,
      })),
    gate: () => PgGate.create(postgresUrl(store)),
    ...(store.kind === 'pgbouncer'
      ? {
          poolerClients: async () =>
            (await poolerClients(store.url)).map((client) => ({
              holder: holderOf(client.application),
              state: client.state,
            })),
        }
      : {}),
  };
  return {
    lock: async (location) => {
      if (!isLeaseRow(location)) throw new Error(unreadable(location));
      return leaseRow(await probe(), location);
    },
    sessionLocks,
    clockMs: async () => (await probe()).clockMs(),
    // The holders' sessions on the Postgres itself (behind PgBouncer: its server connections, not the clients').
    ...(store.kind === 'postgres'
      ? {
          killClients: async (addresses: readonly string[]) => {
            const ports = addresses.map((address) => Number(address.split(':').at(-1)));
            return {
              command: `pg_terminate_backend for client ports ${ports.join(', ')}`,
              killed: await (await probe()).terminateClients(ports),
            };
          },
        }
      : {}),
    close: async () => {
      if (opened) await (await opened).close();
    },
  };
}

export const postgresFamily: StoreFamily = {
  name: 'postgres',
  recipes: [postgresRecipe, pgbouncerRecipe],
  // One Postgres server serves several runs of a batch, reset in place and verified between them (not PgBouncer).
  reuse: postgresReuse,
  describe,
  unreadable,
  view,
  commands: {
    renewal: () => PG_RENEWAL,
    // An advisory-lock call, or a statement naming the lock (a lease row's key).
    touches: ({ text, args }, location) =>
      /pg_\w*advisory\w*lock/i.test(text) || text.includes(keyOf(location)) || args.includes(keyOf(location)),
  },
  holderUrl: urlForHolder,
  // A lease row's end is an instant the app writes, compared in SQL on the server's now().
  expiryClock: 'store',
  clients: {
    node: ['pg', 'pg-pool', 'postgres'],
    python: ['psycopg', 'psycopg2', 'psycopg_pool', 'asyncpg'],
    java: ['org.postgresql'],
    go: ['github.com/jackc/pgx', 'github.com/lib/pq'],
  },
};
