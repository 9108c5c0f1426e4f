/** V317's parameters. */
export const v317Params = {
  ttl: { kind: 'ms', default: 1000, min: 100, doc: 'the lease TTL the target is asked to use (env.ttlMs)' },
  skew: { kind: 'ms', default: 5000, min: 1, doc: "how far one side's clock runs ahead of the other" },
  margin: { kind: 'ms', default: 300, min: 1, doc: 'how long after the lease lapses B tries again' },
  variant: {
    kind: 'choice',
    default: 'auto',
    choices: ['auto', 'both', 'holders', 'app-ahead', 'store-ahead', 'a-ahead', 'b-ahead', 'home-ahead', 'home-behind'],
    doc: "which clock runs ahead; both: app-ahead then store-ahead; holders: a-ahead (A's clock alone) then b-ahead (B's alone); auto: by where the store compares a lease's expiry, both where it compares an instant the app wrote on its own clock (Postgres), holders where it counts a duration itself or each contender ages the lock (Redis, Valkey, etcd, ZooKeeper, a lock file), home-ahead on the target's own nodes (--store cluster); home-ahead / home-behind (--store cluster): the key's home node's wall and monotonic clocks skewed ahead of / behind the other nodes' before any lock (its process restarted on them: the skewed counterpart of node-clock-ahead / node-clock-back, which step one node's wall clock at an explored point's message)",
  },
  steppedNode: {
    kind: 'choice',
    default: 'home',
    choices: ['home', 'a-node'],
    doc: "--explore on a cluster (--store cluster): whose wall clock a point steps at its message, the key's home's or A's node's (each a dimension of the points)",
  },
} as const;
