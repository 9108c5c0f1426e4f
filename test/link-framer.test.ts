/**
 * A cluster link's framers (src/wire/link-framer.ts): whole messages out of a byte stream cut
 * anywhere, in every framing a node may declare, with their exact bytes kept for forwarding.
 */
import { describe, expect, test } from 'vitest';
import { linkFramer } from '../src/wire/link-framer.ts';

const lengthPrefixed = (json: string) => {
  const payload = Buffer.from(json);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(payload.length);
  return Buffer.concat([length, payload]);
};

/** The stream fed one byte at a time: every cut point at once. */
const byteByByte = (framer: ReturnType<typeof linkFramer>, bytes: Buffer) =>
  [...bytes].flatMap((byte) => framer.push(Buffer.from([byte])));

describe('link framers', () => {
  const messages = ['{"type":"request","key":"k"}', '{"type":"grant","token":{"counter":1}}', 'not json'];

  test('ndjson: one message per line, parsed, however the stream is cut', () => {
    const stream = Buffer.from(messages.map((m) => `${m}\n`).join('') + '{"type":"rest');
    const frames = byteByByte(linkFramer('ndjson'), stream);
    expect(frames.map((f) => f.text)).toEqual(messages);
    expect(frames.map((f) => (f.body as { type?: string } | undefined)?.type)).toEqual(['request', 'grant', undefined]);
    expect(Buffer.concat(frames.map((f) => f.bytes)).toString()).toBe(messages.map((m) => `${m}\n`).join(''));
  });

  test('length-prefixed: a 4-byte big-endian length then the message, however the stream is cut', () => {
    const whole = Buffer.concat(messages.map(lengthPrefixed));
    const frames = byteByByte(
      linkFramer('length-prefixed'),
      Buffer.concat([whole, lengthPrefixed('{"a":1}').subarray(0, 6)]),
    );
    expect(frames.map((f) => f.text)).toEqual(messages);
    expect(Buffer.concat(frames.map((f) => f.bytes)).equals(whole)).toBe(true);
    // Several messages in one chunk come out one by one.
    expect(
      linkFramer('length-prefixed')
        .push(whole)
        .map((f) => f.text),
    ).toEqual(messages);
  });
});

/** An RFC 6455 frame: FIN, the opcode, a 7/16/64-bit length, a client's mask key and masked payload. (test/cluster.test.ts runs the ws package's own frames through the proxy.) */
const wsFrame = (payload: Buffer, mask: boolean, opcode = 1) => {
  const n = payload.length;
  const head = n < 126 ? Buffer.from([0x80 | opcode, n]) : Buffer.alloc(n < 65_536 ? 4 : 10);
  if (n >= 126) {
    head[0] = 0x80 | opcode;
    head[1] = n < 65_536 ? 126 : 127;
    if (n < 65_536) head.writeUInt16BE(n, 2);
    else head.writeBigUInt64BE(BigInt(n), 2);
  }
  if (!mask) return Buffer.concat([head, payload]);
  head[1]! |= 0x80;
  const key = Buffer.from([0x12, 0x34, 0x56, 0x78]);
  return Buffer.concat([head, key, Buffer.from(payload.map((byte, i) => byte ^ key[i % 4]!))]);
};

describe('websocket link framing', () => {
  const short = '{"type":"request","key":"k"}';
  // A client's frames masked, a server's not, with 7-, 16- and 64-bit lengths.
  const frameOf = (text: string, mask: boolean) => wsFrame(Buffer.from(text), mask);
  const long = JSON.stringify({ type: 'grant', pad: 'x'.repeat(70_000) });
  const medium = JSON.stringify({ type: 'request', pad: 'y'.repeat(200) });
  const handshake = 'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n';

  test('the upgrade is one message, then each frame (masked or not, any length) is one, unmasked for the trace', () => {
    for (const mask of [true, false]) {
      const frames = [frameOf(short, mask), frameOf(medium, mask), frameOf(long, mask)];
      const stream = Buffer.concat([Buffer.from(handshake), ...frames]);
      const framer = linkFramer('websocket');
      // Cut in uneven chunks: the header of one frame split from its payload, several frames in one chunk.
      const out = [0, 7, 90, 95, 400, 70_100, stream.length]
        .slice(1)
        .flatMap((end, i, ends) => framer.push(stream.subarray(i === 0 ? 0 : ends[i - 1], end)));
      expect(out.map((f) => f.text.slice(0, 20))).toEqual([
        'GET / HTTP/1.1',
        short.slice(0, 20),
        medium.slice(0, 20),
        long.slice(0, 20),
      ]);
      expect(out.map((f) => (f.body as { type?: string } | undefined)?.type)).toEqual([
        undefined,
        'request',
        'request',
        'grant',
      ]);
      expect(Buffer.concat(out.map((f) => f.bytes)).equals(stream)).toBe(true);
    }
  });

  test('a control frame reads as its name; a frame not all arrived waits', () => {
    const framer = linkFramer('websocket');
    framer.push(Buffer.from('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n'));
    const ping = wsFrame(Buffer.alloc(0), false, 9);
    const text = frameOf('{"type":"recall"}', false);
    expect(framer.push(Buffer.concat([ping, text.subarray(0, 5)])).map((f) => f.text)).toEqual([
      'websocket ping frame',
    ]);
    expect(framer.push(text.subarray(5)).map((f) => f.text)).toEqual(['{"type":"recall"}']);
  });
});
