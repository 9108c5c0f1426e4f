/**
 * The target contract: how a project's own lock helper is bound to the harness.
 *
 * A target is a module whose default export is a `Target` (wrap it in `defineTarget` for types).
 * Each holder is a separate OS process that imports the module once, so module-level variables
 * (your clients) belong to that holder alone. The harness calls `connect` first with the scratch
 * store's URL; build your own client there with your real library (ioredis, node-redis, pg,
 * redlock, ...). Then the oracle calls the members it needs. An oracle that needs a member the
 * target lacks stops before starting anything, naming the member.
 *
 * Shapes:
 * - lock shape: `acquire` / `release` / `extend` (V310, V311).
 * - pooled lock shape: `acquire` / `release` plus `query`, one statement through the same client or
 *   pool the lock uses, standing for the rest of the application's traffic (V314).
 * - job shape: `job` does the project's work under its own lock and reports every protected side
 *   effect through `env.effect` (V312, V313).
 * - leader shape: `leader` runs a leader loop until `env.signal` aborts (V315).
 * - timeout shape: `timeout` runs an operation guarded by the project's timeout (V316).
 * - writer shape: `write` / `read` update and read one record (V318); or, for a pure
 *   last-write-wins function, `decide` (and optionally `stamp`) while the harness keeps the record
 *   (V318 --writer decide).
 * - schedule shape: `schedule` starts the replica's scheduler (V319).
 *
 * When a member throws. A throw is the target's own error — the run ends as ERROR naming the
 * holder, the member and the error — wherever nothing in the scenario gave it a reason: before any
 * fault touched that holder, with no other holder able to hold the lock. `acquire` says "denied" by
 * returning null, never by throwing (a throw is ERROR everywhere), and members with nothing to refuse
 * them (`connect`, `query`, `write`, `read`, `stamp`, `decide`, `schedule`, `timeout` before it
 * reported its timeout) are ERROR whenever they throw. A throw is an answer only where the lock can
 * say no or the fault broke the call, as helpers do ("not the owner", "lock lost", withLock's
 * "resource locked"):
 * - `release` / `extend` on a lease that may be lost: extend's throw counts as "not extended"; a
 *   release's throw as "it may never have reached the store" (V310: INCONCLUSIVE); on a lease the
 *   store still shows as this holder's, the throw is an error again (ERROR).
 * - `job` once it asked for a lock another holder may hold (V312: a command on the lock seen at its
 *   wire proxy; V313: a try while the other holder's lease may live), or after the fault (its lease
 *   lapsed): the job ended, its effects are judged. A job run alone on a free lock may not throw.
 * - `leader` once its connection was cut (V315), or once env.signal aborted; a replica waiting to
 *   lead keeps waiting and retrying, it does not throw.
 * Each oracle's doc header says which of its calls are which.
 */

/** What the harness hands every member. */
export interface TargetEnv {
  /** The scratch store's URL (redis://127.0.0.1:PORT or postgres://...); always loopback (file://<dir> on --store fs). */
  readonly url: string;
  /**
   * On a file store (--store fs): the scratch directory's absolute path. Build your lock paths under
   * it (`join(env.dir!, env.key + '.lock')`); the harness reads them there. Undefined on other stores.
   */
  readonly dir?: string;
  /**
   * With --topology: every master's URL (redlock:N gives N, one per independent master; replicated
   * and sentinel give the one front door, which a failover redirects to the promoted replica). On a
   * single server: undefined (use `url`).
   */
  readonly urls?: readonly string[];
  /** With --topology sentinel: the Sentinels' URLs and the name they watch the master by (ioredis `sentinels`/`name`). */
  readonly sentinels?: readonly string[];
  readonly masterName?: string;
  /**
   * With --topology redlock: a separate server that is not one of the masters (no node fault touches
   * it), for a fencing counter: a counter kept on the masters themselves is no fence (a master
   * restarted empty forgets it, and another majority need not include the node that counted).
   */
  readonly counterUrl?: string;
  /**
   * When the target declares `fenceStore`: a second scratch store's URL (postgres://… on loopback),
   * started beside the lock's store, for fencing tokens from a counter that does not fail over with
   * the lock (a sequence). Undefined otherwise.
   */
  readonly fenceUrl?: string;
  /** This holder's identity ("A", "B", ...); in a node's process (--store cluster), the process's own id. */
  readonly holder: string;
  /**
   * In a node's process (--store cluster, the `node` member): which node it is. Undefined in a
   * holder, which reaches its node at `env.url`.
   */
  readonly node?: ClusterNodeIdentity;
  /** In a node's process: where to listen, on loopback (its holders and its peers' proxies connect here). */
  readonly listen?: { readonly host: string; readonly port: number };
  /** In a node's process: every other node, at the address of the harness's proxy for that link (never the peer's own port). */
  readonly peers?: ReadonlyArray<ClusterPeer>;
  /** The lock key / lock name the oracle wants you to use. The harness inspects it in the store. */
  readonly key: string;
  /** The lease TTL the oracle wants, in milliseconds. */
  readonly ttlMs: number;
  /** Every oracle parameter, for targets that need more (e.g. `steps`, `stepMs`). */
  readonly params: Readonly<Record<string, string | number | boolean>>;
  /** Aborted when the harness asks a long-running member (job, leader, schedule) to stop. */
  readonly signal: AbortSignal;
  /**
   * Report one protected side effect to the harness's resource and wait for its receipt.
   * Pass the fencing token your lock gave you as `fence`: the resource then rejects a token
   * older than the newest it has seen, as a fenced store would. The harness may hold the
   * reply (that is a latch: your holder really blocks here).
   */
  effect(name: string, detail?: EffectDetail): Promise<EffectReceipt>;
  /**
   * A named point in your helper where the harness may hold this holder (a latch).
   * Well-known names: "acquire:after-set" (after the command that created the key, before any
   * other command), "release:before-delete" (right before the command that deletes the key),
   * STAGED_WRITE_SEAM "write:staged-before-commit" (a write staged under the lock and unlocked, right
   * before its commit: V313 --variant staged holds A there).
   * Returns at once when the oracle does not hold that seam.
   */
  seam(name: string): Promise<void>;
  /** A line in the run's history, attributed to this holder. */
  log(message: string): void;
}

