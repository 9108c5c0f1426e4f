// BAD for V311 (ORACLES.md row V311, no lease): etcd3's own compare-and-put acquire (Create(key) == 0, then put) with no lease attached, so a holder killed while holding leaves the key forever.
import { randomUUID } from 'node:crypto';
import { defineTarget } from '../contract.ts';
import { etcd3Slot } from './client.ts';

const etcd = etcd3Slot();

export default defineTarget({
  description: 'etcd3: Txn Create(key) == 0 then put, no lease; release by Txn on the create revision',
  storeKey: (env) => env.key,
  connect: (env) => etcd.connect(env),
  async acquire(env) {
    const token = randomUUID();
    const put = await etcd.get().if(env.key, 'Create', '==', 0).then(etcd.get().put(env.key).value(token)).commit();
    if (!put.succeeded) return null;
    await env.seam('acquire:after-set');
    return { token, revision: put.header.revision };
  },
  async release(env, lease) {
    await env.seam('release:before-delete');
    const done = await etcd
      .get()
      .if(env.key, 'Create', '==', String(lease.revision))
      .then(etcd.get().delete().key(env.key))
      .commit();
    return done.succeeded;
  },
  close: () => etcd.close(),
});
