/**
 * One Redis/Valkey node of a topology as a local process: its own loopback port and run dir, the
 * scratch server's arguments plus the node's own (`--replicaof`, `--sentinel`), killed with the
 * harness (setpriv --pdeathsig), and restartable on the same port with an empty dataset.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { makeRunDir } from '../../../process/run-dir.ts';
import { serverClockFor } from '../../../stores/clock-offset/server-clock.ts';
import { freePort } from '../../../stores/free-port.ts';
import { spawnServer, waitUntilReady, type ServerProcess } from '../../../stores/server-process.ts';
import type { StoreClock, StoreKind } from '../../../stores/types.ts';
import type { NodeRole, TopologyNode } from '../../../stores/topology.ts';
import { serverArgs, serverBinary, serverVersion } from '../recipe.ts';

export interface NodeOptions {
  kind: StoreKind;
  name: string;
  role: NodeRole;
  /** Arguments after the scratch server's (e.g. --replicaof 127.0.0.1 <relay port>). */
  args?: string[];
  /** A Sentinel: this configuration file body (it must be writable: Sentinel rewrites it). */
  sentinelConfig?: (port: number) => string;
  /** Start it with the clock-offset library, so its wall clock can be stepped. */
  clock?: boolean;
}

export class RedisNode implements TopologyNode {
  role: NodeRole;
  version = '';
  #server: ServerProcess | undefined;
  #clock: StoreClock | undefined;
  readonly #removeDir: () => Promise<void>;

  private constructor(
    readonly options: NodeOptions,
    readonly port: number,
    readonly dir: string,
    removeDir: () => Promise<void>,
  ) {
    this.role = options.role;
    this.#removeDir = removeDir;
  }

  static async start(options: NodeOptions): Promise<RedisNode> {
    const { dir, remove } = makeRunDir(options.kind);
    const node = new RedisNode(options, await freePort(), dir, remove);
    try {
      await node.#spawn();
    } catch (error) {
      await node.stop();
      throw error;
    }
    return node;
  }

  get name(): string {
    return this.options.name;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    return this.#server !== undefined;
  }

  get clock(): StoreClock | undefined {
    return this.#clock;
  }

  get pid(): number | undefined {
    return this.#server?.pid;
  }

  async #spawn(): Promise<void> {
    const { kind, name, sentinelConfig } = this.options;
    const clock = this.options.clock
      ? await serverClockFor({ kind, clockOffsetMs: this.#clock?.offsetMs() ?? 0 }, this.dir)
      : null;
    this.#clock = clock?.control;
    let args = [...serverArgs(this.port), '--dir', this.dir, ...(this.options.args ?? [])];
    if (sentinelConfig) {
      const file = join(this.dir, 'sentinel.conf');
      writeFileSync(file, sentinelConfig(this.port));
      args = [file, '--sentinel', '--port', String(this.port), '--bind', '127.0.0.1', '--logfile', ''];
    }
    const server = spawnServer({
      label: `${serverBinary(kind)} ${name} :${this.port}`,
      command: serverBinary(kind),
      args,
      env: clock?.env ?? {},
    });
    this.#server = server;
    this.version = await waitUntilReady(server, () =>
      sentinelConfig ? sentinelPing(this.port) : serverVersion(this.port),
    );
  }

  /** A client to this node alone (the caller disconnects it). */
  client(): Redis {
    const client = new Redis({
      host: '127.0.0.1',
      port: this.port,
      maxRetriesPerRequest: 1,
      retryStrategy: () => null,
    });
    client.on('error', () => undefined);
    return client;
  }

  /** SIGKILL: the node loses whatever it had not sent on. */
  async kill(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    await server?.stop(0);
  }

  /** SHUTDOWN NOSAVE (nothing kept: the node has no persistence), then, `downMs` later, the same node on the same port, empty. */
  async restart(downMs: number, now: () => number): Promise<{ stoppedAt: number; startedAt: number }> {
    const server = this.#server;
    if (!server) throw new Error(`${this.name} is not running`);
    const client = this.client();
    await client.call('SHUTDOWN', 'NOSAVE').catch(() => undefined); // the connection closes as it exits
    client.disconnect();
    await Promise.race([server.exited, sleep(2000)]);
    await server.stop(0);
    this.#server = undefined;
    const stoppedAt = now();
    await sleep(downMs); // the fault itself: how long the node stays down
    await this.#spawn();
    return { stoppedAt, startedAt: now() };
  }

  async pause(): Promise<void> {
    await this.#server?.pause();
  }

  async resume(): Promise<void> {
    await this.#server?.resume();
  }

  async stop(): Promise<void> {
    await this.kill();
    await this.#removeDir();
  }
}

async function sentinelPing(port: number): Promise<string> {
  const client = new Redis({
    host: '127.0.0.1',
    port,
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    const info = await client.info('server');
    return `sentinel ${/redis_version:(\S+)/.exec(info)?.[1] ?? 'unknown'}`;
  } finally {
    client.disconnect();
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
