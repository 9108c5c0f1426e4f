/**
 * The Redis family: redis-server and valkey-server (one protocol, one command set: every Redis
 * oracle runs on both). A lock lives in a key (its value the owner's token, its PTTL the lease) or
 * a hash field (the key's PTTL the lease); the harness reads it with GET / HGET and PTTL in one
 * MULTI. Deletes and renewals are recognised at the wire by command or by script body.
 */
import type { StoreLocation } from '../../../targets/contract.ts';
import { isFileLock, isLeaseRow, keyOf } from '../../stores/store-location.ts';
import { onKey } from '../../wire/command.ts';
import type { StoreFamily } from '../family.ts';
import { clearsHashField, REDIS_DELETE, REDIS_RENEWAL } from './commands.ts';
import { redisAcquireWrites, redisLockLocations } from './lock-keys.ts';
import { RedisProbe } from './probe.ts';
import { TopologyView } from './topology/node-view.ts';
import { TOPOLOGY_FAULTS } from './topology/faults/index.ts';
import { redisRecipe, valkeyRecipe } from './recipe.ts';
import { redisReuse } from './reset.ts';

function describe(location: StoreLocation): string {
  if (typeof location === 'string') return `GET ${location}`;
  if (isLeaseRow(location)) return `a lease row of ${location.table}, which a Redis store does not have`;
  if (isFileLock(location)) return `a file lock at ${location.path}, which a Redis store does not have`;
  return location.expiresField === undefined
    ? `HGET ${location.key} ${location.field}`
    : `HMGET ${location.key} ${location.field} ${location.expiresField} (its end on the app's clock)`;
}

export const redisFamily: StoreFamily = {
  name: 'redis',
  recipes: [redisRecipe, valkeyRecipe],
  reuse: redisReuse,
  describe,
  unreadable: (location) =>
    isLeaseRow(location)
      ? `storeKey(env) names a Postgres lease row (${location.table}), but the store speaks Redis: return the key the lock lives under, e.g. 'lock.' + env.key, or a hash field { key, field }; a lease row's target runs with --store postgres`
      : isFileLock(location)
        ? `storeKey(env) names a file lock (${location.path}), but the store speaks Redis: return the key the lock lives under, e.g. 'lock.' + env.key; a file lock's target runs with --store fs`
        : undefined,
  view(store) {
    const probe = new RedisProbe(store.url);
    const nodes = store.topology ? new TopologyView(store.topology) : undefined;
    return {
      // On a topology: the lock as the holders' URL leads (the master now), and as every node holds it.
      lock: async (location) => ({
        where: describe(location),
        ...(await probe.keyState(location)),
        ...(nodes ? { nodes: await nodes.read(location) } : {}),
      }),
      clockMs: () => probe.timeMs(),
      killClients: async (addresses) => ({
        command: addresses.map((address) => `CLIENT KILL ADDR ${address}`).join('; '),
        killed: await probe.killClients(addresses),
      }),
      close: async () => {
        await probe.close();
        await nodes?.close();
      },
    };
  },
  commands: {
    // A lock in a hash field is also freed by clearing the field (HDEL, or HSET to '').
    delete: (location) =>
      onKey(
        typeof location === 'object' && 'field' in location
          ? [...REDIS_DELETE, ...clearsHashField(location.field)]
          : REDIS_DELETE,
        keyOf(location),
      ),
    renewal: (location) => onKey(REDIS_RENEWAL, keyOf(location)),
    lockLocations: redisLockLocations,
    acquireWrites: redisAcquireWrites,
    touches: ({ text, args }, location) => args.includes(keyOf(location)) || text.includes(keyOf(location)),
  },
  holderUrl: (url) => url,
  scriptsByDigest: true,
  // A key with PX: it lapses in the store whatever A's connection does, and the harness reads it go (PTTL).
  lapsesWhenCutOff: true,
  showsLeaseLapse: true,
  faults: TOPOLOGY_FAULTS,
  clients: {
    node: ['ioredis', 'redis', '@redis/client', 'redlock', '@sesamecare-oss/redlock', 'redis-semaphore'],
    python: ['redis', 'valkey', 'redis_lock', 'pottery'],
    java: ['redis.clients.jedis', 'io.lettuce', 'org.redisson'],
    go: [
      'github.com/gomodule/redigo',
      'github.com/redis/go-redis',
      'github.com/go-redis/redis',
      'github.com/go-redsync/redsync',
      'github.com/bsm/redislock',
    ],
  },
};
