/**
 * Ready bindings for the hand-written Redis lock most projects have: `SET key token PX ttl NX` to
 * take it, a Lua compare-and-delete to release it, a Lua compare-and-pexpire to extend it.
 *
 *   export default ioredisSetNx(({ url }) => new Redis(url));
 *   export default nodeRedisSetNx(({ url }) => createClient({ url }));
 *
 * Lock shape (V310, V311, with both seams), job shape (V312, V313: take, write `steps` times,
 * compare-and-delete; a fixed TTL with no renewal) and leader shape (V315: one such run per term).
 * `{ fence: true }` adds a fencing token (`INCR <key>:fence`) that every write carries.
 */
import { randomUUID } from 'node:crypto';
import { defineTarget, type Lease, type Target, type TargetEnv } from '../contract.ts';
import { COMPARE_AND_DELETE, COMPARE_AND_PEXPIRE } from '../redis/lua.ts';
import { acquireRunRelease, closeClient, jobAndLeader } from './from-with-lock.ts';

/** The four commands the pattern needs, from whichever client. */
interface SetNxCommands {
  /** SET key value PX ttl NX; true when set. */
  setNxPx(key: string, value: string, ttlMs: number): Promise<boolean>;
  /** EVAL a script with one key; its integer reply. */
  evalOneKey(script: string, key: string, args: string[]): Promise<number>;
  incr(key: string): Promise<number>;
}

export interface SetNxOptions {
  /** Give every write a fencing token from `INCR <key>:fence`, taken right after the lock. */
  fence?: boolean;
}

/**
 * What ioredisSetNx uses of an ioredis client. Structural, so the client of the project's own
 * ioredis version fits (a class type from the harness's copy would not).
 */
export interface IoredisLike {
  set(key: string, value: string, px: 'PX', ttlMs: number, nx: 'NX'): Promise<unknown>;
  eval(script: string, numKeys: number, ...keysAndArgs: string[]): Promise<unknown>;
  incr(key: string): Promise<number>;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/** What nodeRedisSetNx uses of a node-redis client (structural, as IoredisLike). */
export interface NodeRedisLike {
  readonly isOpen: boolean;
  connect(): Promise<unknown>;
  set(key: string, value: string, options: { PX: number; NX: true }): Promise<unknown>;
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  incr(key: string): Promise<number>;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

export function ioredisSetNx(
  connect: (env: TargetEnv) => IoredisLike | Promise<IoredisLike>,
  options: SetNxOptions = {},
): Target {
  return setNxTarget(
    'ioredis',
    async (env) => {
      const redis = await connect(env);
      redis.on('error', (error: Error) => env.log(`ioredis: ${error.message}`));
      const commands: SetNxCommands = {
        setNxPx: async (key, value, ttlMs) => (await redis.set(key, value, 'PX', ttlMs, 'NX')) === 'OK',
        evalOneKey: async (script, key, args) => Number(await redis.eval(script, 1, key, ...args)),
        incr: (key) => redis.incr(key),
      };
      return { commands, client: redis };
    },
    options,
  );
}

export function nodeRedisSetNx(
  connect: (env: TargetEnv) => NodeRedisLike | Promise<NodeRedisLike>,
  options: SetNxOptions = {},
): Target {
  return setNxTarget(
    'node-redis',
    async (env) => {
      const redis = await connect(env);
      // node-redis throws an 'error' event nobody listens to, which would crash the holder.
      redis.on('error', (error: Error) => env.log(`node-redis: ${error.message}`));
      if (!redis.isOpen) await redis.connect();
      const commands: SetNxCommands = {
        setNxPx: async (key, value, ttlMs) => (await redis.set(key, value, { PX: ttlMs, NX: true })) === 'OK',
        evalOneKey: async (script, key, args) => Number(await redis.eval(script, { keys: [key], arguments: args })),
        incr: (key) => redis.incr(key),
      };
      return { commands, client: redis };
    },
    options,
  );
}

function setNxTarget(
  library: string,
  open: (env: TargetEnv) => Promise<{ commands: SetNxCommands; client: unknown }>,
  options: SetNxOptions,
): Target {
  let opened: { commands: SetNxCommands; client: unknown } | undefined;
  const redis = (): SetNxCommands => {
    if (!opened)
      throw new Error(`${library}SetNx: the client is not connected: the harness must call connect(env) first`);
    return opened.commands;
  };

  async function acquire(env: TargetEnv): Promise<Lease | null> {
    const token = randomUUID();
    if (!(await redis().setNxPx(env.key, token, env.ttlMs))) return null;
    await env.seam('acquire:after-set');
    return { token, ...(options.fence ? { fence: await redis().incr(`${env.key}:fence`) } : {}) };
  }
  async function release(env: TargetEnv, lease: Lease): Promise<boolean> {
    await env.seam('release:before-delete');
    return (await redis().evalOneKey(COMPARE_AND_DELETE, env.key, [String(lease.token)])) === 1;
  }

  return defineTarget({
    description: `${library}: SET NX PX, Lua compare-and-delete release, Lua compare-and-pexpire extend${options.fence ? ', INCR fencing token' : ''}`,
    async connect(env) {
      opened = await open(env);
    },
    acquire,
    release,
    async extend(env, lease, ttlMs) {
      return (await redis().evalOneKey(COMPARE_AND_PEXPIRE, env.key, [String(lease.token), String(ttlMs)])) === 1;
    },
    ...jobAndLeader(acquireRunRelease(acquire, release), { fence: (lease: Lease) => lease.fence }),
    async close() {
      const client = opened?.client;
      opened = undefined;
      await closeClient(client);
    },
  });
}
