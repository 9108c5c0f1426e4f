/**
 * The shortest lease an etcd member started by the harness grants, and what a run's TTL must be:
 * etcd's API counts lease TTLs in whole seconds, and the server raises any TTL under 1.5 × its
 * election timeout (recipe.ts: 150 ms) to that floor, so a lease is a whole number of seconds, at
 * least 1 s. A TTL the holders cannot ask etcd for would make the store's lease differ from the
 * oracle's: a usage error naming the fix.
 */
import { ELECTION_TIMEOUT_MS } from './member-args.ts';

/** The server's own floor, in whole seconds. */
export const LEASE_FLOOR_S = Math.max(1, Math.ceil((1.5 * ELECTION_TIMEOUT_MS) / 1000));

/** Why `ttlMs` cannot be an etcd lease, or undefined when it can. */
export function etcdTtlProblem(ttlMs: number): string | undefined {
  if (ttlMs <= 0) return undefined;
  if (ttlMs < LEASE_FLOOR_S * 1000)
    return `--ttl ${ttlMs} is under etcd's lease floor: the member grants no lease under ${LEASE_FLOOR_S} s (1.5 × its ${ELECTION_TIMEOUT_MS} ms election timeout, in whole seconds). Run with --ttl ${LEASE_FLOOR_S * 1000} or longer.`;
  if (ttlMs % 1000 !== 0)
    return `--ttl ${ttlMs} is no whole number of seconds, and etcd's leases are (its API counts TTLs in seconds). Run with --ttl ${Math.round(ttlMs / 1000) * 1000}.`;
  return undefined;
}
