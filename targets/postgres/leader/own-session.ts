/**
 * A replica's own server session for a session advisory lock: one pg.Client, opened again when the
 * server ended the last one (a terminated backend), as a service's client reconnects. The lock lives
 * on the session that took it; `pid()` says which session answers now (undefined: none answers).
 */
import pg from 'pg';
import type { TargetEnv } from '../../contract.ts';
import { ok, TRY_LOCK } from '../sql.ts';

export class OwnSession {
  #client: pg.Client | undefined;
  #ended = false;

  constructor(private readonly env: TargetEnv) {}

  /** The client, opened again when the server ended the last one. */
  async #open(): Promise<pg.Client> {
    if (this.#client && !this.#ended) return this.#client;
    void this.#client?.end().catch(() => undefined);
    const client = new pg.Client({ connectionString: this.env.url });
    this.#ended = false;
    // The server can end the session under it: log it and open another at the next use.
    client.on('error', (error) => {
      this.env.log(`pg client: ${error.message}`);
      this.#ended = true;
    });
    client.on('end', () => (this.#ended = true));
    this.#client = client;
    await client.connect();
    return client;
  }

  /** pg_try_advisory_lock on this session: whether it took the lock (false when the session is gone). */
  async tryLock(): Promise<boolean> {
    return this.#open()
      .then((client) => client.query(TRY_LOCK, [this.env.key]))
      .then(ok, (error: Error) => (this.env.log(`try lock failed: ${error.message}`), false));
  }

  /** The backend pid of the session answering now; undefined when none does. */
  async pid(): Promise<number | undefined> {
    return this.#open()
      .then((client) => client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid'))
      .then(
        (result) => result.rows[0]?.pid,
        (error: Error) => (this.env.log(`session check failed: ${error.message}`), undefined),
      );
  }

  async close(): Promise<void> {
    await this.#client?.end().catch(() => undefined);
    this.#client = undefined;
  }
}
