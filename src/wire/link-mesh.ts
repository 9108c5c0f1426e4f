/**
 * Every node-to-node link of a cluster through the harness: for each ordered pair (i, j) a loopback
 * proxy that node i is given as peer j's address (env.peers). Each connection carries two
 * directions (i's messages to j, j's replies to i); both are split into whole messages in the
 * target's framing (./link-framer.ts), each message is traced in the history (`link` events: from,
 * to, its position on its direction, its type, its fate) and passed through the faults armed on the
 * mesh (./link-faults.ts) before it is forwarded in order. A held or delayed message holds back the
 * messages behind it on its direction, on every connection (one network path between two nodes).
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import type { FaultLog } from '../core/fault-log.ts';
import type { History } from '../core/history.ts';
import { freePort } from '../stores/free-port.ts';
import {
  LinkDelay,
  LinkDrop,
  LinkDuplicate,
  LinkHold,
  LinkPartition,
  LinkReorder,
  type LinkFate,
  type MessageFault,
} from './link-faults.ts';
import { linkFramer, type LinkFrame, type LinkFraming } from './link-framer.ts';
import { typeOf, type LinkMatch, type LinkMessage } from './link-match.ts';

/** Where a node listens (its own port, which its peers reach only through the proxies). */
export interface NodeAddress {
  readonly index: number;
  readonly id: string;
  readonly host: string;
  readonly port: number;
}

/** Messages seen on one direction, and how many of them reached the other side. */
export interface LinkCount {
  readonly link: string;
  sent: number;
  delivered: number;
}

export class LinkMesh {
  readonly #servers: Server[] = [];
  readonly #sockets = new Set<Socket>();
  /** The proxy node `from` dials to reach node `to`, by "from→to". */
  readonly #proxies = new Map<string, number>();
  readonly #counts = new Map<string, LinkCount>();
  readonly #faults: MessageFault[] = [];
  readonly #partitions: LinkPartition[] = [];
  readonly #observers: Array<(message: LinkMessage) => void> = [];
  /** A held or delayed message stops its whole direction (every connection from→to) until it goes on, as on one network path. */
  readonly #gates = new Map<string, Promise<void>>();
  #framing: LinkFraming | undefined;
  #framingSet!: (framing: LinkFraming) => void;
  readonly #framed = new Promise<LinkFraming>((resolve) => (this.#framingSet = resolve));

  private constructor(
    readonly nodes: readonly NodeAddress[],
    private readonly history: History,
    private readonly log: FaultLog,
  ) {}

  static async start(nodes: readonly NodeAddress[], history: History, faults: FaultLog): Promise<LinkMesh> {
    const mesh = new LinkMesh(nodes, history, faults);
    for (const from of nodes)
      for (const to of nodes) if (from !== to) mesh.#proxies.set(`${from.id}→${to.id}`, await mesh.#listen(from, to));
    return mesh;
  }

