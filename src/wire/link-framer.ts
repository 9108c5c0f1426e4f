/**
 * Splits one direction of a node-to-node link into whole messages, incrementally, in the framing
 * the target declares: `ndjson` (one JSON value per line), `length-prefixed` (a 4-byte big-endian
 * length, then that many bytes of JSON) or `websocket` (the HTTP upgrade as a message of its own,
 * then each WebSocket frame; a text frame's payload is the JSON). The link proxy forwards whole messages only, so it can hold,
 * drop, duplicate or reorder one message exactly and forward the rest untouched.
 */
export const LINK_FRAMINGS = ['ndjson', 'length-prefixed', 'websocket'] as const;
export type LinkFraming = (typeof LINK_FRAMINGS)[number];

export interface LinkFrame {
  /** The exact bytes of the message, its framing included. */
  readonly bytes: Buffer;
  /** The message parsed as JSON, or undefined when it is not JSON. */
  readonly body: unknown;
  /** The message's text, for the evidence. */
  readonly text: string;
}

export interface LinkFramer {
  push(chunk: Buffer): LinkFrame[];
}

export function linkFramer(framing: LinkFraming): LinkFramer {
  let pending: Buffer = Buffer.alloc(0);
  // WebSocket: the HTTP upgrade (a request one way, the 101 reply the other) comes before any frame.
  let handshaking = framing === 'websocket';
  const frame = (bytes: Buffer, payload: Buffer | string): LinkFrame => {
    const text = payload.toString('utf8');
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    return { bytes, body, text };
  };
  /** The next whole message at the start of `pending` and its length, or undefined when it has not all arrived. */
  const next = (): [LinkFrame, number] | undefined => {
    if (framing === 'ndjson') {
      const end = pending.indexOf(0x0a);
      return end < 0 ? undefined : [frame(pending.subarray(0, end + 1), pending.subarray(0, end)), end + 1];
    }
    if (framing === 'length-prefixed') {
      if (pending.length < 4) return undefined;
      const length = pending.readUInt32BE(0);
      if (pending.length < 4 + length) return undefined;
      return [frame(pending.subarray(0, 4 + length), pending.subarray(4, 4 + length)), 4 + length];
    }
    if (handshaking) {
      const end = pending.indexOf('\r\n\r\n');
      if (end < 0) return undefined;
      handshaking = false;
      const head = pending.subarray(0, end + 4);
      return [frame(head, head.toString('latin1').split('\r\n')[0]!), end + 4];
    }
    return websocketFrame(pending, frame);
  };
  return {
    push(chunk) {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      const frames: LinkFrame[] = [];
      for (let found = next(); found; found = next()) {
        frames.push(found[0]);
        pending = pending.subarray(found[1]);
      }
      return frames;
    },
  };
}

const WEBSOCKET_CONTROL: Record<number, string> = { 8: 'close', 9: 'ping', 10: 'pong' };

/**
 * One WebSocket frame (RFC 6455 §5.2) at the start of `bytes`: its header (FIN, opcode, mask bit,
 * a 7-bit, 16-bit or 64-bit payload length, the 4-byte mask key a client's frames carry), then the
 * payload, unmasked for the evidence and forwarded as it came. A control frame reads as its name.
 */
function websocketFrame(
  bytes: Buffer,
  frame: (bytes: Buffer, payload: Buffer | string) => LinkFrame,
): [LinkFrame, number] | undefined {
  if (bytes.length < 2) return undefined;
  const opcode = bytes[0]! & 0x0f;
  const masked = (bytes[1]! & 0x80) !== 0;
  let length = bytes[1]! & 0x7f;
  let offset = 2;
  if (length === 126) {
    if (bytes.length < 4) return undefined;
    length = bytes.readUInt16BE(2);
    offset = 4;
  } else if (length === 127) {
    if (bytes.length < 10) return undefined;
    length = Number(bytes.readBigUInt64BE(2));
    offset = 10;
  }
  const payloadAt = offset + (masked ? 4 : 0);
  if (bytes.length < payloadAt + length) return undefined;
  const whole = bytes.subarray(0, payloadAt + length);
  const control = WEBSOCKET_CONTROL[opcode];
  if (control !== undefined) return [frame(whole, `websocket ${control} frame`), whole.length];
  const payload = Buffer.from(bytes.subarray(payloadAt, payloadAt + length));
  if (masked) for (let i = 0; i < payload.length; i++) payload[i]! ^= bytes[offset + (i % 4)]!;
  return [frame(whole, payload), whole.length];
}
