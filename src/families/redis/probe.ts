/**
 * The harness's own view of a Redis/Valkey store (never through a holder): what the lock's key (or
 * its hash field) holds and how long it has left. Used to confirm a fault landed (the lease really
 * lapsed) and to judge.
 */
import type { Redis } from 'ioredis';
import { ioredis } from './ioredis.ts';
import type { StoreLocation } from '../../../targets/contract.ts';
import { isFileLock, isLeaseRow, keyOf } from '../../stores/store-location.ts';
import type { LockState } from '../family.ts';
import { byAppClock, freeInWords, isBlank } from '../lease-fields.ts';

export class RedisProbe {
  readonly #client: Redis;

  constructor(url: string) {
    this.#client = new (ioredis().Redis)(url, { maxRetriesPerRequest: 1, lazyConnect: false });
    this.#client.on('error', () => undefined);
  }

  /**
   * The key's (or hash field's) value and the key's PTTL, read in one MULTI; a hash field with an
   * expiresField is judged by that instant on the harness's clock instead (../lease-fields.ts). A
   * hash field that is blank or absent in a hash that is there is the app's "free".
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
      return byAppClock(value, expires, pttl, { key, owner: location.field, field: location.expiresField }, Date.now());
    }
    const read = this.#client.multi();
    if (typeof location === 'string') read.get(key);
    else read.hget(key, location.field);
    const [[readError, value], [pttlError, pttl]] = (await read.pttl(key).exec()) as [
      [Error | null, string | null],
      [Error | null, number],
    ];
    if (readError || pttlError) throw readError ?? pttlError;
    if (typeof location === 'string') return { exists: pttl !== -2, value, pttlMs: pttl };
    if (pttl !== -2 && isBlank(value))
      return { exists: false, value, pttlMs: -2, free: freeInWords(location.field, value) };
    return { exists: value !== null, value, pttlMs: pttl };
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
