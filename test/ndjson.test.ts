/**
 * The holder protocol's framing (src/holder/ndjson.ts, docs/holder-protocol.md): complete lines
 * only, whatever the chunking, and a torn last line (a holder SIGKILLed mid-write) dropped at the
 * stream's end, never half-parsed.
 */
import { expect, it } from 'vitest';
import { encodeLine, LineReader } from '../src/holder/ndjson.ts';

it('hands on each complete line once, across chunk boundaries, and drops the torn last line', () => {
  const lines: string[] = [];
  const reader = new LineReader((line) => lines.push(line));
  const first = encodeLine({ t: 'log', message: 'two\nlines' });
  reader.push(first.slice(0, 7));
  expect(lines).toEqual([]);
  reader.push(first.slice(7) + encodeLine({ t: 'seam', id: 1, name: 'x' }) + '{"t":"result","id":2,');
  expect(lines.map((l) => JSON.parse(l) as unknown)).toEqual([
    { t: 'log', message: 'two\nlines' },
    { t: 'seam', id: 1, name: 'x' },
  ]);
  expect(reader.end()).toBe('{"t":"result","id":2,');
  expect(lines).toHaveLength(2);
});

it('a stream that ended on a newline leaves nothing torn', () => {
  const reader = new LineReader(() => undefined);
  reader.push(encodeLine({ t: 'abort' }));
  expect(reader.end()).toBe('');
});
