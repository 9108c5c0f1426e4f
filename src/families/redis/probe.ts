/**
 * The harness's own view of a Redis/Valkey store (never through a holder): what the lock's key (or
 * its hash field) holds and how long it has left. Used to confirm a fault landed (the lease really
 * lapsed) and to judge.
 */
import { Redis } from 'ioredis';
import type { StoreLocation } from '../../../targets/contract.ts';
import { isFileLock, isLeaseRow, keyOf } from '../../stores/store-location.ts';
import type { LockState } from '../family.ts';
import { byAppClock } from './app-clock-expiry.ts';

export class RedisProbe {
  readonly #client: Redis;

  constructor(url: string) {
    this.#client = new Redis(url, { maxRetriesPerRequest: 1, lazyConnect: false });
    this.#client.on('error', () => undefined);
  }

  /**
   * The key's (or hash field's) value and the key's PTTL, read in one MULTI; a hash field with an
   * expiresField is judged by that instant on the harness's clock instead (./app-clock-expiry.ts).
   */
  async keyState(location: StoreLocation): Promise<Omit<LockState, 'where'>> {
    if (isLeaseRow(location)) throw new Error(`a Redis store has no lease rows (${location.table})`);
    if (isFileLock(location)) throw new Error(`a Redis store has no file locks (${location.path})`);
    const key = keyOf(location);
    if (typeof location !== 'string' && location.expiresField !== undefined) {
      const [[readError, fields], [pttlError, pttl]] = (await this.#client
        .multi()
        .hmget(key, location.field, location.expiresField)
        .pttl(key)
        .exec()) as [[Error | null, Array<string | null>], [Error | null, number]];
      if (readError || pttlError) throw readError ?? pttlError;
      const [value, expires] = fields as [string | null, string | null];
      return byAppClock(value, expires, pttl, { key, field: location.expiresField }, Date.now());
    }
    const read = this.#client.multi();
    if (typeof location === 'string') read.get(key);
    else read.hget(key, location.field);
    const [[readError, value], [pttlError, pttl]] = (await read.pttl(key).exec()) as [
      [Error | null, string | null],
      [Error | null, number],
    ];
    if (readError || pttlError) throw readError ?? pttlError;
    const exists = typeof location === 'string' ? pttl !== -2 : value !== null;
    return { exists, value, pttlMs: pttl };
  }

  /** CLIENT KILL ADDR for each address (never this probe's own connection); how many the server closed. */
  async killClients(addresses: readonly string[]): Promise<number> {
    let killed = 0;
    for (const address of addresses)
      killed += Number(await this.#client.call('CLIENT', 'KILL', 'ADDR', address, 'SKIPME', 'yes'));
    return killed;
  }

  /** INFO `section`, as the server prints it. */
  info(section: string): Promise<string> {
    return this.#client.info(section);
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
