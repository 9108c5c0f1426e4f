/** V310's parameters. */
export const v310Params = {
  ttl: { kind: 'ms', default: 200, min: 20, doc: 'lock TTL the target is asked to use' },
  variant: {
    kind: 'choice',
    default: 'pause',
    choices: ['pause', 'narrow', 'failover'],
    doc: "pause: SIGSTOP A before its release; narrow: hold A inside its release, after its check, before its delete; failover (--topology replicated or sentinel): replication held across A's acquire, the master SIGKILLed and a replica promoted, B takes the lock there while A's lease lives, then A releases",
  },
  hold: {
    kind: 'choice',
    default: 'wire',
    choices: ['wire', 'seam', 'partition'],
    doc: 'narrow: where A is held; wire: its delete command (DEL/UNLINK/deleting script) at its wire proxy, no target change; seam: env.seam("release:before-delete"); partition: from its delete on, everything A sends and receives held at its wire proxy while A keeps running (its own renewals cut off too: a lock that renews itself lapses)',
  },
  renewal: {
    kind: 'choice',
    default: 'stalls',
    choices: ['stalls', 'across-release'],
    doc: "--explore on a file store, a point in A's renewal: stalls: A's renewal is held there until its lease lapses and B takes the lock, then A's renewal and release go on; across-release: A releases while its renewal is held there, then B takes the lock and A's renewal goes on",
  },
  timeout: { kind: 'ms', default: 5000, min: 100, doc: 'longest wait for any step' },
} as const;
