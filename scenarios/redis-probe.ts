/**
 * The harness's own view of a Redis/Valkey store (never through a holder): what a key holds and
 * how long it has left. Used to confirm a fault landed (the lease really lapsed) and to judge.
 */
import { Redis } from 'ioredis';

export interface KeyState {
  exists: boolean;
  value: string | null;
  /** PTTL: ms left, -1 when the key has no expiry, -2 when it does not exist. */
  pttlMs: number;
}

export class RedisProbe {
  readonly #client: Redis;

  constructor(url: string) {
    this.#client = new Redis(url, { maxRetriesPerRequest: 1, lazyConnect: false });
    this.#client.on('error', () => undefined);
  }

  async keyState(key: string): Promise<KeyState> {
    const [[getError, value], [pttlError, pttl]] = (await this.#client.multi().get(key).pttl(key).exec()) as [
      [Error | null, string | null],
      [Error | null, number],
    ];
    if (getError || pttlError) throw getError ?? pttlError;
    return { exists: pttl !== -2, value, pttlMs: pttl };
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
