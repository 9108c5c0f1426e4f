/**
 * A protobuf message read without its schema: every field with its path of field numbers (a
 * nested message's fields under its own), varints as decimal strings (a lease id) and
 * length-delimited fields as text when they are printable UTF-8 (a key, a value). The gRPC framer
 * names a call's keys and leases from these (src/wire/etcd-rpc.ts), so a hold on "the lock's key"
 * or "this lease" picks out an etcd RPC as `key` does a Redis command's.
 */

export interface ProtoField {
  /** Field numbers from the message down: [2, 3, 1] is field 1 of the message in field 3 of the one in field 2. */
  path: number[];
  value: string;
}

/** Reads a varint at `at`; null when it runs past the buffer. */
function varint(buf: Buffer, at: number): { value: bigint; next: number } | null {
  let value = 0n;
  for (let shift = 0n, p = at; p < buf.length && shift < 70n; shift += 7n, p++) {
    const byte = buf[p]!;
    value |= BigInt(byte & 0x7f) << shift;
    if (byte < 0x80) return { value, next: p + 1 };
  }
  return null;
}

const PRINTABLE = /^[\x20-\x7e\u00a0-\uffff]+$/u;

/** Every field the message holds (nested ones walked, 5 deep), or null when `buf` is no well-formed message. */
export function protoFields(buf: Buffer, path: number[] = []): ProtoField[] | null {
  const out: ProtoField[] = [];
  let p = 0;
  while (p < buf.length) {
    const tag = varint(buf, p);
    const field = tag ? Number(tag.value >> 3n) : 0;
    if (!tag || field === 0) return null;
    p = tag.next;
    const wire = Number(tag.value & 7n);
    if (wire === 0) {
      const v = varint(buf, p);
      if (!v) return null;
      out.push({ path: [...path, field], value: v.value.toString() });
      p = v.next;
    } else if (wire === 1 || wire === 5) {
      p += wire === 1 ? 8 : 4;
    } else if (wire === 2) {
      const length = varint(buf, p);
      const end = length ? length.next + Number(length.value) : Infinity;
      if (!length || end > buf.length) return null;
      const bytes = buf.subarray(length.next, end);
      p = end;
      const text = bytes.toString('utf8');
      if (bytes.length && PRINTABLE.test(text) && Buffer.byteLength(text) === bytes.length)
        out.push({ path: [...path, field], value: text });
      const nested = path.length < 5 && bytes.length ? protoFields(bytes, [...path, field]) : null;
      if (nested) out.push(...nested);
    } else return null;
  }
  return p === buf.length ? out : null;
}