export interface EffectDetail {
  /** The fencing token this write carries; the resource rejects one older than the newest seen. */
  fence?: number;
  /** Any JSON value worth seeing in the evidence. */
  value?: unknown;
}

export interface EffectReceipt {
  /** False when the resource rejected the effect (a stale fencing token). */
  accepted: boolean;
  /** The order in which the resource received it (1, 2, ...), across all holders. */
  seq: number;
  /** Why it was rejected, when it was. */
  reason?: string;
}

/**
 * What `acquire` returns when it got the lock: anything your release/extend need (it stays in the
 * holder process), plus optional fields the harness reads for evidence: `token` (the value stored
 * under the key, compared against the store) and `fence` (a fencing token).
 * Return `null` (or `false`) when the lock was denied.
 */
export interface Lease {
  token?: string;
  fence?: number;
  [other: string]: unknown;
}

/**
 * Where a Redis lock lives in the store, when that is not simply the key `env.key`: another key
 * (libraries prefix the name: `lock.<name>`, `mutex:<name>`), or one field of a hash (a job record's
 * `owner` field, HashField). The harness reads it (GET, or HGET of the field; PTTL of the key) to
 * see who holds the lock and how long it has left, and its wire holds pick out commands naming this key.
 * On etcd (--store etcd) a string is a key, or, ending in `/`, a prefix whose oldest key (lowest
 * create revision) holds the lock: etcd's Lock RPC, concurrency.Mutex and Election, etcd3's Election.
 */
export type StoreLocation = string | HashField | LeaseRow | FileLock;

/**
 * A lock kept in one field of a Redis hash: `{ key: 'job:' + env.key, field: 'lockId' }`. Its
 * lease ends when the hash key's PTTL runs out, or, where the app writes the end itself on its own
 * clock, at the instant in `expiresField` (ms since the epoch, or an ISO 8601 string):
 * `{ key, field: 'lockId', expiresField: 'lockExpiresAt' }`. The harness then compares that instant
 * with its own clock (never a holder's skewed one) and the evidence shows both. An owner or expiry
 * field that is empty, blank or absent is the app saying "free" (a queue clearing its claim with
 * `HSET job:k lockId '' lockExpiresAt ''`): no lease is held, and the evidence says what the field
 * held. An expiry that holds something else than an instant makes the run INCONCLUSIVE, naming it.
 */
export interface HashField {
  key: string;
  field: string;
  /** The hash field holding the instant the lease ends, on the app's clock (epoch ms or ISO 8601). */
  expiresField?: string;
}

/**
 * Where a file lock lives in a file store (--store fs): a path (a file or a directory) relative to
 * env.dir or absolute under it (`./`, `..` inside env.dir and a trailing slash are fine: the harness
 * names the lock by its resolved path relative to env.dir, as the holders' calls show it; a path
 * outside env.dir is a usage error). The harness reads it itself (lstat, and the content of a file): a
 * plain string location on that store names such a path too. A file has no store-side expiry; the
 * library's staleness rule, when declared, says how long the lock has left:
 * `{ path: env.key + '.lock', owner: 'owner', staleMs: env.ttlMs }`.
 */
