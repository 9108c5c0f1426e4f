/**
 * A store family as a plug-in: one kind of store (Redis with Valkey, Postgres with PgBouncer; next a
 * filesystem directory, a topology of Redis nodes, a project's own cluster) behind one interface,
 * so oracles name what they need and never a family. A family says:
 * - which store kinds it starts (`recipes`: a local process and, where it has one, a container);
 * - where a lock can live in it and how that is read (`view(store).lock(location)`: who holds it,
 *   live until when by the store's own clock; the probe every oracle judges with);
 * - which commands delete or renew a lock there, as the wire proxy sees them (the boundary observer);
 * - what URL each holder gets (Postgres names the holder's session in pg_locks);
 * - its optional capabilities (Jepsen's optional protocols: session locks, the server's clock),
 *   each absent where the family cannot offer it, which oracles ask for by name.
 * Adding a family is implementing this interface in src/families/<name>/ and listing it in
 * src/families/index.ts (docs/store-families.md is the checklist).
 */
import type { BoundaryKind, Fault } from '../core/fault.ts';
import type { NodeReport, StoreLocation } from '../../targets/contract.ts';
import type { StartedStore, StoreKind, StoreRecipe } from '../stores/types.ts';
import type { CommandPattern, WireCommand } from '../wire/command.ts';
import type { ClusterLayout } from './cluster/cluster-url.ts';
import type { MemberCluster } from '../stores/topology-members.ts';
import type { StoreReuse } from './store-reuse.ts';

/** What the store shows at the lock's location, read by the harness itself (never through a holder). */
export interface LockState {
  /** Where the harness looked, as the evidence shows it: "GET lock.k", "HGET job:k owner", "pg_locks …". */
  where: string;
  exists: boolean;
  /** What the lock holds there (its owner's token or record), or null where the family reads none. */
  value: string | null;
  /**
   * ms the lease has left by the store's own clock: -1 when it has no expiry there, -2 when it does
   * not exist. Where the app writes the lease's end itself (`expiry`), the ms left until that instant
   * by the harness's own clock.
   */
  pttlMs: number;
  /**
   * A lock record the store keeps past its expiry (a lease row whose lease_until has passed): the
   * lock is free by the store's clock (exists false), but only a taker's own check of the expiry can
   * take it over. Its value, and how long ago it lapsed by the store's clock. Absent where the store
   * removes what lapsed (a Redis key) or nothing is there.
   */
  lapsedRecord?: { value: string | null; lapsedMs: number };
  /** The lease's end as the app wrote it (a hash field's expiresField), and the clock it was compared on. */
  expiry?: AppClockExpiry;
  /**
   * The record is there but says "free" (exists false): its owner or expiry field empty, blank or
   * absent, the app's way of clearing a lease (src/families/lease-fields.ts). What was found, for
   * the evidence, in place of "found nothing".
   */
  free?: string;
  /**
   * This read cannot be judged (why, naming the field and what it held): an expiry that is no
   * instant. Its exists/pttlMs are a placeholder (held, no end known); every judgement with such a
   * read in its history is INCONCLUSIVE (src/judging/unreadable-reads.ts), never an ERROR of the run.
   */
  unreadable?: string;
  /**
   * A file lock's inode (null when nothing is there): matched with the inode each holder's own call
   * left at the lock's path, it tells whose call made what is there (src/judging/ownership.ts).
   */
  ino?: number | null;
  /**
   * A kernel lock on a file (a flock lock: src/families/fs/kernel-locks.ts): the granted locks
   * /proc/locks lists on its inode, each with the pid that took it and, named by the scenario
   * that knows the holders' pids, its holder. Empty when the file is there unlocked.
   */
  kernelLocks?: KernelLock[];
}

