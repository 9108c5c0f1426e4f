/**
 * One client connection through a holder's proxy: the client socket, its own upstream socket to
 * the store, and a lane each way. Client bytes are framed into commands, so a hold can stop the
 * stream exactly in front of one; store bytes are relayed as they come.
 */
import { connect, type Socket } from 'node:net';
import type { WireCommand, WireProtocol } from './command.ts';
import type { WireEvent } from './events.ts';
import type { Frame, Framer } from './framer.ts';
import type { WireHold } from './hold.ts';
import { Lane } from './lane.ts';
import { GrpcRequestFramer } from './grpc-framer.ts';
import { GrpcResponseFramer } from './grpc-reply-framer.ts';
import { PostgresFrontendFramer } from './pg-framer.ts';
import type { WireFaultLog, WireFaultRecord } from './records.ts';
import { leaseGranted, sessionGranted, type StoreGrant } from './store-grants.ts';
import { ReplyFramer } from './reply-framer.ts';
import { RespRequestFramer } from './resp-framer.ts';
import { ZkRequestFramer } from './zk-framer.ts';

/** What a connection needs from its proxy: the faults in force and where to report. */
export interface ConnectionHost {
  readonly holder: string;
  readonly protocol: WireProtocol;
  readonly log: WireFaultLog;
  armedHolds(): readonly WireHold[];
  /** Holds that keep back the reply to a matching command. */
  armedReplyHolds(): readonly WireHold[];
  activeBlackhole(): WireFaultRecord | null;
  activeDelay(): { ms: number; record: WireFaultRecord } | null;
  emit(event: WireEvent): void;
  /** A session or lease the store granted on this connection (src/wire/store-grants.ts). */
  granted(grant: StoreGrant): void;
  closed(connection: ProxiedConnection): void;
}

export class ProxiedConnection {
  readonly openedMs: number;
  private readonly upstream: Socket;
  private readonly toServer: Lane;
  private readonly toClient: Lane;
  private readonly framer: Framer;
  /** Commands sent whose response has not ended yet, oldest first (null: Postgres's startup). */
  private readonly awaiting: Array<WireCommand | null> = [];
  /** gRPC: each stream's requests not answered yet, oldest first (HTTP/2 answers by stream, in no order across streams). */
  private readonly awaitingOnStream = new Map<number, WireCommand[]>();
  private readonly replies: ReplyFramer | GrpcResponseFramer;
  private how: string | undefined;
  private finished = false;
  /** ZooKeeper: the bytes of the first reply (the ConnectResponse) until it ends; null once read. */
  private connectReply: Buffer[] | null;

  constructor(
    readonly id: number,
    private readonly client: Socket,
    store: { host: string; port: number },
    private readonly host: ConnectionHost,
  ) {
    this.openedMs = host.log.now();
    this.framer =
      host.protocol === 'redis'
        ? new RespRequestFramer()
        : host.protocol === 'grpc'
          ? new GrpcRequestFramer()
          : host.protocol === 'zookeeper'
            ? new ZkRequestFramer()
            : new PostgresFrontendFramer();
    this.replies = host.protocol === 'grpc' ? new GrpcResponseFramer() : new ReplyFramer(host.protocol);
    this.connectReply = host.protocol === 'zookeeper' ? [] : null;
    if (host.protocol === 'postgres') this.awaiting.push(null); // the startup packet's response ends at its first ReadyForQuery
    this.upstream = connect({ host: store.host, port: store.port, allowHalfOpen: true, noDelay: true });
    client.setNoDelay(true);
    this.toServer = new Lane(this.upstream);
    this.toClient = new Lane(client);
    client.on('data', (chunk: Buffer) => this.fromClient(chunk));
    this.upstream.on('data', (chunk: Buffer) => this.fromStore(chunk));
    client.on('end', () => this.toServer.endAfterDrain());
    this.upstream.on('end', () => this.toClient.endAfterDrain());
    this.watch(client, this.upstream, 'client');
    this.watch(this.upstream, client, 'store');
    const blackhole = host.activeBlackhole();
    if (blackhole) this.blackhole(blackhole);
  }

  /** The store-side address of this connection (what the store's CLIENT LIST shows as addr). */
  upstreamAddress(): string | null {
    const { localAddress, localPort } = this.upstream;
    return localAddress && localPort ? `${localAddress}:${localPort}` : null;
  }

  blackhole(record: WireFaultRecord): void {
    this.host.log.touch(record, this.id);
    this.toServer.setBlackholed(true);
    this.toClient.setBlackholed(true);
  }

  liftBlackhole(): void {
    this.toServer.setBlackholed(false);
    this.toClient.setBlackholed(false);
  }

  /** Forward what a released hold kept (a command, or a reply). */
  flush(): void {
    this.toServer.flush();
    this.toClient.flush();
  }

  /** Reset both sockets (RST): the client sees ECONNRESET. Queued bytes are thrown away. */
  reset(why: string): void {
    this.how ??= why;
    for (const hold of [...this.toServer.discard(), ...this.toClient.discard()])
      hold.abandon(`connection #${this.id} ${why} while held; held bytes discarded`);
    this.client.resetAndDestroy();
    this.upstream.resetAndDestroy();
  }

