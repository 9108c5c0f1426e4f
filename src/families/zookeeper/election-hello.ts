/**
 * A ZooKeeper server's election hello (QuorumCnxManager's InitialMessage, 3.5+): the first bytes a
 * server sends on an election connection — protocol version (a negative long), its sid (long), then
 * a length-prefixed "host:port" (several joined by "|") naming its own election address. A server
 * that receives a connection from a lower sid drops it and dials back at that announced address,
 * so in an ensemble whose peer links pass through relays (./ensemble.ts) the relay rewrites the
 * announced port to the relay in front of it: the dial-back passes through a relay too.
 */

/**
 * The FirstWords (src/stores/peer-relays.ts) of a relay in front of an election port: the hello
 * with each announced port found in `relayOf` (a member's own election port → its relay's) replaced.
 */
export function helloThroughRelays(relayOf: ReadonlyMap<number, number>): (arrived: Buffer) => Buffer | undefined {
  return (arrived) => {
    if (arrived.length < 8) return undefined;
    // A non-negative first long is the sid alone (the pre-3.5 hello): nothing announced.
    if (arrived.readBigInt64BE(0) >= 0n) return arrived;
    if (arrived.length < 20) return undefined;
    const length = arrived.readInt32BE(16);
    if (arrived.length < 20 + length) return undefined;
    const announced = arrived.subarray(20, 20 + length).toString('utf8');
    const relayed = announced
      .split('|')
      .map((address) => {
        const colon = address.lastIndexOf(':');
        const relay = relayOf.get(Number(address.slice(colon + 1)));
        return relay === undefined ? address : `${address.slice(0, colon)}:${relay}`;
      })
      .join('|');
    const text = Buffer.from(relayed, 'utf8');
    const size = Buffer.alloc(4);
    size.writeInt32BE(text.length);
    return Buffer.concat([arrived.subarray(0, 16), size, text, arrived.subarray(20 + length)]);
  };
}
