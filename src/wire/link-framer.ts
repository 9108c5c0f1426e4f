/**
 * Splits one direction of a node-to-node link into whole messages, incrementally, in the framing
 * the target declares: `ndjson` (one JSON value per line) or `length-prefixed` (a 4-byte big-endian
 * length, then that many bytes of JSON). The link proxy forwards whole messages only, so it can hold,
 * drop, duplicate or reorder one message exactly and forward the rest untouched.
 */
export const LINK_FRAMINGS = ['ndjson', 'length-prefixed'] as const;
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
  const frame = (bytes: Buffer, payload: Buffer): LinkFrame => {
    const text = payload.toString('utf8');
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    return { bytes, body, text };
  };
  return {
    push(chunk) {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      const frames: LinkFrame[] = [];
      for (;;) {
        if (framing === 'ndjson') {
          const end = pending.indexOf(0x0a);
          if (end < 0) break;
          frames.push(frame(pending.subarray(0, end + 1), pending.subarray(0, end)));
          pending = pending.subarray(end + 1);
        } else {
          if (pending.length < 4) break;
          const length = pending.readUInt32BE(0);
          if (pending.length < 4 + length) break;
          frames.push(frame(pending.subarray(0, 4 + length), pending.subarray(4, 4 + length)));
          pending = pending.subarray(4 + length);
        }
      }
      return frames;
    },
  };
}
