/**
 * Redis requests (RESP) as the client sends them: arrays of bulk strings (`*2\r\n$3\r\nDEL\r\n$1\r\nk\r\n`),
 * or an inline command line (`PING\r\n`).
 *
 * Why our own framer and not a library: the proxy must know the exact byte range of every command,
 * so it can stop the stream in front of one command and later forward those bytes untouched.
 * `redis-parser` (NodeRedis, already installed through ioredis) is a reply parser: it hands back
 * decoded values with no byte offsets, and it rejects inline commands. `respjs` decodes values the
 * same way. Client requests are a tiny subset of RESP (an array of bulk strings, or one text line),
 * so framing them needs no more than the ~60 lines below, and they are tested against the bytes
 * real clients (ioredis, a real redis-server) send, split at every offset.
 */
import { rememberScript, scriptForSha, type WireCommand } from './command.ts';
import { IncrementalFramer } from './framer.ts';

const CR = 13;
const LF = 10;
const MAX_INLINE = 64 * 1024;
const MAX_BULK = 512 * 1024 * 1024;

/** The integer on a `*N\r\n` / `$N\r\n` header line starting at `from` (after the type byte). */
function headerLine(buf: Buffer, from: number): { value: number; next: number } | 'more' | 'bad' {
  const cr = buf.indexOf(CR, from);
  if (cr === -1 || cr + 1 >= buf.length) return cr === -1 && buf.length - from > 20 ? 'bad' : 'more';
  if (buf[cr + 1] !== LF) return 'bad';
  const text = buf.toString('latin1', from, cr);
  if (!/^-?\d{1,11}$/.test(text)) return 'bad';
  return { value: Number(text), next: cr + 2 };
}

const short = (arg: string) => (arg.length > 64 ? `${arg.slice(0, 61)}...` : arg);

function redisCommand(parts: readonly Buffer[]): WireCommand | null {
  if (parts.length === 0) return null;
  const name = parts[0]!.toString('utf8').toUpperCase();
  const args = parts.slice(1).map((part) => part.toString('utf8'));
  let script: string | undefined;
  let sha: string | undefined;
  const sub = args[0]?.toUpperCase();
  if (name === 'EVAL' || name === 'EVAL_RO' || (name === 'SCRIPT' && sub === 'LOAD')) {
    script = name === 'SCRIPT' ? args[1] : args[0];
    if (script !== undefined) sha = rememberScript(script);
  } else if ((name === 'EVALSHA' || name === 'EVALSHA_RO') && args[0] !== undefined) {
    sha = args[0].toLowerCase();
    script = scriptForSha(sha);
  }
  const text = [name, ...args.map(short)].join(' ');
  return {
    protocol: 'redis',
    name,
    args,
    text: text.length > 240 ? `${text.slice(0, 237)}...` : text,
    ...(script !== undefined ? { script } : {}),
    ...(sha !== undefined ? { sha } : {}),
  };
}

export class RespRequestFramer extends IncrementalFramer {
  protected next(buf: Buffer) {
    return buf[0] === 0x2a /* '*' */ ? this.multibulk(buf) : this.inline(buf);
  }

  private multibulk(buf: Buffer) {
    const count = headerLine(buf, 1);
    if (count === 'more') return { need: buf.length + 1 };
    if (count === 'bad') return { error: 'malformed RESP array header from the client' };
    const parts: Buffer[] = [];
    let at = count.next;
    for (let i = 0; i < count.value; i++) {
      if (at >= buf.length) return { need: at + 1 };
      if (buf[at] !== 0x24 /* '$' */) return { error: `RESP array element ${i} is not a bulk string` };
      const len = headerLine(buf, at + 1);
      if (len === 'more') return { need: buf.length + 1 };
      if (len === 'bad' || len.value < 0 || len.value > MAX_BULK)
        return { error: 'malformed RESP bulk length from the client' };
      const end = len.next + len.value;
      if (end + 2 > buf.length) return { need: end + 2 };
      if (buf[end] !== CR || buf[end + 1] !== LF) return { error: 'RESP bulk string not terminated by CRLF' };
      parts.push(buf.subarray(len.next, end));
      at = end + 2;
    }
    return { length: at, command: redisCommand(parts) };
  }

  private inline(buf: Buffer) {
    const lf = buf.indexOf(LF);
    if (lf === -1)
      return buf.length > MAX_INLINE ? { error: 'inline command longer than 64 KiB' } : { need: buf.length + 1 };
    const line = buf.toString('utf8', 0, lf).replace(/\r$/, '');
    const parts = line
      .split(/[ \t]+/)
      .filter(Boolean)
      .map((word) => Buffer.from(word));
    return { length: lf + 1, command: redisCommand(parts) };
  }
}
