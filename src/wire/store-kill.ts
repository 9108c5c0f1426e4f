/**
 * Kill a holder's connections from the store's side, the way an operator or a failover would:
 * Redis `CLIENT KILL ADDR ip:port`, Postgres `pg_terminate_backend` — picked out by the
 * store-side addresses of the holder's wire proxy connections, so no other client is touched.
 */
import { Redis } from 'ioredis';
import { speaksRedis, type StartedStore } from '../stores/types.ts';

export interface StoreKill {
  /** The command as run, for the evidence. */
  command: string;
  /** Connections the store closed. */
  killed: number;
}

export async function killFromStore(store: StartedStore, addresses: readonly string[]): Promise<StoreKill> {
  if (speaksRedis(store.kind)) {
    const admin = new Redis(store.url, { maxRetriesPerRequest: 1 });
    admin.on('error', () => undefined);
    try {
      let killed = 0;
      for (const address of addresses)
        killed += Number(await admin.call('CLIENT', 'KILL', 'ADDR', address, 'SKIPME', 'yes'));
      return { command: addresses.map((address) => `CLIENT KILL ADDR ${address}`).join('; '), killed };
    } finally {
      admin.disconnect();
    }
  }
  if (store.kind === 'postgres') {
    const ports = addresses.map((address) => Number(address.split(':').at(-1)));
    const { Client } = (await import('pg')).default; // only Postgres runs load pg (start-up time)
    const admin = new Client({ connectionString: store.url });
    admin.on('error', () => undefined);
    await admin.connect();
    try {
      const sql =
        "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) AS killed FROM pg_stat_activity WHERE client_addr = '127.0.0.1' AND client_port = ANY($1::int[])";
      const result = await admin.query<{ killed: string }>(sql, [ports]);
      return {
        command: `pg_terminate_backend for client ports ${ports.join(', ')}`,
        killed: Number(result.rows[0]?.killed ?? 0),
      };
    } finally {
      await admin.end();
    }
  }
  throw new Error(
    `cannot kill connections from the store's side on ${store.kind}: only redis, valkey and postgres are supported`,
  );
}
