/**
 * The harness's own read of a ZooKeeper lock (never through a holder). A location is a lock node's
 * path. Two shapes are read:
 * - the recipe's (ZooKeeper's own lock recipe, Curator's InterProcessMutex, kazoo's Lock): the lock
 *   node is a parent whose sequential children queue for it; the holder is the child with the
 *   lowest sequence number. `value` is that child's path, the token a recipe's acquire returns.
 * - a single node: the path itself is the lock (created or not); `value` is its data.
 * Every child is reported with its sequence number, czxid, ephemeralOwner and whether that session
 * is alive on the server (four-letter `dump`).
 *
 * `pttlMs`: a persistent node never lapses (-1). An ephemeral node lives as long as its owner's
 * session: the server ends the session `timeout` ms after it last heard from it, on a tick
 * boundary. The `cons` word gives each connected session's negotiated timeout and the server's
 * last response to it on its monotonic clock (Java's System.nanoTime, CLOCK_MONOTONIC on Linux,
 * which process.hrtime reads too: the same clock on the same machine), so the session's end is
 * `lastResponse + timeout`. A session no longer connected (its holder killed or cut off) keeps the
 * end last read while it was; one never seen connected is unreadable (src/judging/unreadable-reads.ts).
 */
import type { StoreLocation } from '../../../targets/contract.ts';
import type { LockState } from '../family.ts';
import { connectedSessions, liveSessions } from './four-letter.ts';
import { TICK_MS } from './zk-config.ts';
import { hexId, ZkReads, type NodeRead } from './zk-reads.ts';

/** One node of the lock as read: a queued child, or the single lock node. */
export interface LockNode {
  path: string;
  /** The sequence number ZooKeeper appended to a sequential node's name (its last 10 digits), else null. */
  sequence: number | null;
  czxid: string;
  /** The session owning an ephemeral node ("0x…"), or "0x0" for a persistent one. */
  ephemeralOwner: string;
  /** Whether that session is alive on the server (null for a persistent node). */
  sessionAlive: boolean | null;
}

export interface ZkLockState extends LockState {
  /** The lock's nodes, holder first (the lowest sequence), then the waiters. */
  nodes: LockNode[];
}

/** A lock node's path as a location must name it: absolute, no trailing slash. */
export function lockPath(location: StoreLocation): string | undefined {
  return typeof location === 'string' && location.startsWith('/') && (location === '/' || !location.endsWith('/'))
    ? location
    : undefined;
}

const monotonicMs = (): number => Number(process.hrtime.bigint() / 1_000_000n);

export class ZkView {
  readonly #reads: ZkReads;
  /** Each session's end (server monotonic ms) as last read while it was connected. */
  readonly #sessionEnds = new Map<string, number>();

  /**
   * `port`: the server read (on an ensemble, the leader: its `dump` lists every live session);
   * `consPorts`: the servers whose `cons` gives the connected sessions' ends (an ensemble's
   * running members: a session is connected to one of them). Default: `port` alone.
   */
  constructor(
    private readonly port: number,
    private readonly consPorts: () => readonly number[] = () => [port],
  ) {
    this.#reads = new ZkReads(`127.0.0.1:${port}`);
  }

  async lock(path: string): Promise<Omit<ZkLockState, 'where'>> {
    const [node, children, alive, connected] = await Promise.all([
      this.#reads.node(path),
      this.#reads.children(path),
      liveSessions(this.port),
      Promise.all(this.consPorts().map((port) => connectedSessions(port).catch(() => new Map()))).then(
        (maps) => new Map(maps.flatMap((map) => [...map])),
      ),
    ]);
    const now = monotonicMs();
    for (const [id, session] of connected) this.#sessionEnds.set(id, session.lastResponseMs + session.timeoutMs);
    const described = (childPath: string, read: NodeRead): LockNode => {
      const owner = hexId(read.stat.ephemeralOwner);
      return {
        path: childPath,
        sequence: /(\d{10})$/.test(childPath) ? Number(childPath.slice(-10)) : null,
        czxid: hexId(read.stat.czxid),
        ephemeralOwner: owner,
        sessionAlive: owner === '0x0' ? null : alive.has(owner),
      };
    };
    const queued = await Promise.all(
      (children ?? []).map(async (name) => {
        const childPath = `${path === '/' ? '' : path}/${name}`;
        const read = await this.#reads.node(childPath);
        return read ? { node: described(childPath, read), data: read.data } : null;
      }),
    );
    const nodes = queued
      .filter((entry) => entry !== null)
      .sort((a, b) => (a.node.sequence ?? Infinity) - (b.node.sequence ?? Infinity));
    // The single-node shape: the path itself, when it has no children and is the lock (ephemeral, or holding data).
    const single = node && nodes.length === 0 && (hexId(node.stat.ephemeralOwner) !== '0x0' || node.data.length > 0);
    const holder = nodes[0] ?? (single ? { node: described(path, node), data: node.data } : undefined);
    if (!holder) return { exists: false, value: null, pttlMs: -2, nodes: [] };
    const value = nodes.length ? holder.node.path : holder.data.toString('utf8');
    const all = nodes.length ? nodes.map((entry) => entry.node) : [holder.node];
    const owner = holder.node.ephemeralOwner;
    if (owner === '0x0') return { exists: true, value, pttlMs: -1, nodes: all };
    const end = this.#sessionEnds.get(owner);
    if (end === undefined)
      return {
        exists: true,
        value,
        pttlMs: -1,
        nodes: all,
        unreadable: `the ephemeral node ${holder.node.path}'s session ${owner} was never seen connected by the server's cons word, so its end is unknown`,
      };
    // The server expires sessions on tick boundaries: a live session's end is at most a tick past lastResponse + timeout.
    return { exists: true, value, pttlMs: Math.max(1, Math.round(end + TICK_MS - now)), nodes: all };
  }

  /** The server's wall clock (zk-reads.ts: a probe node's mtime). */
  clockMs(): Promise<number> {
    return this.#reads.clockMs();
  }

  /** The lock's holding node as this server alone has it (its own state): the lowest child, else the node itself if ephemeral or holding data. */
  async holderHere(path: string): Promise<{ exists: boolean; holder?: string; value?: string; owner?: string }> {
    const children = (await this.#reads.children(path)) ?? [];
    const lowest = children
      .filter((name) => /\d{10}$/.test(name))
      .sort((a, b) => Number(a.slice(-10)) - Number(b.slice(-10)))[0];
    const holder = lowest === undefined ? path : `${path === '/' ? '' : path}/${lowest}`;
    const read = await this.#reads.node(holder);
    if (!read) return { exists: false };
    const owner = hexId(read.stat.ephemeralOwner);
    if (lowest === undefined && owner === '0x0' && read.data.length === 0) return { exists: false };
    return { exists: true, holder, value: read.data.toString('utf8'), owner };
  }

  close(): void {
    this.#reads.close();
  }
}