export interface FileLock {
  path: string;
  /** A directory lock's owner record: a file inside it (relative to it, or absolute) whose content is the lock's value (its token). */
  owner?: string;
  /** The library's stale time: the lock counts as live until its mtime + staleMs (absent: it never expires). */
  staleMs?: number;
  /**
   * A lease file holding a JSON record (`{ ownerId, expiresAt }`): the field whose value is the
   * lock's value (its owner's token) and, when the record carries one, the field with its expiry
   * (epoch ms or ISO 8601, on the writer's clock): the lock then lives until that time, read on this
   * machine's. Either field empty, blank, null or absent is the app's "free": no lease is held.
   */
  record?: { owner: string; expiresAt?: string };
  /**
   * The lock is a kernel lock on this file (flock(2), or an fcntl/OFD lock), as Python's filelock
   * takes it: held while /proc/locks lists one on the file's inode, whatever the file's existence
   * says (such a library leaves its lock file behind). The evidence names the pid holding it and
   * the holder that pid is: `{ path: env.key + '.lock', flock: true }`.
   */
  flock?: boolean;
}

/**
 * Where a lease lives in a Postgres store: one row of the target's own table, found by its key
 * column, with the `timestamptz` column the lease runs until. The harness reads
 * `<expiresColumn> - now()` there, on the database's own clock, to see how long the lease has left
 * (V315 and V313 judge A's writes only while B's lease is live). E.g.
 * `storeKey: (env) => ({ table: 'leases', keyColumn: 'name', key: env.key, expiresColumn: 'lease_until', ownerColumn: 'owner' })`.
 */
export interface LeaseRow {
  table: string;
  keyColumn: string;
  key: string;
  expiresColumn: string;
  /**
   * The column naming the row's holder, compared with the lease's `token` (V310: B's row still B's
   * after A's release; V311: the row a killed holder left still its). Absent: the owner is not read.
   * A NULL or blank owner, like a NULL expiresColumn, is the app's "free": no lease is held.
   */
  ownerColumn?: string;
}

/** A node of a project's own cluster (--store cluster): its position, its id, and a directory for its state. */
export interface ClusterNodeIdentity {
  readonly index: number;
  /** "n1", "n2", ... */
  readonly id: string;
  /** The node's own directory: what it keeps across a restart lives here ("keeps-state"), or is wiped ("loses-state"). */
  readonly stateDir: string;
}

export interface ClusterPeer {
  readonly index: number;
  readonly id: string;
  readonly host: string;
  readonly port: number;
}

/** What the `node` member declares once its node listens: how its links are framed and what the harness may look for on them. */
export interface NodeDeclaration {
  /** How a node-to-node message is framed: one JSON value per line, a 4-byte big-endian length then JSON, or WebSocket frames (after the HTTP upgrade; a text frame's payload is JSON). */
  framing: 'ndjson' | 'length-prefixed' | 'websocket';
  /** What a restart of this node keeps: its stateDir as it was, or nothing (the harness wipes it). Default loses-state. */
  restart?: 'keeps-state' | 'loses-state';
  /**
   * The fields of the message that grants (or renews) a node's hold on a lock, e.g. { type: 'grant' }:
   * V313 --variant renewal-wire holds the next one sent to A's node after A's first write.
   */
  grant?: Record<string, unknown>;
}

/**
 * What a node says it knows of lock `key` (the `inspect` member, asked in each node's process):
 * the key's home, and where this node is that home, who holds it and how long that hold has left
 * by this node's own clock. The harness reads the home's answer as the store's view of the lock.
 */
export interface NodeReport {
  /** The node id that arbitrates `key` (its home), as this node computes it. */
  home: string;
  /** Where this node is the home: the node its live grant is to, or null when none is live. */
  holder?: string | null;
  /** The live grant's token, or null. */
  token?: string | null;
  /** ms the live grant has left by this node's own (monotonic) clock. */
  remainingMs?: number;
}

/** A value the schedule member returns so the harness can stop the replica's scheduler. */
export interface ScheduleHandle {
  stop(): void | Promise<void>;
}

