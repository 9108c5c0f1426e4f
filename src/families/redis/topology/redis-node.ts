/**
 * One Redis/Valkey node of a topology: its own loopback port and run dir, the scratch server's
 * arguments plus the node's own (`--replicaof`, `--sentinel`), run as a local process or in a
 * container (node-server.ts), and restartable on the same port with an empty dataset.
 */
import { posix } from 'node:path';
import type { Redis } from 'ioredis';
import { ioredis } from '../ioredis.ts';
import { makeRunDir } from '../../../process/run-dir.ts';
import { freePort } from '../../../stores/free-port.ts';
import type { RuntimeName, StoreClock, StoreKind } from '../../../stores/types.ts';
import type { NodeRole, TopologyNode } from '../../../stores/topology.ts';
import { serverArgs, serverBinary, serverVersion } from '../recipe.ts';
import { launchLocalNode } from './local-node-server.ts';
import { SENTINEL_CONFIG, type NodeLauncher, type NodeServer, type NodeServerSpec } from './node-server.ts';

export interface NodeOptions {
  kind: StoreKind;
  name: string;
  role: NodeRole;
  /** Local processes, or containers (--runtime container). */
  runtime: RuntimeName;
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
  #server: NodeServer | undefined;
  #running = false;
  #clock: StoreClock | undefined;
  readonly #removeDir: () => Promise<void>;

  private constructor(
    readonly options: NodeOptions,
    readonly port: number,
    readonly dir: string,
    removeDir: () => Promise<void>,
    private readonly launch: NodeLauncher,
  ) {
    this.role = options.role;
    this.#removeDir = removeDir;
  }

  static async start(options: NodeOptions): Promise<RedisNode> {
    const { dir, remove } = makeRunDir(options.kind);
    // Loaded on demand: testcontainers takes about a second to import, which local runs never pay.
    const launch =
      options.runtime === 'container'
        ? (await import('./container-node-server.ts')).launchContainerNode
        : launchLocalNode;
    const node = new RedisNode(options, await freePort(), dir, remove, launch);
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
    return this.#running;
  }

  get clock(): StoreClock | undefined {
    return this.#clock;
  }

  async #spawn(): Promise<void> {
    const { kind, name, sentinelConfig } = this.options;
    const port = this.port;
    const spec: NodeServerSpec = {
      kind,
      label: `${serverBinary(kind)} ${name} :${port}`,
      port,
      hostDir: this.dir,
      args: (dir) =>
        sentinelConfig
          ? [
              posix.join(dir, SENTINEL_CONFIG),
              '--sentinel',
              '--port',
              String(port),
              '--bind',
              '127.0.0.1',
              '--logfile',
              '',
            ]
          : [...serverArgs(port), '--dir', dir, ...(this.options.args ?? [])],
      ...(sentinelConfig ? { sentinelConfig: sentinelConfig(port) } : {}),
      ...(this.options.clock ? { clockOffsetMs: 0 } : {}),
      readyLog: sentinelConfig ? /\+monitor master/ : /Ready to accept connections/,
      probe: () => (sentinelConfig ? sentinelPing(port) : serverVersion(port)),
    };
    const launched = await this.launch(spec);
    this.#server = launched.server;
    this.#running = true;
    this.#clock = launched.clock;
    this.version = launched.version;
  }

  /** A client to this node alone (the caller disconnects it). */
  client(): Redis {
    const client = new (ioredis().Redis)({
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
    if (!this.#running) return;
    this.#running = false;
    await this.#server?.kill();
  }

  /** SHUTDOWN NOSAVE (nothing kept: the node has no persistence), then, `downMs` later, the same node on the same port, empty. */
  async restart(downMs: number, now: () => number): Promise<{ stoppedAt: number; startedAt: number }> {
    const server = this.#server;
    if (!server || !this.#running) throw new Error(`${this.name} is not running`);
    const client = this.client();
    await client.call('SHUTDOWN', 'NOSAVE').catch(() => undefined); // the connection closes as it exits
    client.disconnect();
    await server.exited(2000);
    await this.kill();
    const stoppedAt = now();
    await sleep(downMs); // the fault itself: how long the node stays down
    await server.startAgain();
    this.#running = true;
    return { stoppedAt, startedAt: now() };
  }

  async pause(): Promise<void> {
    if (this.#running) await this.#server?.pause();
  }

  async resume(): Promise<void> {
    if (this.#running) await this.#server?.resume();
  }

  async stop(): Promise<void> {
    this.#running = false;
    await this.#server?.remove();
    await this.#removeDir();
  }
}

async function sentinelPing(port: number): Promise<string> {
  const client = new (ioredis().Redis)({
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
