/**
 * The harness's own ZooKeeper client (node-zookeeper-client, pure JS), as promises: the reads the
 * view makes (a node's data and stat, its children), and the server's wall clock by the mtime of
 * a probe node it writes. One session, opened on first use. The client library is required then
 * too, not when the family's code loads: a run on any other store never pays its load (~20 ms of
 * CPU at a CLI's start).
 */
import { createRequire } from 'node:module';
import type { Client, Stat } from 'node-zookeeper-client';

type ZookeeperClient = typeof import('node-zookeeper-client');
/** The client library, required on first use (also by the reset of a served server, ./reset.ts). */
export const zookeeper = (): ZookeeperClient =>
  createRequire(import.meta.url)('node-zookeeper-client') as ZookeeperClient;

export interface NodeRead {
  data: Buffer;
  stat: Stat;
}

export class ZkReads {
  readonly #client: Client;
  readonly #connected: Promise<void>;

  constructor(connectString: string) {
    this.#client = zookeeper().createClient(connectString, { sessionTimeout: 10_000, retries: 0, spinDelay: 50 });
    this.#connected = new Promise((resolve) => this.#client.once('connected', () => resolve()));
    this.#client.connect();
  }

  /** The node's data and stat, or null when there is no such node. */
  async node(path: string): Promise<NodeRead | null> {
    await this.#connected;
    return new Promise((resolve, reject) =>
      this.#client.getData(path, (error, data, stat) => {
        if (!error) resolve({ data: data ?? Buffer.alloc(0), stat });
        else if (isNoNode(error)) resolve(null);
        else reject(error);
      }),
    );
  }

  /** The node's children's names, or null when there is no such node. */
  async children(path: string): Promise<string[] | null> {
    await this.#connected;
    return new Promise((resolve, reject) =>
      this.#client.getChildren(path, (error, children) => {
        if (!error) resolve(children);
        else if (isNoNode(error)) resolve(null);
        else reject(error);
      }),
    );
  }

  /**
   * The server's wall clock, epoch ms, as of when the call resolves: the mtime the leader stamps
   * (its System.currentTimeMillis) on a write of the harness's own probe node (CLOCK_PROBE),
   * carried on by half the write's round trip. The harness's one write to the store.
   */
  async clockMs(): Promise<number> {
    await this.#connected;
    await new Promise<void>((resolve, reject) =>
      this.#client.create(CLOCK_PROBE, (error) => (!error || isNodeExists(error) ? resolve() : reject(error))),
    );
    const sentAt = performance.now();
    const stat = await new Promise<Stat>((resolve, reject) =>
      this.#client.setData(CLOCK_PROBE, Buffer.alloc(0), (error, stat) => (error ? reject(error) : resolve(stat))),
    );
    const receivedAt = performance.now();
    return Number(stat.mtime.readBigInt64BE(0)) + (performance.now() - (sentAt + receivedAt) / 2);
  }

  close(): void {
    this.#client.close();
  }
}

/** The node whose mtime tells the server's clock (clockMs): the harness's own, outside any lock's path. */
export const CLOCK_PROBE = '/lock-oracles-clock';

function isNodeExists(error: unknown): boolean {
  return (error as { getCode?: () => number }).getCode?.() === zookeeper().Exception.NODE_EXISTS;
}

function isNoNode(error: unknown): boolean {
  return (error as { getCode?: () => number }).getCode?.() === zookeeper().Exception.NO_NODE;
}

/** A zxid or session id (8 bytes, big-endian) as ZooKeeper prints it: "0x1000…"; "0x0" for none. */
export function hexId(bytes: Buffer): string {
  return `0x${bytes.readBigUInt64BE(0).toString(16)}`;
}