export interface Target {
  /** Shown in reports. Defaults to the file name. */
  name?: string;
  /** One line: what this binding does (shown in reports and `list`). */
  description?: string;
  /** Build your clients from `env.url`. Called once per holder, before anything else. */
  connect?(env: TargetEnv): Promise<void> | void;
  /**
   * A second scratch store the harness starts beside the lock's own (`'postgres'`), handed to every
   * member as `env.fenceUrl`: where fencing tokens come from when they must not fail over with the
   * lock (`SELECT nextval(…)` on a sequence), so a failover of the lock's store cannot hand a token out twice.
   */
  fenceStore?: 'postgres';
  /**
   * Where your lock lives in a Redis store, when not under `env.key` itself: e.g.
   * `storeKey: (env) => 'lock.' + env.key`, or `(env) => ({ key: 'job:' + env.key, field: 'owner' })`
   * for a lock kept in a hash field (with `expiresField` where the app writes its lease's end there). The value found there is compared with the lease's `token`.
   * Without it the harness looks at `env.key`; when it finds nothing there while your holder holds
   * the lock, the oracle says so (INCONCLUSIVE) instead of judging a key nobody writes.
   * On Postgres, a lease kept in a row of your own table: `{ table, keyColumn, key, expiresColumn }`
   * (LeaseRow); without it a V315 or V313 FAIL on Postgres cannot be shown inside B's lease (INCONCLUSIVE).
   */
  storeKey?(env: TargetEnv): StoreLocation;
  /** Try once to take the lock `env.key` for `env.ttlMs`. Lease when taken, null/false when denied. */
  acquire?(env: TargetEnv): Promise<Lease | null | false>;
  /** Release a lease this holder took. */
  release?(env: TargetEnv, lease: Lease): Promise<unknown>;
  /** Extend a lease by `ttlMs`; true when the store confirmed the extension. */
  extend?(env: TargetEnv, lease: Lease, ttlMs: number): Promise<boolean>;
  /**
   * Run `sql` (one statement, no parameters) through the same client or pool your lock helper
   * uses, the way the rest of your application shares it; resolve when it has completed. V314 runs
   * it while you hold the lock and keeps it waiting on the server, so it occupies one pooled
   * connection while your release runs.
   */
  query?(env: TargetEnv, sql: string): Promise<void>;
  /** Run the project's job once under its own lock; report each side effect with `env.effect`. */
  job?(env: TargetEnv): Promise<void>;
  /** Run the leader loop until `env.signal` aborts; report each leader write with `env.effect`. */
  leader?(env: TargetEnv): Promise<void>;
  /** Run one operation guarded by the project's timeout; call `env.effect("timeout")` when it fires. */
  timeout?(env: TargetEnv): Promise<void>;
  /** Write `value` to the record under test, the way the project resolves conflicting writes. */
  write?(env: TargetEnv, value: string): Promise<void>;
  /** Read the record under test back (for the harness's verdict). */
  read?(env: TargetEnv): Promise<string | null>;
  /**
   * Pure writer shape: the record a write of `value` makes, built in this writer's process (so on
   * its own clock) after reading the current record `existing` (null: none yet). JSON values only.
   * Default: `{ value, updatedAt: Date.now() }`.
   */
  stamp?(env: TargetEnv, value: string, existing: unknown): unknown;
  /**
   * Pure writer shape: whether `incoming` replaces `existing` (null: no record yet) — your
   * conflict resolution, e.g. `incoming.updatedAt > existing.updatedAt`. The harness keeps the
   * record and asks this in the writer's process, on the writer's clock.
   */
  decide?(incoming: unknown, existing: unknown): boolean | Promise<boolean>;
  /** Start the replica's scheduler; report each fire with `env.effect("fire")`. */
  schedule?(env: TargetEnv): Promise<ScheduleHandle>;
  /**
   * --store cluster: run one node of the project's own service in this process. Listen on
   * `env.listen`, reach the other nodes only at `env.peers` (the harness's proxies), keep state
   * under `env.node.stateDir`, and resolve once listening with how the links are framed. The node
   * runs until the process ends; holders reach it at their `env.url`.
   */
  node?(env: TargetEnv): Promise<NodeDeclaration>;
  /** --store cluster: what this node knows of lock `key` (asked in every node's process; see NodeReport). */
  inspect?(env: TargetEnv, key: string): Promise<NodeReport> | NodeReport;
  /**
   * Close your clients. Called when the holder is done (not after a SIGKILL). It is also your
   * worker's graceful shutdown: V313 `--variant shutdown` calls it while a job still runs, as a
   * deploy stops a worker (`--shutdown sigterm` sends SIGTERM instead, for a target that handles it
   * with `process.once('SIGTERM', ...)`), and judges the job's writes as usual; do there what your
   * worker's shutdown does (stop taking work, wait for the running job, stop renewals, quit
   * clients). Once called so, the holder's final close waits for that call instead of calling it again.
   */
  close?(env: TargetEnv): Promise<void> | void;
}

/** The members an oracle can require. */
export type TargetMember = Exclude<
  keyof Target,
  'name' | 'description' | 'connect' | 'storeKey' | 'close' | 'fenceStore'
>;

/** Identity helper that gives a target object its types. */
/** The seam between a write staged under the lock (then unlocked) and its commit: V313 --variant staged holds A there. */
export const STAGED_WRITE_SEAM = 'write:staged-before-commit';

export function defineTarget<T extends Target>(target: T): T {
  return target;
}
