/**
 * A gate on a Postgres server: the harness holds an ACCESS EXCLUSIVE lock on a small table in an
 * open transaction, so a statement reading that table (`sql`) waits on the server until the gate
 * opens. A holder's pooled connection running it is really occupied: a latch on the server side.
 */
import type pg from 'pg';
import { harnessClient } from './probe.ts';

const TABLE = 'lock_oracles_gate';

export class PgGate {
  /** The statement that waits while the gate is closed. */
  readonly sql = `SELECT count(*) FROM ${TABLE}`;
  #closed = false;

  private constructor(private readonly client: pg.Client) {}

  static async create(url: string): Promise<PgGate> {
    const client = await harnessClient(url);
    await client.query(`CREATE TABLE IF NOT EXISTS ${TABLE} ()`);
    return new PgGate(client);
  }

  async close(): Promise<void> {
    await this.client.query('BEGIN');
    await this.client.query(`LOCK TABLE ${TABLE} IN ACCESS EXCLUSIVE MODE`);
    this.#closed = true;
  }

  async open(): Promise<void> {
    if (!this.#closed) return;
    this.#closed = false;
    await this.client.query('COMMIT');
  }

  async end(): Promise<void> {
    await this.open().catch(() => undefined);
    await this.client.end().catch(() => undefined);
  }
}
