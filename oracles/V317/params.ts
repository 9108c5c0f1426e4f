/** V317's parameters. */
export const v317Params = {
  ttl: { kind: 'ms', default: 1000, min: 100, doc: 'the lease TTL the target is asked to use (env.ttlMs)' },
  skew: { kind: 'ms', default: 5000, min: 1, doc: "how far one side's clock runs ahead of the other" },
  margin: { kind: 'ms', default: 300, min: 1, doc: 'how long after the lease lapses B tries again' },
  variant: {
    kind: 'choice',
    default: 'auto',
    choices: ['auto', 'both', 'holders', 'app-ahead', 'store-ahead', 'a-ahead', 'b-ahead', 'home-ahead', 'home-behind'],
    doc: "which clock runs ahead; both: app-ahead then store-ahead; holders: a-ahead (A's clock alone) then b-ahead (B's alone); auto: both on Postgres, holders on Redis and Valkey, home-ahead on a cluster; home-ahead / home-behind (--store cluster): the key's home node's wall and monotonic clocks ahead of / behind the other nodes'",
  },
  steppedNode: {
    kind: 'choice',
    default: 'home',
    choices: ['home', 'a-node'],
    doc: "--explore on a cluster (--store cluster): whose wall clock a point steps at its message, the key's home's or A's node's (each a dimension of the points)",
  },
} as const;
