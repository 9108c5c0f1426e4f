/**
 * A byte relay between two store nodes (a replica and its master) or between clients and a moving
 * endpoint (a topology's front door): a loopback listener that forwards every connection to its
 * current upstream, unparsed (a replication stream carries an RDB payload no framer reads). The
 * harness can hold what flows one way (the master's replication bytes kept from the replica until
 * lifted: a real loss when the master dies meanwhile), cut every connection, and point new
 * connections elsewhere (a failover's redirection). A relay can also stand between one holder and
 * one node (a Redlock master): its requests kept from the node (the holder cut off from it), or the
 * node's replies kept from the holder (its acquire's replies in flight). Each fault is timestamped
 * for the evidence.
 */
import { createServer, Socket, type Server } from 'node:net';
import { onCleanup } from '../process/cleanup.ts';

/** Which way a hold keeps bytes: from upstream to the client (replies, a replication stream), or from the client to upstream (requests). */
export type HoldDirection = 'to-client' | 'to-upstream';

export interface LinkHold {
  /** Harness ms the hold began. */
  readonly since: number;
  /** Bytes the hold kept so far. */
  readonly heldBytes: number;
  /** Resolves at the first byte the hold keeps. */
  readonly reached: Promise<void>;
  /** Deliver what was kept and let bytes flow again (safe to call twice). */
  lift(): void;
}

interface Pair {
  client: Socket;
  upstream: Socket;
  /** Upstream bytes kept while a hold to the client is in force. */
  kept: Buffer[];
  /** Client bytes kept while a hold to upstream is in force. */
  keptRequests: Buffer[];
}

interface HoldState {
  direction: HoldDirection;
  since: number;
  bytes: number;
  /** Called at the first byte kept. */
  first: () => void;
}

export class LinkRelay {
  readonly #server: Server;
  readonly #pairs = new Set<Pair>();
  readonly #clock: () => number;
  #upstreamPort: number;
  #hold: HoldState | null = null;
  /** New connections waiting for the upstream to be named (a failover in progress), when not null. */
  #waiting: Pair[] | null = null;
  #unregister: () => Promise<void> = async () => {};

  private constructor(server: Server, upstreamPort: number, clock: () => number) {
    this.#server = server;
    this.#upstreamPort = upstreamPort;
    this.#clock = clock;
  }

  /** A relay on a free loopback port to 127.0.0.1:`upstreamPort`. */
  static async start(label: string, upstreamPort: number, clock: () => number = () => performance.now()) {
    const server = createServer({ allowHalfOpen: false });
    const relay = new LinkRelay(server, upstreamPort, clock);
    server.on('connection', (socket) => relay.#accept(socket));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    relay.#unregister = onCleanup(label, () => relay.#shutdown());
    return relay;
  }

  get port(): number {
    const address = this.#server.address();
    return typeof address === 'object' && address ? address.port : 0;
  }

  get upstreamPort(): number {
    return this.#upstreamPort;
  }

  /** Connections open through the relay now. */
  get connections(): number {
    return this.#pairs.size;
  }

  /**
   * Keep every byte going one way until lifted: by default from upstream to the client (a master's
   * replication stream, a node's replies), or from the client to upstream (a holder's requests).
   */
  hold(direction: HoldDirection = 'to-client'): LinkHold {
    if (this.#hold) throw new Error('this link is already held: lift the hold first');
    let first = () => {};
    const reached = new Promise<void>((resolve) => (first = resolve));
    const state: HoldState = { direction, since: this.#clock(), bytes: 0, first };
    this.#hold = state;
    return {
      since: state.since,
      get heldBytes() {
        return state.bytes;
      },
      reached,
      lift: () => {
        if (this.#hold !== state) return;
        this.#hold = null;
        for (const pair of this.#pairs) {
          for (const chunk of pair.kept.splice(0)) pair.client.write(chunk);
          for (const chunk of pair.keptRequests.splice(0)) pair.upstream.write(chunk);
        }
      },
    };
  }

  /** Reset every open connection (what was kept is thrown away); new ones still connect. */
  cut(): number {
    const cut = this.#pairs.size;
    for (const pair of [...this.#pairs]) this.#close(pair);
    return cut;
  }

  /**
   * Keep new connections waiting, unconnected upstream, until `retarget` names where they go (a
   * failover in progress: a client reconnecting meanwhile waits for the new master instead of
   * backing off against the dead one).
   */
  waitForTarget(): void {
    this.#waiting ??= [];
  }

  /** Send new connections (and those waiting) to 127.0.0.1:`port` and cut the open ones, which the clients then open again there. */
  retarget(port: number): number {
    this.#upstreamPort = port;
    const waiting = this.#waiting ?? [];
    this.#waiting = null;
    const cut = this.cut();
    for (const pair of waiting) if (!pair.client.destroyed) this.#connect(pair);
    return cut;
  }

  async close(): Promise<void> {
    await this.#shutdown();
    await this.#unregister();
  }

  #accept(client: Socket): void {
    const upstream = new Socket();
    const pair: Pair = { client, upstream, kept: [], keptRequests: [] };
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    client.pause(); // nothing read until the upstream is connected
    if (this.#waiting) {
      this.#waiting.push(pair);
      client.on('error', () => client.destroy());
      return;
    }
    this.#connect(pair);
  }

  #connect(pair: Pair): void {
    const { client, upstream } = pair;
    this.#pairs.add(pair);
    upstream.connect(this.#upstreamPort, '127.0.0.1', () => client.resume());
    client.on('data', (chunk: Buffer) => {
      if (this.#keep(chunk, 'to-upstream')) pair.keptRequests.push(chunk);
      else upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (this.#keep(chunk, 'to-client')) pair.kept.push(chunk);
      else client.write(chunk);
    });
    for (const socket of [client, upstream]) {
      socket.on('error', () => this.#close(pair));
      socket.on('close', () => this.#close(pair));
    }
  }

  /** Whether a hold keeps this chunk going `direction` (and counts it). */
  #keep(chunk: Buffer, direction: HoldDirection): boolean {
    const hold = this.#hold;
    if (hold?.direction !== direction) return false;
    if (hold.bytes === 0) hold.first();
    hold.bytes += chunk.length;
    return true;
  }

  #close(pair: Pair): void {
    if (!this.#pairs.delete(pair)) return;
    pair.kept.length = 0;
    pair.keptRequests.length = 0;
    pair.client.resetAndDestroy();
    pair.upstream.resetAndDestroy();
  }

  async #shutdown(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}
