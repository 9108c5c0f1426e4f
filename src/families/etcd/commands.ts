/**
 * The etcd RPCs oracles hold at the wire, as the gRPC framer names them (src/wire/grpc-framer.ts,
 * src/wire/etcd-rpc.ts), whatever the client library: a release of the lock (V310), a renewal of
 * its lease (V313), and where an acquire takes a lock (V310's inferred location).
 */
import type { StoreLocation } from '../../../targets/contract.ts';
import type { CommandPattern, WireCommand } from '../../wire/command.ts';

/**
 * A release: the key deleted (DeleteRange, or a Txn that deletes it), its lease revoked (every
 * key on the lease goes: the holder's wire proxy sees only its own leases), etcd's Unlock of it,
 * or an Election's Resign.
 */
export function etcdRelease(key: string): CommandPattern[] {
  return [
    { command: 'KV/DeleteRange', naming: key },
    { command: 'KV/Txn', text: new RegExp(`\\bdelete ${escape(key)}`) },
    { command: 'Lease/LeaseRevoke' },
    { command: 'Lock/Unlock', naming: key },
    { command: 'Election/Resign', naming: key },
  ];
}

/** A renewal: a keepalive of a lease (a client keeps its lock's lease alive on one stream, a message per renewal). */
export const ETCD_RENEWAL: readonly CommandPattern[] = [{ command: 'Lease/LeaseKeepAlive' }];

/** The RPCs that act on a lease, which hold whatever key the holder attached to it. */
const LEASE_RPCS = /^Lease\/Lease(Grant|Revoke)$/;

export function touchesEtcd(command: { text: string; args: readonly string[] }, key: string): boolean {
  return (
    // A prefix (ending in '/') is touched by any key under it; a key only by itself.
    command.args.some((arg) => arg === key || (key.endsWith('/') && arg.startsWith(key))) ||
    command.text.includes(key) ||
    LEASE_RPCS.test(command.text.split(' ')[0] ?? '')
  );
}

/**
 * Where an acquire takes a lock: a Txn that compares a key and then puts it (npm etcd3's Lock:
 * `Create(key) == 0` then put), etcd's Lock RPC and an Election's Campaign (their name is a
 * prefix: the location `name/`).
 */
export function etcdLockLocations(command: WireCommand): StoreLocation[] {
  if (command.name === 'Lock/Lock' || command.name === 'Election/Campaign') {
    const name = /^\S+ (.+) lease /.exec(command.text)?.[1];
    return name ? [name.endsWith('/') ? name : `${name}/`] : [];
  }
  if (command.name !== 'KV/Txn') return [];
  const compared = /\bif (.+?)(?: then | else |$)/.exec(command.text)?.[1]?.split(', ') ?? [];
  return compared.filter((key) => new RegExp(`\\bthen (?:[^,]*, )*put ${escape(key)}\\b`).test(command.text));
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
