/**
 * The harness's own view of a Postgres store (never through a holder, never through PgBouncer):
 * which advisory locks exist and which client sessions are connected. Holders are told apart by
 * the application_name the harness puts in the URL it hands each of them (PgBouncer passes it on
 * to whichever server session runs the client's statement).
 */
import type pg from 'pg';
import type { LeaseRow } from '../../../targets/contract.ts';

const HARNESS_APPLICATION = 'lock-oracles-harness';

export interface AdvisoryLock {
  pid: number;
  granted: boolean;
  mode: string;
  /** The lock's key as Postgres shows it: "classid/objid/objsubid". */
  key: string;
  /** application_name of the session holding (or awaiting) it. */
  application: string;
}

export interface ClientSession {
  pid: number;
  application: string;
  state: string | null;
  waitEventType: string | null;
  query: string;
}

/** The application_name holder `id` connects with. */
export function holderApplication(id: string): string {
  return `lock-oracles-${id}`;
}

/** The holder a session's application_name names ('' for a session that is no holder's). */
export function holderOf(application: string): string {
  return application.startsWith('lock-oracles-') && application !== HARNESS_APPLICATION
    ? application.slice('lock-oracles-'.length)
    : '';
}

/** `url` with holder `id`'s application_name. */
export function urlForHolder(url: string, id: string): string {
  const withName = new URL(url);
  withName.searchParams.set('application_name', holderApplication(id));
  return withName.href;
}

/** Connect as the harness (its own sessions are left out of every listing). */
export async function harnessClient(url: string): Promise<pg.Client> {
  const { Client } = (await import('pg')).default; // only Postgres runs load pg (start-up time)
  const client = new Client({
    connectionString: url,
    application_name: HARNESS_APPLICATION,
    connectionTimeoutMillis: 5000,
  });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

export class PgProbe {
  private constructor(readonly client: pg.Client) {}

  static async open(url: string): Promise<PgProbe> {
    return new PgProbe(await harnessClient(url));
  }

  /** Every advisory lock in the cluster, granted or awaited, with its session's application. */
  async advisoryLocks(): Promise<AdvisoryLock[]> {
    const result = await this.client.query<AdvisoryLock>(
      `SELECT l.pid, l.granted, l.mode, concat_ws('/', l.classid, l.objid, l.objsubid) AS key,
              coalesce(a.application_name, '') AS application
         FROM pg_locks l LEFT JOIN pg_stat_activity a ON a.pid = l.pid
        WHERE l.locktype = 'advisory'
        ORDER BY l.pid`,
    );
    return result.rows;
  }

  /** Client sessions other than the harness's own. */
  async clientSessions(): Promise<ClientSession[]> {
    const result = await this.client.query<ClientSession>(
      `SELECT pid, application_name AS application, state, wait_event_type AS "waitEventType", query
         FROM pg_stat_activity
        WHERE backend_type = 'client backend' AND application_name <> $1
        ORDER BY pid`,
      [HARNESS_APPLICATION],
    );
    return result.rows;
  }

  /**
   * How long a lease row has left by the database's own clock (`expiresColumn - now()`), in ms, and
   * its owner (when the row declares its owner column); undefined when the row is missing, leftMs
   * null when its expiry is NULL. `table` may be schema-qualified (`app.leases`).
   */
  async leaseRow(row: LeaseRow): Promise<{ leftMs: number | null; owner: string | null } | undefined> {
    const id = (name: string) =>
      name
        .split('.')
        .map((part) => this.client.escapeIdentifier(part))
        .join('.');
    const owner = row.ownerColumn ? `${id(row.ownerColumn)}::text` : 'NULL::text';
    const result = await this.client.query<{ left_ms: number | null; owner: string | null }>(
      `SELECT (extract(epoch FROM (${id(row.expiresColumn)} - now())) * 1000)::float8 AS left_ms, ${owner} AS owner FROM ${id(row.table)} WHERE ${id(row.keyColumn)} = $1`,
      [row.key],
    );
    const found = result.rows[0];
    return found && { leftMs: found.left_ms, owner: found.owner };
  }

  /** pg_terminate_backend for every loopback client on these ports; how many backends it ended. */
  async terminateClients(ports: readonly number[]): Promise<number> {
    const result = await this.client.query<{ killed: string }>(
      "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) AS killed FROM pg_stat_activity WHERE client_addr = '127.0.0.1' AND client_port = ANY($1::int[])",
      [ports],
    );
    return Number(result.rows[0]?.killed ?? 0);
  }

  /** The server's wall clock (clock_timestamp(), not the transaction's now()), in epoch ms. */
  async clockMs(): Promise<number> {
    const { rows } = await this.client.query<{ ms: string }>(
      'select (extract(epoch from clock_timestamp()) * 1000)::float8 as ms',
    );
    return Number(rows[0]!.ms);
  }

  async close(): Promise<void> {
    await this.client.end().catch(() => undefined);
  }
}
