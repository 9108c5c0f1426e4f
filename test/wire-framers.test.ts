/**
 * The framers split a client's byte stream into whole messages wherever TCP cuts it: every test
 * feeds the same bytes whole, one byte at a time, and cut at every offset, and expects the same
 * messages with the same bytes. Postgres bytes come from pg-protocol's serializer (what pg sends).
 */
import { serialize } from 'pg-protocol';
import { describe, expect, it } from 'vitest';
import { matchesPattern, sha1 } from '../src/wire/command.ts';
import type { Frame, Framer } from '../src/wire/framer.ts';
import { PostgresFrontendFramer } from '../src/wire/pg-framer.ts';
import { RespRequestFramer } from '../src/wire/resp-framer.ts';

function resp(...args: string[]): Buffer {
  return Buffer.from(`*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('')}`);
}

type Shape = { bytes: string; name: string | null; text: string | null };
const shape = (frames: Frame[]): Shape[] =>
  frames.map((f) => ({ bytes: f.bytes.toString('hex'), name: f.command?.name ?? null, text: f.command?.text ?? null }));

function feed(make: () => Framer, chunks: Buffer[]): Shape[] {
  const framer = make();
  const frames = chunks.flatMap((chunk) => framer.push(chunk));
  expect(framer.opaqueReason).toBeNull();
  return shape(frames);
}

/** The same stream whole, byte by byte, and cut in two at every offset must give the same messages. */
function expectSameAtEveryCut(make: () => Framer, stream: Buffer): Shape[] {
  const whole = feed(make, [stream]);
  expect(whole.map((m) => m.bytes).join('')).toBe(stream.toString('hex'));
  expect(
    feed(
      make,
      [...stream].map((byte) => Buffer.from([byte])),
    ),
  ).toEqual(whole);
  for (let cut = 1; cut < stream.length; cut++) {
    expect(feed(make, [stream.subarray(0, cut), stream.subarray(cut)])).toEqual(whole);
  }
  return whole;
}

describe('RESP request framer', () => {
  it('frames pipelined arrays and inline commands, split anywhere', () => {
    const script = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0";
    const stream = Buffer.concat([
      resp('GET', 'lock:k'),
      Buffer.from('PING\r\n'),
      resp('DEL', 'lock:k'),
      resp('EVAL', script, '1', 'lock:k', 'tok\r\nwith-crlf'),
      resp('SET', 'k', ''),
    ]);
    const messages = expectSameAtEveryCut(() => new RespRequestFramer(), stream);
    expect(messages.map((m) => m.name)).toEqual(['GET', 'PING', 'DEL', 'EVAL', 'SET']);
    expect(messages[2]!.text).toBe('DEL lock:k');
  });

  it('recognises an EVALSHA by the body of a script it saw, or by the SHA of a literal body', () => {
    const body = "return redis.call('pexpire', KEYS[1], ARGV[2])";
    const framer = new RespRequestFramer();
    const [load, call] = framer.push(
      Buffer.concat([resp('SCRIPT', 'LOAD', body), resp('EVALSHA', sha1(body), '1', 'k', 't', '100')]),
    );
    expect(load!.command?.sha).toBe(sha1(body));
    expect(call!.command?.script).toBe(body);
    expect(matchesPattern(call!.command!, { script: /pexpire/ })).toBe(true);
    const unseen = "return redis.call('del', KEYS[1])";
    const [blind] = new RespRequestFramer().push(resp('EVALSHA', sha1(unseen), '1', 'k'));
    expect(matchesPattern(blind!.command!, { script: unseen })).toBe(true);
    expect(
      matchesPattern(blind!.command!, { command: ['EVAL', 'EVALSHA'], script: "return redis.call('get', KEYS[1])" }),
    ).toBe(false);
  });

  it('passes bytes through unparsed, and says why, when the stream is not RESP requests', () => {
    const framer = new RespRequestFramer();
    const frames = framer.push(Buffer.from('*1\r\n:5\r\n'));
    expect(frames.map((f) => f.bytes.toString())).toEqual(['*1\r\n:5\r\n']);
    expect(framer.opaqueReason).toMatch(/not a bulk string/);
    expect(framer.push(Buffer.from('anything'))[0]!.bytes.toString()).toBe('anything');
  });
});

describe('Postgres frontend framer', () => {
  it('frames startup, simple queries and the extended protocol, split anywhere', () => {
    const stream = Buffer.concat([
      serialize.startup({ user: 'postgres', database: 'postgres' }),
      serialize.query('SELECT pg_advisory_lock(42)'),
      serialize.parse({ text: 'SELECT pg_advisory_unlock($1)' }),
      serialize.bind({ values: ['42'] }),
      serialize.describe({ type: 'P' }),
      serialize.execute(),
      serialize.sync(),
      serialize.parse({ name: 'named', text: 'SELECT $1::text' }),
      serialize.bind({ statement: 'named', values: ['x', null] as unknown[] }),
      serialize.execute(),
      serialize.sync(),
      serialize.end(),
    ]);
    const messages = expectSameAtEveryCut(() => new PostgresFrontendFramer(), stream);
    const commands = messages.filter((m) => m.name !== null);
    expect(commands).toEqual([
      expect.objectContaining({ name: 'Query', text: 'SELECT pg_advisory_lock(42)' }),
      expect.objectContaining({ name: 'Bind', text: 'SELECT pg_advisory_unlock($1)' }),
      expect.objectContaining({ name: 'Bind', text: 'SELECT $1::text' }),
    ]);
    expect(messages).toHaveLength(12);
  });

  it('decodes Bind parameters for the evidence and reuses a named statement parsed earlier', () => {
    const framer = new PostgresFrontendFramer();
    framer.push(serialize.startup({ user: 'u' }));
    framer.push(serialize.parse({ name: 'unlock', text: 'SELECT pg_advisory_unlock($1)' }));
    const [bind] = framer.push(serialize.bind({ statement: 'unlock', values: ['7'] }));
    expect(bind!.command).toMatchObject({ name: 'Bind', text: 'SELECT pg_advisory_unlock($1)', args: ['7'] });
    expect(matchesPattern(bind!.command!, { text: 'pg_advisory_unlock' })).toBe(true);
  });

  it('accepts an SSLRequest before the startup and goes opaque when TLS follows', () => {
    const framer = new PostgresFrontendFramer();
    expect(framer.push(serialize.requestSsl())).toHaveLength(1);
    expect(framer.opaqueReason).toBeNull();
    framer.push(Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc]));
    expect(framer.opaqueReason).toMatch(/TLS/);
  });
});