/** One granted kernel lock on a file, as /proc/locks lists it. */
export interface KernelLock {
  /** FLOCK (flock(2)), POSIX (fcntl F_SETLK), OFDLCK (fcntl F_OFD_SETLK). */
  type: 'FLOCK' | 'POSIX' | 'OFDLCK';
  mode: 'READ' | 'WRITE';
  /** The process that took it, as /proc/locks names it (-1 for an open-file-description lock). */
  pid: number;
  /** The holder that process is, when it is one of the run's holders. */
  holder?: string;
}

/** A lease end the app writes on its own clock (storeKey's expiresField), as the harness read and compared it. */
export interface AppClockExpiry {
  /** The field read. */
  field: string;
  /** What it held (null: no such field). */
  raw: string | null;
  /** The instant it names, epoch ms (null when the field was blank or absent: free, or held no instant: unreadable). */
  atMs: number | null;
  /** The harness's own wall clock (epoch ms, never a holder's skewed one) the instant was compared with, as the read was answered. */
  comparedWithMs: number;
}

/** The harness's own connection to one started store of the family. */
export interface StoreView {
  /** Read the lock's location now. */
  lock(location: StoreLocation): Promise<LockState>;
  /** Optional capability: session locks and the sessions holding them (Postgres advisory locks). */
  readonly sessionLocks?: SessionLocks;
  /**
   * Optional capability: the server's own wall clock, epoch ms, by its own time query (Redis TIME,
   * clock_timestamp(), etcd's Date header), as of when the read resolves.
   */
  clockMs?(): Promise<number>;
  /**
   * Optional capability: close clients' connections from the store's side, as an operator or a
   * failover would (Redis CLIENT KILL, Postgres pg_terminate_backend), picked out by the store-side
   * addresses (`host:port`) of those connections, so no other client is touched.
   */
  killClients?(addresses: readonly string[]): Promise<ClientsKilled>;
  /**
   * Optional capability: the members of a coordination service run as several (--topology etcd:N,
   * zookeeper:N), for the member faults a family declares (a member paused, killed, a leader change).
   */
  readonly members?: MemberCluster;
  close(): Promise<void>;
}

/** Connections the store closed, and the command as run, for the evidence. */
export interface ClientsKilled {
  command: string;
  killed: number;
}

/** A session-scoped lock (Postgres advisory lock) as the store lists it. */
export interface SessionLock {
  /** The server session (backend pid) holding or awaiting it. */
  session: number;
  granted: boolean;
  mode: string;
  /** The lock's key as the store shows it ("classid/objid/objsubid"). */
  key: string;
  /** The holder it belongs to (from the URL the harness gave it), or '' for a session of nobody's. */
  holder: string;
}

/** A client session the store serves, with what it is doing. */
export interface ClientSession {
  session: number;
  holder: string;
  state: string | null;
  waitEventType: string | null;
  query: string;
}

export interface SessionLocks {
  /** Every session lock in the store, granted or awaited. */
  locks(): Promise<SessionLock[]>;
  /** Every client session but the harness's own. */
  sessions(): Promise<ClientSession[]>;
  /** A statement that waits on the server until the gate opens: it really occupies the connection that runs it. */
  gate(): Promise<ServerGate>;
  /** The clients a pooler in front of the store serves (PgBouncer's SHOW CLIENTS); absent without a pooler. */
  poolerClients?(): Promise<Array<{ holder: string; state: string }>>;
}

/** A server-side latch: `sql` waits while the gate is closed. */
export interface ServerGate {
  readonly sql: string;
  close(): Promise<void>;
  open(): Promise<void>;
  /** Open it and end the harness's connection. */
  end(): Promise<void>;
}

