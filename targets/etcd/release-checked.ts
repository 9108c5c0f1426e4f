// GOOD for V310 (ORACLES.md row V310): a lease-attached key released by a Txn that deletes it only while its create revision is this holder's, so a holder that outlived its lease deletes nothing of the next holder's.
import { defineTarget } from '../contract.ts';
import { etcd3Slot } from './client.ts';
import { acquireLeasedKey, extendLeasedKey, type LeasedKey } from './leased-key.ts';

const etcd = etcd3Slot();

export default defineTarget({
  description: "etcd3: lease + Txn Create == 0 put acquire; release is a Txn delete on the key's create revision",
  storeKey: (env) => env.key,
  connect: (env) => etcd.connect(env),
  acquire: (env) => acquireLeasedKey(env, etcd.get()),
  async release(env, lease) {
    const held = lease as LeasedKey;
    await env.seam('release:before-delete');
    const done = await etcd
      .get()
      .if(env.key, 'Create', '==', held.revision)
      .then(etcd.get().delete().key(env.key))
      .commit();
    await held.lease.revoke();
    return done.succeeded;
  },
  extend: (env, lease) => extendLeasedKey(env, etcd.get(), lease as LeasedKey),
  close: () => etcd.close(),
});
