/**
 * A fault proxy for one holder: a loopback TCP listener the holder connects to instead of the
 * store. Every connection is relayed to the store, and the harness can fault this holder's
 * connections alone: drop (reset), blackhole (stall both ways), delay, or hold one command.
 * Every fault is recorded (who, which connections, which command, from when to when).
 */
import { createServer, type Server, type Socket } from 'node:net';
import { onCleanup } from '../process/cleanup.ts';
import { assertLoopbackUrl } from '../stores/loopback.ts';
import type { CommandPattern, WireProtocol } from './command.ts';
import { ProxiedConnection, type ConnectionHost } from './connection.ts';
import type { WireEvent, WireListener } from './events.ts';
import { WireHold, type HoldOptions } from './hold.ts';
import { WireFaultLog, type WireFaultRecord } from './records.ts';
import type { LeaseGrant, SessionGrant, StoreGrant } from './store-grants.ts';

export interface WireProxyOptions {
  /** The holder whose connections go through this proxy ("A"). */
  holder: string;
  /** The store URL the holder would otherwise use; loopback only. */
  storeUrl: string;
  /** The harness's monotonic clock, for records and events (default: performance.now). */
  clock?: () => number;
}

/** A fault in force; `lift` ends it (safe to call twice). */
export interface WireFaultHandle {
  readonly record: WireFaultRecord;
  lift(): void;
}

/** A gate (WireProxy.gate): closed and opened many times, then lifted (for good; safe to call twice). */
export interface WireGate extends WireFaultHandle {
  close(): void;
  open(): void;
}

export interface ConnectionInfo {
  readonly id: number;
  readonly openedMs: number;
  /** The store-side address (ip:port), as the store's CLIENT LIST / pg_stat_activity shows it. */
  readonly upstream: string | null;
}

const DEFAULT_PORTS: Record<WireProtocol, number> = { redis: 6379, postgres: 5432, grpc: 2379, zookeeper: 2181 };

function protocolOf(url: URL): WireProtocol {
  if (url.protocol === 'redis:') return 'redis';
  if (url.protocol === 'postgres:' || url.protocol === 'postgresql:') return 'postgres';
  // etcd's client URL: gRPC over cleartext HTTP/2.
  if (url.protocol === 'http:') return 'grpc';
  if (url.protocol === 'zookeeper:') return 'zookeeper';
  throw new Error(
    `wire proxy: cannot proxy "${url.protocol}//" URLs; it understands redis://, postgres://, http:// (etcd's gRPC) and zookeeper:// ` +
      `(TLS URLs such as rediss:// cannot be parsed, so commands could not be held).`,
  );
}

export class WireProxy implements ConnectionHost {
  readonly protocol: WireProtocol;
  readonly log: WireFaultLog;
  private readonly live = new Set<ProxiedConnection>();
  private readonly listeners = new Set<WireListener>();
  private holds: WireHold[] = [];
  private replyHolds: WireHold[] = [];
  private blackholeRecord: WireFaultRecord | null = null;
  private gateState: { record: WireFaultRecord; closed: boolean } | null = null;
  private delayFault: { ms: number; record: WireFaultRecord } | null = null;
  private refusing: WireFaultRecord | null = null;
  private nextConnection = 1;
  private readonly grants: StoreGrant[] = [];
  private closing: Promise<void> | null = null;
  private unregister: () => Promise<void> = async () => {};

  private constructor(
    readonly holder: string,
    private readonly store: { host: string; port: number },
    private readonly server: Server,
    private readonly storeUrl: URL,
    clock: () => number,
    protocol: WireProtocol = protocolOf(storeUrl),
  ) {
    this.protocol = protocol;
    this.log = new WireFaultLog(holder, clock, (phase, record) => this.emit({ type: 'fault', phase, record }));
  }

  static async start(options: WireProxyOptions): Promise<WireProxy> {
    const storeUrl = assertLoopbackUrl(options.storeUrl);
    if (storeUrl.protocol === 'file:') return WireProxy.#inert(options, storeUrl);
    const protocol = protocolOf(storeUrl);
    const store = {
      host: storeUrl.hostname.replace(/^\[|\]$/g, ''),
      port: Number(storeUrl.port) || DEFAULT_PORTS[protocol],
    };
    const server = createServer({ allowHalfOpen: true });
    const proxy = new WireProxy(options.holder, store, server, storeUrl, options.clock ?? (() => performance.now()));
    server.on('connection', (socket) => proxy.accept(socket));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    proxy.unregister = onCleanup(
      `wire proxy for holder ${options.holder}`,
      () => proxy.shutdown(),
      () => server.close(),
    );
    return proxy;
  }

