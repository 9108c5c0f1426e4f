/**
 * gRPC over HTTP/2, the client's side (etcd's wire): the connection preface, then HTTP/2 frames
 * (a 9-byte header: 24-bit length, type, flags, stream id). Every HEADERS block is decoded with
 * hpack.js (the dynamic table is the connection's, so every block is decoded in order) to learn
 * each stream's `:path`, e.g. `/etcdserverpb.KV/Txn`; each DATA frame is then a command of that
 * RPC, named `KV/Txn`, `Lease/LeaseKeepAlive` (one per keepalive: the renewals), `Lock/Lock`,
 * `Election/Campaign`, with what its gRPC messages name (keys, values, lease ids: protobuf-strings.ts)
 * as arguments and its text an etcd request's one line (etcd-rpc.ts). A HEADERS frame and its CONTINUATIONs are one frame.
 *
 * Frames carry their stream: a held DATA frame stops only its own stream (lane.ts), and frames on
 * stream 0 (SETTINGS, PING, WINDOW_UPDATE, GOAWAY) always pass, so one held keepalive does not
 * stall the client's other RPCs on the same connection, as one held Redis command stalls the rest.
 * hpack.js is required when the first gRPC connection is framed, not when the wire code loads: a
 * run on any other store never pays its load (~20 ms of CPU at a CLI's start).
 */
import { createRequire } from 'node:module';
import type hpackModule from 'hpack.js';
import type { WireCommand } from './command.ts';
import type { Frame, Framer } from './framer.ts';
import { etcdRequestText } from './etcd-rpc.ts';
import { protoFields, type ProtoField } from './protobuf-strings.ts';

const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');
const DATA = 0;
const HEADERS = 1;
const CONTINUATION = 9;
const END_HEADERS = 0x4;
const PADDED = 0x8;
const PRIORITY = 0x20;
const MAX_FRAME = 16 * 1024 * 1024;

/** `/etcdserverpb.Lease/LeaseKeepAlive` → `Lease/LeaseKeepAlive`. */
export function rpcName(path: string): string {
  const [service = '', method = ''] = path.replace(/^\//, '').split('/');
  return `${service.replace(/^.*\./, '')}/${method}`;
}

export class GrpcRequestFramer implements Framer {
  opaqueReason: string | null = null;
  #pending: Buffer = Buffer.alloc(0);
  #prefaceSeen = false;
  readonly #headers = (createRequire(import.meta.url)('hpack.js') as typeof hpackModule).decompressor.create({
    table: { size: 4096 },
  });
  /** A HEADERS frame waiting for its CONTINUATIONs: its bytes so far and its block. */
  #openBlock: { stream: number; bytes: Buffer[]; block: Buffer[] } | null = null;
  readonly #paths = new Map<number, string>();
  /** Each stream's gRPC message bytes not yet complete. */
  readonly #partial = new Map<number, Buffer>();

  push(chunk: Buffer): Frame[] {
    if (this.opaqueReason !== null) return [{ bytes: chunk, command: null }];
    this.#pending = this.#pending.length ? Buffer.concat([this.#pending, chunk]) : chunk;
    const frames: Frame[] = [];
    try {
      if (!this.#prefaceSeen) {
        if (this.#pending.length < PREFACE.length) return [];
        if (!this.#pending.subarray(0, PREFACE.length).equals(PREFACE))
          throw new Error('no HTTP/2 connection preface (a TLS or HTTP/1 client?)');
        frames.push({ bytes: this.#pending.subarray(0, PREFACE.length), command: null, stream: 0 });
        this.#pending = this.#pending.subarray(PREFACE.length);
        this.#prefaceSeen = true;
      }
      while (this.#pending.length >= 9) {
        const length = this.#pending.readUIntBE(0, 3);
        if (length > MAX_FRAME) throw new Error(`an HTTP/2 frame of ${length} bytes`);
        if (this.#pending.length < 9 + length) break;
        const bytes = this.#pending.subarray(0, 9 + length);
        this.#pending = this.#pending.subarray(9 + length);
        const frame = this.#frame(bytes);
        if (frame) frames.push(frame);
      }
    } catch (error) {
      this.opaqueReason = `HTTP/2 stream not understood: ${(error as Error).message}`;
      frames.push({ bytes: this.#pending, command: null });
      this.#pending = Buffer.alloc(0);
    }
    return frames;
  }

  /** One whole frame: what it carries, or null while a header block waits for its CONTINUATIONs. */
  #frame(bytes: Buffer): Frame | null {
    const type = bytes[3]!;
    const flags = bytes[4]!;
    const stream = bytes.readUInt32BE(5) & 0x7fffffff;
    const payload = bytes.subarray(9);
    if (type === HEADERS || (type === CONTINUATION && this.#openBlock)) {
      if (type === HEADERS) this.#openBlock = { stream, bytes: [], block: [] };
      const open = this.#openBlock!;
      open.bytes.push(bytes);
      open.block.push(type === HEADERS ? headerBlock(payload, flags) : payload);
      if (!(flags & END_HEADERS)) return null;
      this.#openBlock = null;
      this.#decodeHeaders(open.stream, Buffer.concat(open.block));
      return { bytes: Buffer.concat(open.bytes), command: null, stream: open.stream };
    }
    if (type === DATA && stream !== 0) return { bytes, command: this.#data(stream, dataOf(payload, flags)), stream };
    return { bytes, command: null, stream };
  }

  #decodeHeaders(stream: number, block: Buffer): void {
    this.#headers.write(block);
    this.#headers.execute();
    for (let header = this.#headers.read(); header !== null; header = this.#headers.read())
      if (header.name === ':path') this.#paths.set(stream, header.value);
  }

  /** The command a DATA frame carries: the gRPC messages it completes, as one call of the stream's RPC. */
  #data(stream: number, data: Buffer): WireCommand | null {
    const path = this.#paths.get(stream);
    if (!path || data.length === 0) return null;
    let buf = Buffer.concat([this.#partial.get(stream) ?? Buffer.alloc(0), data]);
    const name = rpcName(path);
    const lines: string[] = [];
    const args: string[] = [];
    while (buf.length >= 5 && buf.length >= 5 + buf.readUInt32BE(1)) {
      const length = buf.readUInt32BE(1);
      // A compressed message (flag 1) is not read: it is still this RPC's call.
      const fields: ProtoField[] = buf[0] === 0 ? (protoFields(buf.subarray(5, 5 + length)) ?? []) : [];
      lines.push(etcdRequestText(name, fields));
      args.push(...fields.map((f) => f.value));
      buf = buf.subarray(5 + length);
    }
    this.#partial.set(stream, buf);
    const text = [name, lines.filter(Boolean).join(' / ')].filter(Boolean).join(' ');
    return { protocol: 'grpc', name, args: [...new Set(args)], text };
  }
}

/** A HEADERS payload's header block fragment: without its padding and priority fields. */
function headerBlock(payload: Buffer, flags: number): Buffer {
  let start = 0;
  let end = payload.length;
  if (flags & PADDED) {
    end -= payload[0]!;
    start = 1;
  }
  if (flags & PRIORITY) start += 5;
  return payload.subarray(start, end);
}

/** A DATA payload without its padding. */
function dataOf(payload: Buffer, flags: number): Buffer {
  return flags & PADDED ? payload.subarray(1, payload.length - payload[0]!) : payload;
}
