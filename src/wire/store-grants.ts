/**
 * What a coordination service grants a holder, read off the holder's own connection at its wire
 * proxy, with no help from the holder's client: a ZooKeeper session (the ConnectResponse, the first
 * reply on a connection: its id and password, what a second handle attaches with to expire it) and
 * an etcd lease (a `Lease/LeaseGrant` reply: its id, what a LeaseRevoke names). The faults that end
 * a holder's session or lease on the server find it here (src/families/*\/faults/).
 */
import { protoFields } from './protobuf-strings.ts';
import { connectResponse } from './zk-framer.ts';

/** A ZooKeeper session the server granted on one connection. */
export interface SessionGrant {
  kind: 'session';
  connection: number;
  id: bigint;
  password: Buffer;
  timeoutMs: number;
}

/** An etcd lease granted in answer to a LeaseGrant sent on one connection. */
export interface LeaseGrant {
  kind: 'lease';
  connection: number;
  /** The lease id as etcd prints it in decimal (what the view's `lease` and LeaseRevoke name). */
  id: string;
  ttlS: number;
}

export type StoreGrant = SessionGrant | LeaseGrant;

/** The session a ZooKeeper ConnectResponse packet grants, or null (refused, or no ConnectResponse). */
export function sessionGranted(connection: number, packet: Buffer): SessionGrant | null {
  const granted = connectResponse(packet);
  return granted ? { kind: 'session', connection, ...granted } : null;
}

const PADDED = 0x8;

/**
 * The lease an HTTP/2 DATA frame answering a LeaseGrant grants (LeaseGrantResponse: ID is field 2,
 * TTL field 3), or null when the frame holds no whole response message (a message split across
 * frames is not read) or etcd refused the grant (its `error`, field 4).
 */
export function leaseGranted(connection: number, frame: Buffer): LeaseGrant | null {
  if (frame.length < 9) return null;
  const length = frame.readUIntBE(0, 3);
  let payload = frame.subarray(9, 9 + length);
  if (frame[4]! & PADDED) payload = payload.subarray(1, payload.length - (payload[0] ?? 0));
  // The gRPC message prefix: a compressed flag (etcd never compresses) and the message's length.
  if (payload.length < 5 || payload[0] !== 0 || payload.readUInt32BE(1) !== payload.length - 5) return null;
  const fields = protoFields(payload.subarray(5));
  const top = (n: number) => fields?.find((f) => f.path.length === 1 && f.path[0] === n)?.value;
  const id = top(2);
  if (!id || id === '0' || top(4)) return null;
  return { kind: 'lease', connection, id, ttlS: Number(top(3) ?? 0) };
}
