/**
 * The harness's own view of a Redis/Valkey store (never through a holder): what the lock's key (or
 * its hash field) holds and how long it has left. Used to confirm a fault landed (the lease really
 * lapsed) and to judge.
 */
import { Redis } from 'ioredis';
import type { StoreLocation } from '../../targets/contract.ts';
import { describeLocation, isLeaseRow, keyOf } from './store-location.ts';

export interface KeyState {
  /** Where the harness looked: "GET lock.k" or "HGET job:k owner". */
  where: string;
  /** The key (or, for a hash field, the field) exists. */
  exists: boolean;
  value: string | null;
  /** PTTL of the key: ms left, -1 when the key has no expiry, -2 when it does not exist. */
  pttlMs: number;
}

export class RedisProbe {
  readonly #client: Redis;

  constructor(url: string) {
    this.#client = new Redis(url, { maxRetriesPerRequest: 1, lazyConnect: false });
    this.#client.on('error', () => undefined);
  }

  async keyState(location: StoreLocation): Promise<KeyState> {
    if (isLeaseRow(location))
      throw new Error(
        `storeKey(env) names a Postgres lease row (${describeLocation(location)}), but the store speaks Redis: declare a key or a hash field`,
      );
    const key = keyOf(location);
    const read = this.#client.multi();
    if (typeof location === 'string') read.get(key);
    else read.hget(key, location.field);
    const [[readError, value], [pttlError, pttl]] = (await read.pttl(key).exec()) as [
      [Error | null, string | null],
      [Error | null, number],
    ];
    if (readError || pttlError) throw readError ?? pttlError;
    const exists = typeof location === 'string' ? pttl !== -2 : value !== null;
    return { where: describeLocation(location), exists, value, pttlMs: pttl };
  }

  /** The server's wall clock (TIME), in epoch ms. */
  async timeMs(): Promise<number> {
    const [seconds, micros] = await this.#client.time();
    return Number(seconds) * 1000 + Number(micros) / 1000;
  }

  async close(): Promise<void> {
    this.#client.disconnect();
  }
}