  /**
   * A file store has no wire (its holders call the kernel; their boundaries are their filesystem
   * calls, src/holder/fs-boundaries.ts): its proxy listens for nothing, sees no command, and hands
   * holders the store's own URL, so a scenario written for a wire runs there unchanged.
   */
  static async #inert(options: WireProxyOptions, storeUrl: URL): Promise<WireProxy> {
    const proxy = new WireProxy(options.holder, { host: '', port: 0 }, createServer(), storeUrl, () => 0, 'redis');
    proxy.#inertUrl = storeUrl.href;
    return proxy;
  }

  #inertUrl: string | undefined;

  /** The loopback port the holder connects to. */
  get port(): number {
    const address = this.server.address();
    return typeof address === 'object' && address ? address.port : 0;
  }

  /** The store URL with its host and port pointed at this proxy: hand it to the holder. */
  get url(): string {
    if (this.#inertUrl !== undefined) return this.#inertUrl;
    const url = new URL(this.storeUrl.href);
    url.hostname = '127.0.0.1';
    url.port = String(this.port);
    return url.href;
  }

  /** Be told of connections, commands and faults as they happen; returns an unsubscribe. */
  on(listener: WireListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Reset every connection of this holder now (RST); with `refuseNew`, also every new one until lifted. */
  drop(options: { refuseNew?: boolean } = {}): WireFaultHandle {
    if (this.refusing)
      throw new Error(`wire proxy ${this.holder}: new connections are already being refused; lift that fault first`);
    const what = options.refuseNew ? 'drop every connection, and reset new ones until lifted' : 'drop every connection';
    const record = this.log.open('drop', what, false);
    const hit = [...this.live];
    for (const connection of hit) this.log.touch(record, connection.id);
    this.log.land(record);
    for (const connection of hit) connection.reset('reset by a drop fault');
    if (!options.refuseNew) {
      this.log.close(record);
      return { record, lift: () => {} };
    }
    return this.refuseWith(record);
  }

  /** Leave open connections alone, but reset every new one until lifted (e.g. while the store kills the open ones). */
  refuse(): WireFaultHandle {
    if (this.refusing)
      throw new Error(`wire proxy ${this.holder}: new connections are already being refused; lift that fault first`);
    return this.refuseWith(this.log.open('refuse', 'reset every new connection until lifted', true));
  }

  private refuseWith(record: WireFaultRecord): WireFaultHandle {
    this.refusing = record;
    return {
      record,
      lift: () => {
        if (this.refusing === record) this.refusing = null;
        this.log.close(record);
      },
    };
  }

  /** Accept and keep connections, but deliver nothing in either direction until lifted; then deliver it all, in order. */
  blackhole(): WireFaultHandle {
    if (this.blackholeRecord)
      throw new Error(`wire proxy ${this.holder}: a blackhole is already in force; lift it first`);
    const record = this.log.open('blackhole', 'blackhole: deliver nothing either way until lifted', false);
    this.blackholeRecord = record;
    for (const connection of this.live) connection.blackhole(record);
    this.log.land(record);
    return {
      record,
      lift: () => {
        if (this.blackholeRecord !== record) return;
        this.blackholeRecord = null;
        this.stallOrDeliver();
        this.log.close(record);
      },
    };
  }

  /**
   * A gate over all of this holder's traffic, closed and opened as often as the harness needs under
   * one record (V319: closed whenever the holder's simulated clock may be ahead of the store's).
   * Closed, it stalls both directions as a blackhole does, new connections included; opened, it
   * delivers what waited, in order. Commands that waited are counted in its record (their fate is
   * "gated"), not reported one by one: a day can close it thousands of times.
   */
  gate(what: string): WireGate {
    if (this.gateState) throw new Error(`wire proxy ${this.holder}: a gate is already in place; lift it first`);
    const state = { record: this.log.open('gate', what, true), closed: false };
    this.gateState = state;
    const set = (closed: boolean) => {
      if (this.gateState !== state || state.closed === closed) return;
      state.closed = closed;
      this.stallOrDeliver();
    };
    return {
      record: state.record,
      close: () => set(true),
      open: () => set(false),
      lift: () => {
        set(false);
        if (this.gateState === state) this.gateState = null;
        this.log.close(state.record);
      },
    };
  }

  /** Stall every connection while a blackhole or a closed gate is in force, else let each deliver. */
  private stallOrDeliver(): void {
    const stall = this.activeBlackhole();
    for (const connection of this.live) {
      if (stall) connection.blackhole(stall);
      else connection.liftBlackhole();
    }
  }

  /** Forward each client message `ms` later (order kept): about `ms` more per round trip. */
  delay(ms: number): WireFaultHandle {
    if (!(ms >= 0)) throw new Error(`wire proxy ${this.holder}: delay must be a number of ms >= 0, got ${ms}`);
    if (this.delayFault) throw new Error(`wire proxy ${this.holder}: a delay is already in force; lift it first`);
    const record = this.log.open('delay', `delay every client message by ${ms} ms`, true);
    this.delayFault = { ms, record };
    return {
      record,
      lift: () => {
        if (this.delayFault?.record !== record) return;
        this.delayFault = null;
        this.log.close(record);
      },
    };
  }

  /**
   * Reset one connection now (RST), throwing away what it holds (a held reply is then never
   * delivered): the holder's client sees its connection drop and does what it does then (ioredis
   * reconnects and re-sends the commands it had no reply to). Recorded as a drop of that connection.
   */
  dropConnection(connection: number, why: string): void {
    const target = [...this.live].find((c) => c.id === connection);
    const record = this.log.open('drop', `drop connection #${connection}: ${why}`, true);
    if (target) {
      this.log.touch(record, connection);
      target.reset(`reset by a drop of connection #${connection}`);
      this.log.close(record);
    } else this.log.close(record, `connection #${connection} had already closed`);
  }

  /** Hold this holder's next command matching `pattern` (any of several), and all it sends after it on that connection, until released. */
  hold(pattern: CommandPattern | readonly CommandPattern[], options: HoldOptions = {}): WireHold {
    const hold = new WireHold(pattern, options, this.log, () => this.live.forEach((connection) => connection.flush()));
    this.holds = [...this.holds.filter((other) => other.armed), hold];
    return hold;
  }

  /**
   * Keep back the store's reply to this holder's next command matching `pattern` (and everything
   * the store sends after it on that connection) until released: the command ran, the holder does
   * not know yet. `reached` resolves when the reply arrives at the proxy.
   */
  holdReply(pattern: CommandPattern | readonly CommandPattern[], options: HoldOptions = {}): WireHold {
    const hold = new WireHold(pattern, { ...options, on: 'reply' }, this.log, () =>
      this.live.forEach((connection) => connection.flush()),
    );
    this.replyHolds = [...this.replyHolds.filter((other) => other.armed), hold];
    return hold;
  }

  /** Every fault applied so far, for the evidence. */
  records(): WireFaultRecord[] {
    return this.log.records();
  }

  /** Connections open now. */
  connections(): ConnectionInfo[] {
    return [...this.live].map((connection) => ({
      id: connection.id,
      openedMs: connection.openedMs,
      upstream: connection.upstreamAddress(),
    }));
  }

  /** Stop listening and close every connection; faults still in force are closed in the record. Safe to call twice. */
  async close(): Promise<void> {
    await this.unregister(); // runs shutdown once, unless the process-wide cleanup already did
    await this.shutdown();
  }

  private shutdown(): Promise<void> {
    this.closing ??= (async () => {
      for (const hold of [...this.holds, ...this.replyHolds])
        hold.cancel('the proxy closed before its command arrived');
      for (const connection of this.live) connection.reset('closed with the proxy');
      this.log.closeAll('still in force when the proxy closed');
      this.blackholeRecord = null;
      this.gateState = null;
      this.delayFault = null;
      this.refusing = null;
      await new Promise<void>((resolve) => this.server.close(() => resolve()));
    })();
    return this.closing;
  }

  armedHolds(): readonly WireHold[] {
    return this.holds.filter((hold) => hold.armed);
  }

  armedReplyHolds(): readonly WireHold[] {
    return this.replyHolds.filter((hold) => hold.armed);
  }

  activeBlackhole(): WireFaultRecord | null {
    return this.blackholeRecord ?? (this.gateState?.closed ? this.gateState.record : null);
  }

  activeDelay(): { ms: number; record: WireFaultRecord } | null {
    return this.delayFault;
  }

  emit(event: WireEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  closed(connection: ProxiedConnection): void {
    this.live.delete(connection);
  }

  granted(grant: StoreGrant): void {
    this.grants.push(grant);
  }

  /** The ZooKeeper session the store granted this holder last (its ConnectResponse), or undefined. */
  latestSession(): SessionGrant | undefined {
    return this.grants.filter((grant): grant is SessionGrant => grant.kind === 'session').at(-1);
  }

  /** The etcd lease the store granted this holder last (its LeaseGrant's reply), or undefined. */
  latestLease(): LeaseGrant | undefined {
    return this.grants.filter((grant): grant is LeaseGrant => grant.kind === 'lease').at(-1);
  }

  private accept(socket: Socket): void {
    const id = this.nextConnection++;
    socket.on('error', () => {}); // a reset client is reported through the connection's close
    if (this.closing) {
      socket.destroy();
      return;
    }
    if (this.refusing) {
      this.refusing.refusedConnections++;
      this.log.touch(this.refusing, id);
      socket.resetAndDestroy();
      return;
    }
    const connection = new ProxiedConnection(id, socket, this.store, this);
    this.live.add(connection);
    this.emit({ type: 'connect', holder: this.holder, connection: id, atMs: this.log.now() });
  }
}
