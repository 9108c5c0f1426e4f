// BAD for V310 (ORACLES.md row V310): a lease-attached key released by a plain delete of the key, with no check that it is still this holder's: a holder that outlived its lease deletes the next holder's lock.
import { defineTarget } from '../contract.ts';
import { etcd3Slot } from './client.ts';
import { acquireLeasedKey, extendLeasedKey, type LeasedKey } from './leased-key.ts';

const etcd = etcd3Slot();

export default defineTarget({
  description: 'etcd3: lease + Txn Create == 0 put acquire; release deletes the key unchecked',
  storeKey: (env) => env.key,
  connect: (env) => etcd.connect(env),
  acquire: (env) => acquireLeasedKey(env, etcd.get()),
  async release(env, lease) {
    const held = lease as LeasedKey;
    await env.seam('release:before-delete');
    const deleted = await etcd.get().delete().key(env.key);
    await held.lease.revoke();
    return Number(deleted.deleted) === 1;
  },
  extend: (env, lease) => extendLeasedKey(env, etcd.get(), lease as LeasedKey),
  close: () => etcd.close(),
});