  private fromClient(chunk: Buffer): void {
    const wasOpaque = this.framer.opaqueReason;
    const frames = this.framer.push(chunk);
    if (wasOpaque === null && this.framer.opaqueReason !== null) {
      this.host.emit({
        type: 'opaque',
        holder: this.host.holder,
        connection: this.id,
        atMs: this.host.log.now(),
        reason: this.framer.opaqueReason,
      });
    }
    for (const frame of frames) this.forward(frame);
  }

  /** Relay the store's bytes; a reply hold stops the client's lane in front of the reply to its command. */
  private fromStore(chunk: Buffer): void {
    if (this.replies instanceof GrpcResponseFramer) return this.fromGrpcStore(this.replies, chunk);
    for (const frame of this.replies.push(chunk)) {
      if (this.connectReply) this.readConnectReply(this.connectReply, frame.bytes, frame.ends);
      const command = frame.starts ? this.awaiting[0] : undefined;
      const gate = command ? this.host.armedReplyHolds().find((hold) => hold.offer(this.id, command)) : undefined;
      const answered = frame.ends ? this.awaiting.shift() : undefined;
      this.toClient.push(frame.bytes, 0, gate);
      if (answered)
        this.host.emit({
          type: 'reply',
          holder: this.host.holder,
          connection: this.id,
          atMs: this.host.log.now(),
          command: answered,
        });
    }
  }

  /** ZooKeeper's first reply is the ConnectResponse: the session the server granted, read once it is whole. */
  private readConnectReply(parts: Buffer[], bytes: Buffer, ends: boolean): void {
    parts.push(bytes);
    if (!ends) return;
    this.connectReply = null;
    const session = sessionGranted(this.id, Buffer.concat(parts));
    if (session) this.host.granted(session);
  }

  /** The same for gRPC: a reply is its stream's next response message, paired with that stream's oldest request. */
  private fromGrpcStore(framer: GrpcResponseFramer, chunk: Buffer): void {
    for (const frame of framer.push(chunk)) {
      const answered =
        frame.reply && frame.stream !== undefined ? this.awaitingOnStream.get(frame.stream)?.shift() : undefined;
      const gate = answered ? this.host.armedReplyHolds().find((hold) => hold.offer(this.id, answered)) : undefined;
      const lease = answered?.name === 'Lease/LeaseGrant' ? leaseGranted(this.id, frame.bytes) : null;
      if (lease) this.host.granted(lease);
      this.toClient.push(frame.bytes, 0, gate, frame.stream);
      if (answered)
        this.host.emit({
          type: 'reply',
          holder: this.host.holder,
          connection: this.id,
          atMs: this.host.log.now(),
          command: answered,
        });
    }
  }

  private forward(frame: Frame): void {
    const { command } = frame;
    if (command && frame.stream !== undefined && this.host.protocol === 'grpc') {
      const pending = this.awaitingOnStream.get(frame.stream) ?? [];
      pending.push(command);
      this.awaitingOnStream.set(frame.stream, pending);
    } else if (command) this.awaiting.push(command);
    const blackhole = this.host.activeBlackhole();
    const delay = this.host.activeDelay();
    const behind = this.toServer.gates(frame.stream);
    const gate = command ? this.host.armedHolds().find((hold) => hold.offer(this.id, command)) : undefined;
    if (command) {
      const log = this.host.log;
      for (const hold of behind) log.touch(hold.record, this.id, command.text);
      if (blackhole) log.touch(blackhole, this.id, command.text);
      if (delay) log.touch(delay.record, this.id, command.text);
      const stalled = blackhole?.kind === 'gate' ? 'gated' : 'blackholed';
      const fate = gate
        ? 'held'
        : behind.length
          ? 'queued-behind-hold'
          : blackhole
            ? stalled
            : delay
              ? 'delayed'
              : 'forwarded';
      this.host.emit({
        type: 'command',
        holder: this.host.holder,
        connection: this.id,
        atMs: log.now(),
        command,
        fate,
      });
    }
    this.toServer.push(frame.bytes, delay ? performance.now() + delay.ms : 0, gate, frame.stream);
  }

  private watch(socket: Socket, other: Socket, side: 'client' | 'store'): void {
    socket.on('error', (error: NodeJS.ErrnoException) => {
      this.how ??= `${side} side failed: ${error.code ?? error.message}`;
    });
    socket.on('close', (hadError) => {
      if (hadError && !other.destroyed) {
        this.toServer
          .discard()
          .forEach((hold) => hold.abandon(`connection #${this.id} failed on the ${side} side while held`));
        other.resetAndDestroy();
      }
      if (side === 'client')
        this.toClient
          .discard()
          .forEach((hold) => hold.abandon(`connection #${this.id} closed by the client while its reply was held`));
      this.finish();
    });
  }

  private finish(): void {
    if (this.finished || !this.client.destroyed || !this.upstream.destroyed) return;
    this.finished = true;
    for (const hold of [...this.toServer.discard(), ...this.toClient.discard()])
      hold.abandon(`connection #${this.id} closed while held; held bytes discarded`);
    this.host.emit({
      type: 'close',
      holder: this.host.holder,
      connection: this.id,
      atMs: this.host.log.now(),
      how: this.how ?? 'closed',
    });
    this.host.closed(this);
  }
}