  /** The framing the target declared; messages wait for it (a node that dials a peer at start). */
  setFraming(framing: LinkFraming): void {
    if (this.#framing !== undefined && this.#framing !== framing)
      throw new Error(`the nodes declared two framings for their links: ${this.#framing} and ${framing}`);
    this.#framing = framing;
    this.#framingSet(framing);
  }

  get framing(): LinkFraming | undefined {
    return this.#framing;
  }

  /** The addresses node `index` is given for its peers: each one a proxy of the harness. */
  peersOf(index: number): Array<{ index: number; id: string; host: string; port: number }> {
    const from = this.nodes[index]!;
    return this.nodes
      .filter((to) => to !== from)
      .map((to) => ({
        index: to.index,
        id: to.id,
        host: '127.0.0.1',
        port: this.#proxies.get(`${from.id}→${to.id}`)!,
      }));
  }

  hold(match: LinkMatch): LinkHold {
    return this.#arm(new LinkHold(match, this.log));
  }
  delay(match: LinkMatch, ms: number): LinkDelay {
    return this.#arm(new LinkDelay(match, ms, this.log));
  }
  drop(match: LinkMatch): LinkDrop {
    return this.#arm(new LinkDrop(match, this.log));
  }
  duplicate(match: LinkMatch): LinkDuplicate {
    return this.#arm(new LinkDuplicate(match, this.log));
  }
  reorder(match: LinkMatch): LinkReorder {
    return this.#arm(new LinkReorder(match, this.log));
  }
  /** Cut every link between the sides (node ids); nodes on no side keep their links. */
  partition(...sides: ReadonlyArray<readonly string[]>): LinkPartition {
    const partition = new LinkPartition(sides, this.log);
    this.#partitions.push(partition);
    return partition;
  }

  /** Calls `observer` with every message as it reaches its link proxy, before any fault takes it (an exploration's trace). */
  observe(observer: (message: LinkMessage) => void): void {
    this.#observers.push(observer);
  }

  /** Messages per direction so far ("n1→n3": sent, delivered). */
  counts(): LinkCount[] {
    return [...this.#counts.values()].map((count) => ({ ...count }));
  }

  async close(): Promise<void> {
    for (const fault of this.#faults) if (fault instanceof LinkHold) fault.release();
    for (const socket of this.#sockets) socket.destroy();
    await Promise.all(this.#servers.map((server) => new Promise((resolve) => server.close(resolve))));
  }

  #arm<F extends MessageFault>(fault: F): F {
    this.#faults.push(fault);
    return fault;
  }

  async #listen(from: NodeAddress, to: NodeAddress): Promise<number> {
    const port = await freePort();
    const server = createServer((client) => this.#proxy(client, from, to));
    this.#servers.push(server);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    return port;
  }

  #proxy(client: Socket, from: NodeAddress, to: NodeAddress): void {
    const upstream = createConnection({ host: to.host, port: to.port });
    for (const socket of [client, upstream]) {
      this.#sockets.add(socket);
      socket.on('close', () => {
        this.#sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
      socket.on('error', () => undefined);
    }
    this.#direction(client, upstream, from.id, to.id);
    this.#direction(upstream, client, to.id, from.id);
  }

  /** One direction of one connection: whole messages, in order, each through the faults. */
  #direction(source: Socket, sink: Socket, from: string, to: string): void {
    const link = `${from}→${to}`;
    const queue: LinkFrame[] = [];
    let wake: (() => void) | undefined;
    let framer: ReturnType<typeof linkFramer> | undefined;
    const early: Buffer[] = [];
    source.on('data', (chunk: Buffer) => {
      if (!framer) return void early.push(chunk);
      queue.push(...framer.push(chunk));
      wake?.();
    });
    void this.#framed.then((framing) => {
      framer = linkFramer(framing);
      for (const chunk of early.splice(0)) queue.push(...framer.push(chunk));
      wake?.();
    });
    const count = this.#counts.get(link) ?? { link, sent: 0, delivered: 0 };
    this.#counts.set(link, count);
    let setAside: { frame: LinkFrame; message: LinkMessage } | undefined;
    const forward = (frame: LinkFrame, copies: number) => {
      for (let i = 0; i < copies; i++) if (!sink.destroyed) sink.write(frame.bytes);
      count.delivered += copies;
    };
    const pump = async () => {
      while (!source.destroyed || queue.length) {
        const frame = queue.shift();
        if (!frame) {
          await new Promise<void>((resolve) => (wake = resolve));
          wake = undefined;
          continue;
        }
        for (let gate = this.#gates.get(link); gate; gate = this.#gates.get(link)) await gate;
        count.sent++;
        const message: LinkMessage = {
          from,
          to,
          n: count.sent,
          body: frame.body,
          text: frame.text,
          type: typeOf(frame.body),
        };
        for (const observer of this.#observers) observer(message);
        const atMs = this.history.now();
        const cut = this.#partitions.find((p) => p.cuts(message));
        const fault = cut ? undefined : this.#faults.find((f) => f.takes(message));
        const taken = fault?.apply(message, atMs);
        const fate: LinkFate = cut ? 'partitioned' : (taken?.fate ?? 'forwarded');
        this.history.add('link', undefined, {
          link,
          from,
          to,
          n: message.n,
          type: message.type,
          text: frame.text.slice(0, 160),
          fate,
          bytes: frame.bytes.length,
        });
        if (fate === 'reordered') {
          setAside = { frame, message };
          continue;
        }
        if (taken) {
          this.#gates.set(link, taken.after);
          await taken.after;
          this.#gates.delete(link);
        }
        if (!cut) forward(frame, taken?.copies ?? 1);
        if (setAside) {
          forward(setAside.frame, 1);
          this.history.add('link', undefined, {
            link,
            from,
            to,
            n: setAside.message.n,
            type: setAside.message.type,
            fate: 'forwarded late (reordered)',
          });
          setAside = undefined;
        }
      }
    };
    source.on('close', () => wake?.());
    void pump();
  }
}