/** The commands that act on a lock, as the wire proxy recognises them whatever the client library. */
export interface LockCommands {
  /** A delete of the lock (V310's hold), placed on its key; absent where the family has none. */
  delete?(location: StoreLocation): readonly CommandPattern[];
  /** A renewal of the lease (V313's hold), placed on its key; absent where the family has none. */
  renewal?(location: StoreLocation): readonly CommandPattern[];
  /**
   * Where a command a holder sent takes a lock, as an acquire does (Redis: SET … NX, SETNX, the keys
   * of a script); absent where the family cannot tell. A target with no storeKey has its lock's
   * location inferred from these in its own acquire.
   */
  lockLocations?(command: WireCommand): StoreLocation[];
  /**
   * The value an acquire command writes at each place it takes a lock (`SET k v … NX`: k and v;
   * `HSETNX k f v`; SETNX), or a script's arguments beside the keys it names (`byScript`): matched
   * with the value the harness reads there, it tells whose command wrote (or handed a script) the
   * lock that is there (src/judging/ownership.ts). Absent where the family cannot tell.
   */
  acquireWrites?(command: WireCommand): Array<{ location: StoreLocation; value: string; byScript?: true }>;
  /** Whether a command a holder sent (its text and arguments) acts on the lock at `location`. */
  touches(command: { text: string; args: readonly string[] }, location: StoreLocation): boolean;
}

