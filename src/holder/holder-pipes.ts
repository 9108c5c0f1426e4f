/**
 * The harness's end of a holder's protocol pipes (docs/holder-protocol.md): it writes requests on
 * the holder's fd 3 and reads the holder's messages, one JSON object per line, from its fd 4. The
 * same for a holder in any language; the holder's stdout and stderr stay its own log.
 */
import type { ChildProcess, StdioOptions } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { encodeLine, LineReader } from './ndjson.ts';

/** A holder's stdio: nothing on stdin, its stdout onto the harness's stderr (stdout carries --json), stderr kept, fds 3 and 4 the protocol. */
export const HOLDER_STDIO: StdioOptions = ['ignore', 2, 'pipe', 'pipe', 'pipe'];

export class HolderPipes {
  readonly #toHolder: Writable;
  readonly #fromHolder: Readable;

  /**
   * `onMessage` gets each complete line parsed; `onBadLine` a complete line that is not a JSON
   * object (a shim's bug). The unterminated last line a killed holder left is dropped.
   */
  constructor(child: ChildProcess, onMessage: (message: unknown) => void, onBadLine: (line: string) => void) {
    const toHolder = child.stdio[3];
    const fromHolder = child.stdio[4];
    if (!toHolder || !fromHolder || !('write' in toHolder) || !('on' in fromHolder)) {
      throw new Error(`a holder process needs pipes on fds 3 and 4 (spawn it with HOLDER_STDIO)`);
    }
    this.#toHolder = toHolder as Writable;
    this.#fromHolder = fromHolder as Readable;
    // A holder that died leaves a broken pipe: its exit settles every pending call, not this.
    this.#toHolder.on('error', () => undefined);
    this.#fromHolder.on('error', () => undefined);
    // fd 3 carries nothing back; read it anyway so that its end is seen and the process can close.
    (this.#toHolder as unknown as Readable).resume?.();
    const reader = new LineReader((line) => {
      let message: unknown;
      try {
        message = JSON.parse(line);
      } catch {
        return onBadLine(line);
      }
      if (typeof message !== 'object' || message === null || Array.isArray(message)) return onBadLine(line);
      onMessage(message);
    });
    this.#fromHolder.on('data', (chunk: Buffer) => reader.push(chunk));
    this.#fromHolder.on('end', () => reader.end());
  }

  /** Writes one message; a holder already gone is ignored (its exit settles what waited on it). */
  send(message: unknown): void {
    if (this.#toHolder.destroyed || this.#toHolder.writableEnded) return;
    this.#toHolder.write(encodeLine(message));
  }

  /** Writes raw text (the conformance suite's torn line), then, with `end`, closes fd 3. */
  sendRaw(text: string, end = false): void {
    if (this.#toHolder.destroyed || this.#toHolder.writableEnded) return;
    this.#toHolder.write(text);
    if (end) this.#toHolder.end();
  }
}
