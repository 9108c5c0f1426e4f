/**
 * The member-to-member links of a coordination service run as several members (--topology
 * etcd:N, zookeeper:N) through the harness: one loopback relay in front of each peer listener of
 * each member (etcd's peer port; a ZooKeeper server's quorum and election ports), given to the
 * other members as that member's peer address, so every peer connection, whichever member dials
 * it, passes through a relay the harness holds. Cutting a member off (`cutOff`) resets every
 * connection it has with the others, both ways: those to its own listeners, and those it dialed to
 * theirs (told apart by who holds the dialing socket: ./socket-owner.ts), and refuses new ones
 * until `restore`; its clients still reach it, for they do not come through here. Bytes pass
 * unparsed.
 */
import { createServer, Socket, type Server } from 'node:net';
import { onCleanup } from '../process/cleanup.ts';
import { dialerOf } from './socket-owner.ts';

interface Pair {
  readonly client: Socket;
  readonly upstream: Socket;
  /** The member that dialed, once asked (undefined: none of the members holds the socket now). */
  dialer?: Promise<string | undefined>;
}

/**
 * What a relay makes of what a dialer sends first (a ZooKeeper server's election hello announces
 * the dialer's own address, which the listener dials back: it must name the dialer's relay): given
 * the bytes arrived so far, those to send on instead, or undefined while the first message is not whole.
 */
export type FirstWords = (arrived: Buffer) => Buffer | undefined;

interface Relay {
  /** The member whose listener it stands in front of. */
  readonly member: string;
  readonly firstWords: FirstWords | undefined;
  readonly server: Server;
  readonly port: number;
  readonly upstreamPort: number;
  readonly pairs: Set<Pair>;
}

export class PeerRelays {
  readonly #relays: Relay[] = [];
  readonly #cutOff = new Set<string>();
  #processes: () => ReadonlyMap<number, string> = () => new Map();
  readonly #unregister: () => Promise<void>;

  constructor(label: string) {
    this.#unregister = onCleanup(label, () => this.#shutdown());
  }

  /** The members by pid, asked when a dialer must be told (the members are spawned after their relays). */
  knowMembers(processes: () => ReadonlyMap<number, string>): void {
    this.#processes = processes;
  }

  /** A relay on a free loopback port in front of `member`'s peer listener on 127.0.0.1:`upstreamPort`; its port is what the others dial. */
  async add(member: string, upstreamPort: number, firstWords?: FirstWords): Promise<number> {
    const server = createServer({ allowHalfOpen: false });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const relay: Relay = { member, firstWords, server, port, upstreamPort, pairs: new Set() };
    server.on('connection', (socket) => void this.#accept(relay, socket));
    this.#relays.push(relay);
    return port;
  }

  /** Whether `member` is cut off now. */
  isCutOff(member: string): boolean {
    return this.#cutOff.has(member);
  }

  /**
   * Cut `member` off from every other member, both ways, until `restore`: its open peer
   * connections reset, new ones refused. Returns how many connections were reset.
   */
  async cutOff(member: string): Promise<number> {
    this.#cutOff.add(member);
    const doomed = await Promise.all(
      this.#relays.flatMap((relay) =>
        [...relay.pairs].map(async (pair) => ((await this.#admits(relay, pair)) ? undefined : pair)),
      ),
    );
    let reset = 0;
    for (const relay of this.#relays)
      for (const pair of doomed)
        if (pair && relay.pairs.has(pair)) {
          this.#close(relay, pair);
          reset++;
        }
    return reset;
  }

  /** Let `member` reach the others again (they and it dial anew on their own). */
  restore(member: string): void {
    this.#cutOff.delete(member);
  }

  /** Every relay closed, its connections reset (also on the harness's own exit). */
  close(): Promise<void> {
    return this.#unregister();
  }

  /** Whether a connection through `relay` may stand while the cut-offs are in force. */
  async #admits(relay: Relay, pair: Pair): Promise<boolean> {
    if (this.#cutOff.size === 0) return true;
    if (this.#cutOff.has(relay.member)) return false;
    pair.dialer ??= dialerOf(pair.client.remotePort ?? 0, relay.port, this.#processes());
    const dialer = await pair.dialer;
    // A dialer no member holds (it closed meanwhile) is refused: only a member's own connection is let through.
    return dialer !== undefined && !this.#cutOff.has(dialer);
  }

  async #accept(relay: Relay, client: Socket): Promise<void> {
    const upstream = new Socket();
    const pair: Pair = { client, upstream };
    relay.pairs.add(pair);
    client.on('error', () => this.#close(relay, pair));
    upstream.on('error', () => this.#close(relay, pair));
    client.on('close', () => this.#close(relay, pair));
    upstream.on('close', () => this.#close(relay, pair));
    client.pause();
    if (!(await this.#admits(relay, pair))) return this.#close(relay, pair);
    if (!relay.pairs.has(pair)) return;
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    upstream.connect(relay.upstreamPort, '127.0.0.1');
    upstream.pipe(client);
    const firstWords = relay.firstWords;
    if (!firstWords) {
      client.pipe(upstream);
      client.resume();
      return;
    }
    let arrived = Buffer.alloc(0);
    const untilWhole = (chunk: Buffer) => {
      arrived = Buffer.concat([arrived, chunk]);
      const said = firstWords(arrived);
      if (said === undefined) return;
      client.off('data', untilWhole);
      upstream.write(said);
      client.pipe(upstream);
    };
    client.on('data', untilWhole);
    client.resume();
  }

  #close(relay: Relay, pair: Pair): void {
    if (!relay.pairs.delete(pair)) return;
    pair.client.resetAndDestroy();
    pair.upstream.resetAndDestroy();
  }

  async #shutdown(): Promise<void> {
    for (const relay of this.#relays) for (const pair of [...relay.pairs]) this.#close(relay, pair);
    await Promise.all(this.#relays.map((r) => new Promise<void>((resolve) => r.server.close(() => resolve()))));
    this.#relays.length = 0;
  }
}