export interface StoreFamily {
  /** The family's name ("redis", "postgres"). */
  readonly name: string;
  /** How each kind of store it has is started; the first kind is the family's default. */
  readonly recipes: ReadonlyArray<StoreRecipe>;
  /** How the family names a location in the evidence, and whether it can read it (undefined: it can; else why not). */
  describe(location: StoreLocation): string;
  unreadable(location: StoreLocation): string | undefined;
  /**
   * Where the target's storeKey(env) says the lock lives, taken in once as the harness names it
   * everywhere after (probe, boundaries, explore, held commands, evidence), with a line for the
   * evidence when that is not how the target wrote it; a UsageError when the location cannot be in
   * this store. Absent: taken as declared.
   */
  located?(location: StoreLocation, store: StartedStore): { location: StoreLocation; note?: string };
  /**
   * Why the store cannot give a lease of `ttlMs` (etcd: whole seconds, at least its floor), or
   * undefined when it can; the run stops with this as a usage error. Absent: any TTL is fine.
   */
  ttlProblem?(ttlMs: number): string | undefined;
  /** Open the harness's own view of a started store of this family. */
  view(store: StartedStore): StoreView;
  readonly commands: LockCommands;
  /** The URL holder `id` connects with, given the store's (or a wire proxy's) URL. */
  holderUrl(url: string, id: string): string;
  /**
   * Holders may name a script by its digest (Redis EVALSHA): once a run holds commands at a wire
   * proxy, every other holder talks through a pass-through proxy so the bodies are learned.
   */
  readonly scriptsByDigest?: boolean;
  /**
   * The shortest lease the store grants (ZooKeeper: its minSessionTimeout), and why: a run asking a
   * shorter --ttl is refused (a usage error), since the store would silently grant the floor instead.
   * Absent: any TTL.
   */
  readonly leaseFloor?: { ms: number; why: string };
  /**
   * Its clients keep their lease alive on their own timer, on a stream of their own (etcd's
   * LeaseKeepAlive, ZooKeeper's pings): a reply held from a holder does not stop its renewals, so
   * holding one never lets its lease lapse. An exploration lands no held reply there: it cuts the
   * holder off (a partition) instead. Absent: a held reply can outlast the lease (Redis, Postgres).
   */
  readonly renewsOnOwnTimer?: true;
  /**
   * A holder cut off from the store (its connections held both ways, not closed: a partition) loses
   * its lock once its lease lapses in the store, on the store's own clock (a Redis key's PX, an etcd
   * lease, a ZooKeeper session): an exploration cuts A off at its points. Absent where a held
   * connection keeps its session and the lock with it (a Postgres session or transaction lock: B
   * could never take it), or where A has no store connection to cut (a file store; a cluster's
   * own nodes, whose faults are on their links).
   */
  readonly lapsesWhenCutOff?: true;
  /**
   * The harness sees in the store itself when a lease lapsed or its holder let go (the lock's key
   * gone, its PTTL counting down), so a scenario may wait for either before the next holder comes
   * (V313's --contender come-and-go and after-lift). Absent: the harness reads no lapse there.
   */
  readonly showsLeaseLapse?: true;
  /**
   * Optional: how this family's clients say they lost their connection or session to the store
   * ("CONNECTION_LOSS", kazoo's connect timeout). A target call that throws one where nothing in the
   * scenario touched that holder's connection makes the run INCONCLUSIVE, not ERROR: a CPU-starved
   * client on a loaded machine loses a sub-second session, which says nothing of the lock
   * (src/run/stages/connection-lost.ts). Absent: every unprovoked throw is the target's (ERROR).
   */
  readonly connectionLost?: RegExp;
  /**
   * The client libraries whose import shows a target talks to this family (src/run/store-choice.ts),
   * by the target's language: npm packages; Python modules; Java packages; Go import paths. A
   * library names its submodules, classes and subpackages too (`org.apache.curator` covers
   * `org.apache.curator.framework.CuratorFramework`).
   */
  readonly clients: Readonly<Record<TargetLanguage, readonly string[]>>;
  /** A file store's directory, handed to every holder as env.dir; absent where locks are not files. */
  holderDir?(store: StartedStore): string;
  /**
   * The faults only this family's stores or topologies can suffer (a cluster's link messages held,
   * a Redis topology's failover): declared in the family's folder, one file each, and collected
   * with the generic ones by src/faults/registry.ts, so `--explore`, `--help` and the docs list them.
   */
  readonly faults?: readonly Fault[];
  /**
   * The kinds of boundary A's run shows on this family's stores, where a fault can land: absent, A
   * talks through a wire proxy (its commands, its seams, its writes); a file store shows filesystem
   * calls instead of commands, a cluster its nodes' link messages.
   */
  readonly boundaryKinds?: readonly BoundaryKind[];
  /**
   * How a holder is cut off from this store while it runs, where the harness does not stand between
   * them on a wire (a cluster: the holder's node partitioned from the others): the name of one of
   * `faults` that cuts off (a StoreCutOff, src/families/fault-landing.ts). Absent: the holder's wire
   * proxy (or, on a file store, its filesystem calls) is where a cut-off lands.
   */
  readonly cutOff?: string;
  /**
   * On whose clock a lease's expiry is compared, when it is not a duration the store counts itself
   * (a Redis PX, an etcd lease, a ZooKeeper session: absent, so only one holder's clock against
   * another's can disagree). `store`: an instant the app writes and the store compares on its own
   * wall clock (Postgres: lease_until > now()), so the store's clock ahead of the holders' moves it;
   * `contender`: no expiry in the store at all, each contender ages the lock on its own clock from
   * when it first saw it (a lock file); `nodes`: the target's own nodes' clocks, the deadline written
   * on one node's and read on another's (a cluster). The clock oracle (V317) picks its legs by it.
   */
  readonly expiryClock?: 'store' | 'contender' | 'nodes';
  /**
   * The store is the target's own nodes (--store cluster): where each listens and keeps its state,
   * and the view that reads a lock through their inspect member. The scenario starts the nodes
   * (src/oracle/cluster-nodes.ts) before any holder connects; `view` above is then unused.
   */
  readonly ownNodes?: OwnNodes;
  /**
   * Optional capability: one started server serves several runs of a batch, one after another, reset
   * and verified between them (src/families/store-reuse.ts, src/run/store-pool.ts). Absent: every
   * run starts its own server.
   */
  readonly reuse?: StoreReuse;
}

/** Asks every live node of a cluster store for its report on `key`, by node id; undefined when the target has no inspect member. */
export type NodeInspector = (key: string) => Promise<Map<string, NodeReport> | undefined>;

export interface OwnNodes {
  layout(url: string): ClusterLayout;
  view(inspect: NodeInspector): StoreView;
}

/** The languages a target is written in (src/holder/holder-language.ts's HolderLanguage). */
export type TargetLanguage = 'node' | 'python' | 'java' | 'go';

/** The kinds a family starts. */
export function kindsOf(family: StoreFamily): StoreKind[] {
  return family.recipes.map((recipe) => recipe.kind);
}
