/**
 * An etcd v3 request as one line, from its RPC and the fields of its message (protobuf-strings.ts,
 * numbered as in etcd's rpc.proto, v3lock.proto, v3election.proto): `KV/Txn if lock.k then put
 * lock.k lease 7587… else range lock.k`, `KV/DeleteRange lock.k`, `Lease/LeaseKeepAlive 7587…`,
 * `Lock/Lock lock.k lease 7587…`, `Election/Resign election/…`. What it names (keys, lease ids)
 * are its arguments. A message of another RPC is its name and what it names.
 */
import type { ProtoField } from './protobuf-strings.ts';

const at = (fields: readonly ProtoField[], path: readonly number[]) =>
  fields.find((f) => f.path.length === path.length && f.path.every((n, i) => n === path[i]))?.value;

/** A Txn branch's RequestOps (rpc.proto): 1 range, 2 put (key 1, lease 3), 3 delete_range, each's key its field 1. */
function ops(fields: readonly ProtoField[], branch: number): string[] {
  const words: string[] = [];
  const opNames: Record<number, string> = { 1: 'range', 2: 'put', 3: 'delete' };
  fields.forEach((f, i) => {
    const name = opNames[f.path[1]!];
    if (f.path.length !== 3 || f.path[0] !== branch || f.path[2] !== 1 || !name) return;
    // A put's lease is the field 3 that follows its key (and value) in the same op.
    const lease =
      f.path[1] === 2 ? fields.slice(i + 1, i + 4).find((g) => g.path.join() === `${branch},2,3`)?.value : undefined;
    words.push(`${name} ${f.value}${lease && lease !== '0' ? ` lease ${lease}` : ''}`);
  });
  return words;
}

/** The line a request shows as, after its RPC's name. */
export function etcdRequestText(rpc: string, fields: readonly ProtoField[]): string {
  switch (rpc) {
    case 'KV/Txn': {
      // Compare (field 1): key 3; success 2, failure 3.
      const compared = fields.filter((f) => f.path.length === 2 && f.path[0] === 1 && f.path[1] === 3);
      const then = ops(fields, 2);
      const otherwise = ops(fields, 3);
      return [
        compared.length ? `if ${compared.map((f) => f.value).join(', ')}` : '',
        then.length ? `then ${then.join(', ')}` : '',
        otherwise.length ? `else ${otherwise.join(', ')}` : '',
      ]
        .filter(Boolean)
        .join(' ');
    }
    case 'KV/Put': {
      const lease = at(fields, [3]);
      return `${at(fields, [1]) ?? ''}${lease && lease !== '0' ? ` lease ${lease}` : ''}`;
    }
    case 'KV/Range':
    case 'KV/DeleteRange':
    case 'Lease/LeaseKeepAlive':
    case 'Lease/LeaseRevoke':
    case 'Lease/LeaseTimeToLive':
    case 'Lock/Unlock':
      return at(fields, [1]) ?? '';
    case 'Lease/LeaseGrant':
      return `ttl ${at(fields, [1]) ?? '?'}s`;
    case 'Lock/Lock':
    case 'Election/Campaign':
      return `${at(fields, [1]) ?? ''} lease ${at(fields, [2]) ?? '?'}`;
    case 'Election/Resign':
    case 'Election/Proclaim':
      // LeaderKey (field 1): name 1, key 2, lease 4.
      return `${at(fields, [1, 2]) ?? at(fields, [1, 1]) ?? ''}`;
    default:
      return fields
        .map((f) => f.value)
        .filter((v) => v.length <= 60)
        .join(' ');
  }
}
