/**
 * A lock as users write it on npm etcd3 when they want the lock's token in the key: a lease of the
 * run's TTL (kept alive by the client), then `Create(key) == 0` → put the holder's token on that
 * lease, in one transaction. Its extend renews the lease once and says whether the key still holds
 * this holder's token. The release is each reference's own: the guard under test.
 */
import { randomUUID } from 'node:crypto';
import type { Etcd3, Lease as EtcdLease } from 'etcd3';
import type { Lease, TargetEnv } from '../contract.ts';
import { ttlSeconds } from './client.ts';

export interface LeasedKey extends Lease {
  token: string;
  lease: EtcdLease;
  /** The key's create revision: the lock's identity (and a fencing token: revisions only grow). */
  revision: number;
}

export async function acquireLeasedKey(env: TargetEnv, client: Etcd3): Promise<LeasedKey | null> {
  const token = randomUUID();
  const lease = client.lease(ttlSeconds(env));
  lease.on('lost', () => env.log('etcd3: the lease was lost'));
  const id = await lease.grant();
  const put = await client.if(env.key, 'Create', '==', 0).then(client.put(env.key).value(token).lease(id)).commit();
  if (!put.succeeded) {
    await lease.revoke();
    return null;
  }
  await env.seam('acquire:after-set');
  return { token, lease, revision: Number(put.header.revision), fence: Number(put.header.revision) };
}

export async function extendLeasedKey(env: TargetEnv, client: Etcd3, held: LeasedKey): Promise<boolean> {
  try {
    await held.lease.keepaliveOnce();
  } catch {
    return false;
  }
  return (await client.get(env.key).string()) === held.token;
}
