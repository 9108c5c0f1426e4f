/**
 * Redis and Valkey served again after a run (src/families/store-reuse.ts): every client the run left
 * connected killed (a holder's, a blocked BLPOP, a MONITOR), client pauses lifted, every key of
 * every database, every cached script and function flushed, and then verified: no client but the
 * reset's own, no key, no script, no function, and CONFIG GET * and ACL LIST as they were when the
 * server started (a run that changed either leaves a server the next run must not get).
 */
import type { Redis } from 'ioredis';
import { ioredis } from './ioredis.ts';
import type { StartedStore } from '../../stores/types.ts';
import type { StoreReuse } from '../store-reuse.ts';

/** Longest a killed client takes to be gone from CLIENT LIST. */
const CLIENTS_GONE_MS = 1000;

export const redisReuse: StoreReuse = {
  kinds: ['redis', 'valkey'],
  // idle ~1 CPU ms a second against ~35 CPU ms a start.
  keepIdleMs: 30_000,
  verifies: 'no key, script or client left, its configuration as it started',
  baseline: (store) => withConnection(store, configOf),
  reset: (store, baseline) =>
    withConnection(store, async (redis) => {
      await redis.call('CLIENT', 'UNPAUSE');
      await redis.call('CLIENT', 'KILL', 'SKIPME', 'yes');
      await redis.call('FUNCTION', 'FLUSH', 'SYNC');
      await redis.call('SCRIPT', 'FLUSH', 'SYNC');
      await redis.call('FLUSHALL', 'SYNC');
      return notAsFound(redis, baseline);
    }),
};

/** What is not as the server was found, or undefined. */
async function notAsFound(redis: Redis, baseline: string): Promise<string | undefined> {
  const others = await clientsLeft(redis);
  if (others.length) return `${others.length} client(s) still connected after CLIENT KILL: ${others.join('; ')}`;
  const keyspace = (await redis.info('keyspace')).split('\n').filter((line) => /^db\d+:/.test(line));
  if (keyspace.length) return `keys left after FLUSHALL: ${keyspace.join(', ')}`;
  const scripts = /number_of_cached_scripts:(\d+)/.exec(await redis.info('memory'))?.[1];
  if (scripts !== '0') return `${scripts ?? 'an unknown number of'} cached script(s) left after SCRIPT FLUSH`;
  const functions = (await redis.call('FUNCTION', 'LIST')) as unknown[];
  if (functions.length) return `${functions.length} function librar(ies) left after FUNCTION FLUSH`;
  if ((await configOf(redis)) !== baseline) return 'its configuration (CONFIG GET *, ACL LIST) changed during the run';
  return undefined;
}

/** Other clients than this connection, waiting a moment for killed ones to be gone. */
async function clientsLeft(redis: Redis): Promise<string[]> {
  const own = `id=${String(await redis.call('CLIENT', 'ID'))} `;
  const until = performance.now() + CLIENTS_GONE_MS;
  for (;;) {
    const list = String(await redis.call('CLIENT', 'LIST'))
      .trim()
      .split('\n');
    const others = list.filter((line) => !line.startsWith(own));
    if (!others.length || performance.now() > until) return others.map((line) => line.slice(0, 120));
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function configOf(redis: Redis): Promise<string> {
  const config = (await redis.call('CONFIG', 'GET', '*')) as string[];
  const pairs: string[] = [];
  for (let i = 0; i < config.length; i += 2) pairs.push(`${config[i]}=${config[i + 1]}`);
  return JSON.stringify({ config: pairs.sort(), acl: await redis.call('ACL', 'LIST') });
}

async function withConnection<T>(store: StartedStore, use: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new (ioredis().Redis)(store.url, {
    connectionName: 'lock-oracles-reset',
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
  });
  redis.on('error', () => {});
  try {
    await redis.connect();
    return await use(redis);
  } finally {
    redis.disconnect();
  }
}
