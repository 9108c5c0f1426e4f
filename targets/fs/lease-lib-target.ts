/**
 * A lock-shape target on the lease-file library (lease-lib.ts), bound through its public API only:
 * one LeaseFile per holder process, its handle kept for renew and release. The library never says
 * what it writes as owner, so the token reported is the handle's own id, as a user binding it would
 * report it: the harness finds whose record the file holds from the holders' own calls. Shared by
 * lease-lib-by-path.ts and lease-lib-fenced.ts, which differ only by the library's `fenced`. Not a target itself.
 */
import { defineTarget, type Target, type TargetEnv } from '../contract.ts';
import { LeaseFile, type Lease } from './lease-lib.ts';
import { leaseFile, leaseLocation } from './lease-record.ts';

export function leaseLibTarget(options: { fenced: boolean }, description: string): Target {
  let library: LeaseFile | undefined;
  const leases = new Map<string, Lease>();
  const open = (env: TargetEnv) => (library ??= new LeaseFile(leaseFile(env).path, env.ttlMs, options));
  return defineTarget({
    description,
    storeKey: leaseLocation,
    async acquire(env) {
      const lease = await open(env).acquire();
      if (!lease) return null;
      leases.set(lease.id, lease);
      return { token: lease.id };
    },
    async extend(_env, lease) {
      return (await leases.get(String(lease.token))?.renew()) ?? false;
    },
    async release(_env, lease) {
      return (await leases.get(String(lease.token))?.release()) ?? false;
    },
  });
}
