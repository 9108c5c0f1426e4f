// GOOD for V311 (ORACLES.md row V311), lock-no-lease.ts's twin: the same compare-and-put acquire with the key attached to a lease of the run's TTL (kept alive by the client), so a holder killed while holding frees the lock when its lease ends.
import { randomUUID } from 'node:crypto';
import type { Lease as EtcdLease } from 'etcd3';
import { defineTarget } from '../contract.ts';
import { etcd3Slot, ttlSeconds } from './client.ts';

const etcd = etcd3Slot();

export default defineTarget({
  description: 'etcd3: Txn Create(key) == 0 then put on a lease; release by Txn on the create revision, then revoke',
  storeKey: (env) => env.key,
  connect: (env) => etcd.connect(env),
  async acquire(env) {
    const token = randomUUID();
    const lease = etcd.get().lease(ttlSeconds(env));
    const id = await lease.grant();
    const put = await etcd
      .get()
      .if(env.key, 'Create', '==', 0)
      .then(etcd.get().put(env.key).value(token).lease(id))
      .commit();
    if (!put.succeeded) {
      await lease.revoke();
      return null;
    }
    await env.seam('acquire:after-set');
    return { token, lease, revision: put.header.revision };
  },
  async release(env, lease) {
    await env.seam('release:before-delete');
    const done = await etcd
      .get()
      .if(env.key, 'Create', '==', String(lease.revision))
      .then(etcd.get().delete().key(env.key))
      .commit();
    await (lease.lease as EtcdLease).revoke();
    return done.succeeded;
  },
  close: () => etcd.close(),
});
