/**
 * A lease record kept in an etcd key, as apps that want "a lock with an expiry" write one: the key
 * holds `{ owner, expiresAt }` with expiresAt = the writer's Date.now() + TTL. Where it expires is
 * the guard (V317): `expiryOn: 'holder-clock'` puts the key with no etcd lease and a contender
 * takes it over (a compare-and-put on the mod revision it read) once expiresAt is below its own
 * Date.now(), so the expiry is written on one holder's clock and compared on another's;
 * `'etcd-lease'` attaches the key to an etcd lease of the TTL (not kept alive: the record lasts
 * one TTL, as the other's does) and a contender takes it only once etcd removed it, so only the
 * member's lease clock counts. Not a reference by itself: lease-record-*.ts bind it.
 */
import { randomUUID } from 'node:crypto';
import type { Target, TargetEnv } from '../contract.ts';
import { etcd3Slot, ttlSeconds } from './client.ts';

export type ExpiryOn = 'holder-clock' | 'etcd-lease';

/** A taken lease: the token, and the mod revision of our put (a release deletes only the record we wrote). */
type RecordLease = { token: string; revision: string };

export function leaseRecordTarget(expiryOn: ExpiryOn, description: string): Target {
  const etcd = etcd3Slot();
  const put = async (env: TargetEnv, token: string, ifModRevision: string | null): Promise<RecordLease | null> => {
    const client = etcd.get();
    const record = JSON.stringify({ owner: token, expiresAt: Date.now() + env.ttlMs });
    const leaseId =
      expiryOn === 'etcd-lease' ? await client.lease(ttlSeconds(env), { autoKeepAlive: false }).grant() : undefined;
    const write = leaseId ? client.put(env.key).value(record).lease(leaseId) : client.put(env.key).value(record);
    const done = await (
      ifModRevision === null ? client.if(env.key, 'Create', '==', 0) : client.if(env.key, 'Mod', '==', ifModRevision)
    )
      .then(write)
      .commit();
    if (!done.succeeded) {
      if (leaseId) await client.leaseClient.leaseRevoke({ ID: leaseId });
      return null;
    }
    return { token, revision: done.header.revision };
  };
  return {
    description,
    storeKey: (env) => env.key,
    connect: (env) => etcd.connect(env),
    async acquire(env) {
      const token = randomUUID();
      const [seen] = (await etcd.get().get(env.key).exec()).kvs;
      if (!seen) return put(env, token, null);
      if (expiryOn === 'etcd-lease') return null;
      const { expiresAt } = JSON.parse(seen.value.toString()) as { expiresAt: number };
      return expiresAt < Date.now() ? put(env, token, seen.mod_revision) : null;
    },
    async release(env, lease) {
      const revision = String(lease.revision);
      const done = await etcd.get().if(env.key, 'Mod', '==', revision).then(etcd.get().delete().key(env.key)).commit();
      return done.succeeded;
    },
    close: () => etcd.close(),
  };
}
