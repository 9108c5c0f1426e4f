/**
 * Splits a holder's outgoing byte stream into whole protocol messages, incrementally: a message
 * split across TCP chunks waits for its last byte, several messages in one chunk come out one by
 * one. The proxy forwards whole messages only, so it can stop the stream exactly in front of a
 * command and later forward the held bytes untouched.
 */
import type { WireCommand } from './command.ts';

export interface Frame {
  /** The exact bytes the client sent for this message. */
  readonly bytes: Buffer;
  /** The command this message carries, or null (a handshake, a Parse, a Sync, raw bytes). */
  readonly command: WireCommand | null;
  /**
   * The multiplexed stream it belongs to (HTTP/2): a held frame then stops only its own stream's
   * later frames, and stream 0's always pass (src/wire/lane.ts). Absent: nothing overtakes it.
   */
  readonly stream?: number;
}

export interface Framer {
  /** Feed the next chunk; returns the messages it completed, in order. */
  push(chunk: Buffer): Frame[];
  /** Set when the stream stopped parsing (TLS, a protocol error): bytes now pass through raw. */
  readonly opaqueReason: string | null;
}

/**
 * Shared buffering: keeps the unconsumed tail and skips re-parsing until at least `need` bytes are
 * there (a 10 MB value arriving in 64 KB chunks is parsed once, not 160 times).
 */
export abstract class IncrementalFramer implements Framer {
  private pending: Buffer = Buffer.alloc(0);
  private need = 1;
  opaqueReason: string | null = null;

  /** Parse one message at the start of `buf`: its length and command, how many bytes are needed, or why it is not this protocol. */
  protected abstract next(
    buf: Buffer,
  ): { length: number; command: WireCommand | null } | { need: number } | { error: string };

  push(chunk: Buffer): Frame[] {
    if (this.opaqueReason !== null) return [{ bytes: chunk, command: null }];
    this.pending = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    if (this.pending.length < this.need) return [];
    const frames: Frame[] = [];
    let offset = 0;
    while (offset < this.pending.length) {
      const rest = this.pending.subarray(offset);
      const step = this.next(rest);
      if ('error' in step) {
        this.opaqueReason = step.error;
        frames.push({ bytes: rest, command: null });
        offset = this.pending.length;
        break;
      }
      if ('need' in step) {
        this.need = step.need;
        break;
      }
      frames.push({ bytes: rest.subarray(0, step.length), command: step.command });
      offset += step.length;
      this.need = 1;
    }
    this.pending = offset >= this.pending.length ? Buffer.alloc(0) : this.pending.subarray(offset);
    return frames;
  }
}
