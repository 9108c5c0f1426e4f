/**
 * A cluster link's framers (src/wire/link-framer.ts): whole messages out of a byte stream cut
 * anywhere, in both framings a node may declare, with their exact bytes kept for forwarding.
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
