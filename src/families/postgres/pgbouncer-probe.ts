/** The harness's view of a PgBouncer store through its admin console: which clients it serves. */
import { harnessClient } from './probe.ts';

export interface PoolerClient {
  application: string;
  state: string;
}

/** SHOW CLIENTS on the pooler at `url` (the admin console answers simple queries only). */
export async function poolerClients(url: string): Promise<PoolerClient[]> {
  const admin = new URL(url);
  admin.pathname = '/pgbouncer';
  const client = await harnessClient(admin.href);
  try {
    const result = await client.query<{ application_name: string; state: string }>('SHOW CLIENTS');
    return result.rows.map((row) => ({ application: row.application_name, state: row.state }));
  } finally {
    await client.end().catch(() => undefined);
  }
}
