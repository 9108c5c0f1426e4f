/**
 * The store's side of a proxied connection, split into responses so a hold can keep back the reply
 * to one command (the command ran in the store; the holder does not know yet). A response is one
 * RESP reply on Redis (an out-of-band RESP3 push or attribute is not a reply), or on Postgres every
 * backend message up to and including ReadyForQuery ('Z'); on ZooKeeper one packet, a watch
 * notification excepted (src/wire/zk-framer.ts). Responses arrive in the order the
 * commands were sent, which is how the proxy pairs a reply with its command. (gRPC answers by stream,
 * in no order across streams: grpc-reply-framer.ts.)
 */
import { IncrementalFramer } from './framer.ts';
import type { WireProtocol } from './command.ts';
import { ZkReplyFramer } from './zk-framer.ts';

export interface ReplyFrame {
  readonly bytes: Buffer;
  /** The first bytes of a response (the place to stop the stream in front of a reply). */
  readonly starts: boolean;
  /** The last bytes of a response (its command is answered). */
  readonly ends: boolean;
}

const CR = 13;
const LINE_TYPES = new Set('+-:_,#('.split(''));
const BULK_TYPES = new Set('$!='.split(''));
const AGGREGATE_TYPES = new Set('*%~>|'.split(''));

/** The end offset of one RESP value starting at `at`, 'more' when it is not all there, or an error. */
function respValueEnd(buf: Buffer, at: number): number | 'more' | { error: string } {
  if (at >= buf.length) return 'more';
  const type = String.fromCharCode(buf[at]!);
  const cr = buf.indexOf(CR, at);
  if (cr === -1 || cr + 1 >= buf.length) return 'more';
  const lineEnd = cr + 2;
  if (LINE_TYPES.has(type)) return lineEnd;
  const n = Number(buf.toString('latin1', at + 1, cr));
  if (!Number.isInteger(n))
    return { error: `malformed RESP header "${buf.toString('latin1', at, Math.min(cr, at + 20))}" from the store` };
  if (BULK_TYPES.has(type)) return n < 0 ? lineEnd : lineEnd + n + 2 <= buf.length ? lineEnd + n + 2 : 'more';
  if (AGGREGATE_TYPES.has(type)) {
    let end: number | 'more' | { error: string } = lineEnd;
    const items = type === '%' || type === '|' ? 2 * n : n;
    for (let i = 0; i < items && typeof end === 'number'; i++) end = respValueEnd(buf, end);
    return end;
  }
  return { error: `unknown RESP type byte "${type}" from the store` };
}

class RespReplyFramer extends IncrementalFramer {
  protected next(buf: Buffer) {
    const end = respValueEnd(buf, 0);
    if (end === 'more') return { need: buf.length + 1 };
    if (typeof end === 'object') return end;
    return { length: end, command: null };
  }
}

class PostgresBackendFramer extends IncrementalFramer {
  protected next(buf: Buffer) {
    if (buf.length < 5) return { need: 5 };
    const length = buf.readInt32BE(1);
    if (length < 4) return { error: `malformed Postgres backend message (length ${length})` };
    return buf.length < 1 + length ? { need: 1 + length } : { length: 1 + length, command: null };
  }
}

/** Splits the store's bytes into responses; once the stream stops parsing, bytes pass through as no response at all. */
export class ReplyFramer {
  private readonly framer: IncrementalFramer;
  private inResponse = false;

  constructor(private readonly protocol: Exclude<WireProtocol, 'grpc'>) {
    this.framer =
      protocol === 'redis'
        ? new RespReplyFramer()
        : protocol === 'zookeeper'
          ? new ZkReplyFramer()
          : new PostgresBackendFramer();
  }

  push(chunk: Buffer): ReplyFrame[] {
    return this.framer.push(chunk).map(({ bytes }) => {
      if (this.framer.opaqueReason !== null) return { bytes, starts: false, ends: false };
      const type = String.fromCharCode(bytes[0]!);
      if (this.framer instanceof ZkReplyFramer) {
        const reply = this.framer.isReply(bytes);
        return { bytes, starts: reply, ends: reply };
      }
      if (this.protocol === 'redis') {
        const reply = type !== '>' && type !== '|';
        return { bytes, starts: reply, ends: reply };
      }
      const starts = !this.inResponse;
      this.inResponse = type !== 'Z';
      return { bytes, starts, ends: type === 'Z' };
    });
  }
}
