/** One `SHOW …` answer from a Postgres-speaking server we started (Postgres itself, or PgBouncer's admin console). */
import type { ClientConfig } from 'pg';

export async function pgShow(connection: ClientConfig, command: string, column: string): Promise<string | undefined> {
  const { default: pg } = await import('pg'); // loaded only by runs on a Postgres-speaking store
  const client = new pg.Client({ ...connection, connectionTimeoutMillis: 2000 });
  client.on('error', () => {});
  try {
    await client.connect();
    const result = await client.query<Record<string, string>>(command); // simple query: PgBouncer's console answers no other kind
    return result.rows[0]?.[column];
  } finally {
    await client.end().catch(() => {});
  }
}
