/**
 * The holder protocol's framing (docs/holder-protocol.md): one JSON object per line. A reader
 * hands on complete lines only; what is left unterminated when its stream ends is a torn last line
 * (the writer was SIGKILLed mid-write) and is dropped, never half-parsed. Both sides use it: the
 * harness on a holder's fd 4, the Node holder on its fd 3.
 */

/** One message as one line: JSON escapes every newline inside it. */
export function encodeLine(message: unknown): string {
  return `${JSON.stringify(message)}\n`;
}

export class LineReader {
  #partial = '';

  constructor(private readonly onLine: (line: string) => void) {}

  /** A chunk as it arrived: every complete line in it goes on, the rest waits for the next chunk. */
  push(chunk: Buffer | string): void {
    const text = this.#partial + chunk.toString();
    const lines = text.split('\n');
    this.#partial = lines.pop() ?? '';
    for (const line of lines) if (line.trim() !== '') this.onLine(line);
  }

  /** The stream ended: returns the torn last line it drops ('' when the stream ended on a newline). */
  end(): string {
    const torn = this.#partial;
    this.#partial = '';
    return torn;
  }
}
