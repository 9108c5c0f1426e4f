/**
 * The Node holder's end of its protocol pipes (docs/holder-protocol.md): requests in on fd 3,
 * messages out on fd 4, one JSON object per line. The launcher's early holder (bin/holder-shell.js)
 * already read its first line from fd 3 (the `become`), and leaves the socket it read it with, and
 * what it read past that line, in a global slot: taken here so that fd 3 has one reader.
 */
import { Socket } from 'node:net';
import { encodeLine, LineReader } from './ndjson.ts';

/** Where bin/holder-shell.js leaves fd 3's socket (plain JavaScript: it cannot import this file). */
const SLOT = Symbol.for('lock-oracles.holder-input');

interface HandedOver {
  socket: Socket;
  rest: string;
}

export interface ChildPipes {
  /** Writes one message in one write; resolves once it was handed to the kernel (or the pipe is gone). */
  send(message: unknown): Promise<void>;
}

/**
 * Opens the pipes: each complete line from fd 3 goes to `onMessage` parsed, a line that is not
 * JSON to `onBadLine`; `onEnd` runs when fd 3 ends (the harness is gone or done), a torn last line
 * dropped.
 */
export function openChildPipes(
  onMessage: (message: unknown) => void,
  onBadLine: (line: string) => void,
  onEnd: () => void,
): ChildPipes {
  const slots = globalThis as unknown as Record<symbol, HandedOver | undefined>;
  const handed = slots[SLOT];
  slots[SLOT] = undefined;
  const input = handed?.socket ?? new Socket({ fd: 3, readable: true, writable: false });
  const output = new Socket({ fd: 4, readable: false, writable: true });
  output.on('error', () => undefined);
  const reader = new LineReader((line) => {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      return onBadLine(line);
    }
    onMessage(message);
  });
  input.on('data', (chunk: Buffer) => reader.push(chunk));
  input.once('end', () => {
    reader.end();
    onEnd();
  });
  input.on('error', () => onEnd());
  if (handed?.rest) reader.push(handed.rest);
  input.resume();
  return {
    send: (message) =>
      new Promise<void>((resolve) => {
        if (output.destroyed) return resolve();
        output.write(encodeLine(message), () => resolve());
      }),
  };
}
