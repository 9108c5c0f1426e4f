/**
 * The Postgres frontend (client -> server) protocol, version 3: the startup packet (and the
 * SSLRequest / GSSENCRequest / CancelRequest that may precede it), then typed messages
 * (1-byte type, int32 length). A command is a simple Query ('Q'), or an extended-protocol Bind
 * ('B'), whose SQL is the one its Parse ('P') registered for that statement name.
 *
 * Why our own framer and not a library: `pg-protocol` (which `pg` depends on) parses only backend
 * messages (its Parser treats 'Q'/'P'/'B' as unknown) and serialises frontend ones; `pg-gateway`
 * parses frontend messages but terminates the protocol as a server (it runs the authentication
 * itself), so it cannot sit transparently between pg and a real Postgres. The proxy also needs the
 * exact byte range of every message, which neither exposes. Framing the frontend stream is short,
 * and the tests drive it with the bytes `pg-protocol`'s own serializer produces and with a real pg
 * client against a real postgres.
 */
import type { WireCommand } from './command.ts';
import { IncrementalFramer } from './framer.ts';

const PROTOCOL_3 = 196608;
const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
const MAX_MESSAGE = 1024 * 1024 * 1024;

/** A NUL-terminated string at `at`; returns it and the offset after the NUL. */
function cstring(buf: Buffer, at: number, end: number): { value: string; next: number } {
  const nul = buf.indexOf(0, at);
  if (nul === -1 || nul >= end) throw new Error('unterminated string in a Postgres message');
  return { value: buf.toString('utf8', at, nul), next: nul + 1 };
}

/** The parameters of a Bind message: text ones as text, binary ones as hex, NULL as "NULL". */
function bindParameters(buf: Buffer, at: number, end: number): string[] {
  const formatCount = buf.readInt16BE(at);
  const formats: number[] = [];
  for (let i = 0; i < formatCount; i++) formats.push(buf.readInt16BE(at + 2 + 2 * i));
  let p = at + 2 + 2 * formatCount;
  const count = buf.readInt16BE(p);
  p += 2;
  const values: string[] = [];
  for (let i = 0; i < count; i++) {
    const len = buf.readInt32BE(p);
    p += 4;
    if (len < 0) {
      values.push('NULL');
      continue;
    }
    if (p + len > end) throw new Error('Bind parameter runs past its message');
    const format = formats.length === 1 ? formats[0] : formats[i];
    values.push(format === 1 ? `\\x${buf.toString('hex', p, p + len)}` : buf.toString('utf8', p, p + len));
    p += len;
  }
  return values;
}

const pgCommand = (name: string, sql: string, args: string[]): WireCommand => ({
  protocol: 'postgres',
  name,
  args,
  text: sql,
});

export class PostgresFrontendFramer extends IncrementalFramer {
  private phase: 'startup' | 'messages' = 'startup';
  /** SQL by prepared statement name ("" = the unnamed one), from Parse messages. */
  private readonly statements = new Map<string, string>();

  protected next(buf: Buffer) {
    return this.phase === 'startup' ? this.startup(buf) : this.message(buf);
  }

  private startup(buf: Buffer) {
    if (buf.length < 8) return { need: 8 };
    const length = buf.readInt32BE(0);
    if (length < 8 || length > 10_000)
      return {
        error:
          'not a Postgres startup packet (TLS after SSLRequest, or another protocol); passing bytes through unparsed',
      };
    if (buf.length < length) return { need: length };
    const code = buf.readInt32BE(4);
    if (code === PROTOCOL_3) this.phase = 'messages';
    else if (code !== SSL_REQUEST && code !== GSSENC_REQUEST && code !== CANCEL_REQUEST) {
      return { error: `unsupported Postgres startup code ${code} (only protocol 3.0 is parsed)` };
    }
    return { length, command: null };
  }

  private message(buf: Buffer) {
    if (buf.length < 5) return { need: 5 };
    const type = String.fromCharCode(buf[0]!);
    const length = buf.readInt32BE(1);
    if (length < 4 || length > MAX_MESSAGE) return { error: `malformed Postgres message '${type}' (length ${length})` };
    const total = 1 + length;
    if (buf.length < total) return { need: total };
    try {
      return { length: total, command: this.commandOf(type, buf, total) };
    } catch (error) {
      return { error: `malformed Postgres message '${type}': ${(error as Error).message}` };
    }
  }

  private commandOf(type: string, buf: Buffer, end: number): WireCommand | null {
    switch (type) {
      case 'Q':
        return pgCommand('Query', cstring(buf, 5, end).value, []);
      case 'P': {
        const name = cstring(buf, 5, end);
        this.statements.set(name.value, cstring(buf, name.next, end).value);
        return null;
      }
      case 'B': {
        const portal = cstring(buf, 5, end);
        const statement = cstring(buf, portal.next, end);
        const sql =
          this.statements.get(statement.value) ??
          `<prepared statement "${statement.value}", parsed before the proxy saw it>`;
        return pgCommand('Bind', sql, bindParameters(buf, statement.next, end));
      }
      case 'C': {
        if (String.fromCharCode(buf[5]!) === 'S') this.statements.delete(cstring(buf, 6, end).value);
        return null;
      }
      default:
        return null;
    }
  }
}
