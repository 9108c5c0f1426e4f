/**
 * gRPC over HTTP/2, the server's side: its frames (no preface: the server opens with SETTINGS),
 * each with its stream. A DATA frame with a payload on a stream is a reply: the answer to the
 * oldest request on that stream not answered yet (a unary call's one message; one of a
 * LeaseKeepAlive stream's answers). Its HEADERS and trailers pass in order on their stream, so a
 * held reply keeps the trailers behind it and nothing of another stream.
 */
import type { Frame } from './framer.ts';

const DATA = 0;
const MAX_FRAME = 16 * 1024 * 1024;

export interface GrpcReplyFrame extends Frame {
  /** A response message: the answer to its stream's oldest unanswered request. */
  readonly reply: boolean;
}

export class GrpcResponseFramer {
  opaqueReason: string | null = null;
  #pending: Buffer = Buffer.alloc(0);

  push(chunk: Buffer): GrpcReplyFrame[] {
    if (this.opaqueReason !== null) return [{ bytes: chunk, command: null, reply: false }];
    this.#pending = this.#pending.length ? Buffer.concat([this.#pending, chunk]) : chunk;
    const frames: GrpcReplyFrame[] = [];
    while (this.#pending.length >= 9) {
      const length = this.#pending.readUIntBE(0, 3);
      if (length > MAX_FRAME) {
        this.opaqueReason = `an HTTP/2 frame of ${length} bytes from the store`;
        frames.push({ bytes: this.#pending, command: null, reply: false });
        this.#pending = Buffer.alloc(0);
        return frames;
      }
      if (this.#pending.length < 9 + length) break;
      const bytes = this.#pending.subarray(0, 9 + length);
      this.#pending = this.#pending.subarray(9 + length);
      const stream = bytes.readUInt32BE(5) & 0x7fffffff;
      frames.push({ bytes, command: null, stream, reply: bytes[3] === DATA && stream !== 0 && length > 0 });
    }
    return frames;
  }
}
