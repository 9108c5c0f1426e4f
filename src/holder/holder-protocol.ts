/** The messages between the harness and a holder process (JSON over Node IPC). */
import type {
  ClusterNodeIdentity,
  ClusterPeer,
  EffectDetail,
  EffectReceipt,
  StoreLocation,
} from '../../targets/contract.ts';
import type { ClockCommand } from './clock-protocol.ts';

export type Scalar = string | number | boolean;

export interface HolderInit {
  url: string;
  /** A file store's scratch directory (TargetEnv.dir). */
  dir?: string;
  /** The unix socket where the holder reports its filesystem calls under `dir` (src/holder/fs-boundaries.ts). */
  fsBoundaries?: string;
  key: string;
  ttlMs: number;
  params: Record<string, Scalar>;
  /** A node's process (--store cluster): which node, where it listens, its peers' proxies. */
  node?: ClusterNodeIdentity;
  listen?: { host: string; port: number };
  peers?: ClusterPeer[];
  /** --topology: every master's URL, and the Sentinels with the master's name (TargetEnv.urls, sentinels, masterName). */
  urls?: string[];
  sentinels?: string[];
  masterName?: string;
  /** --topology redlock: a separate server beside the masters, for a fencing counter (TargetEnv.counterUrl). */
  counterUrl?: string;
  /** The fence store's URL, when the target declares one (TargetEnv.fenceUrl). */
  fenceUrl?: string;
}

/** What init answers once the target's connect() returned. */
export interface InitReply {
  /** Where the target says its lock lives (its storeKey member), when it says. */
  storeKey?: StoreLocation;
  /** What storeKey(env) returned when it names no location, and what to return instead (a usage error). */
  storeKeyProblem?: string;
}

/** What a call of `decide` answers: the record the write made (JSON) and whether it replaces the kept one. */
export interface DecideReply {
  replaces: boolean;
  incoming: string;
}

/** What a call returns over the wire. Lease objects stay in the holder; the harness gets an id. */
export interface LeaseSummary {
  leaseId: number;
  token?: string;
  fence?: number;
}

/**
 * When a call began and ended by the holder's own monotonic clock (performance.now()): durations
 * inside one holder without the IPC latency both ways, which a loaded machine stretches.
 */
export interface HolderSpan {
  began?: number;
  ended?: number;
}

export type ToHolder =
  | { t: 'init'; id: number; init: HolderInit }
  | { t: 'call'; id: number; member: string; leaseId?: number; args: Scalar[] }
  | { t: 'effect-reply'; id: number; receipt: EffectReceipt }
  | { t: 'seam-reply'; id: number }
  | { t: 'abort' }
  | { t: 'clock'; id: number; command: ClockCommand }
  | { t: 'close'; id: number }
  /** Begin the target's graceful shutdown (its close member) while it keeps running; answered when close returns. */
  | { t: 'shutdown'; id: number }
  /** A file store: a hold is armed on this holder's filesystem boundaries (each call then waits for the harness), or none is. */
  | { t: 'fs-gate'; wait: boolean };

/**
 * `fsSeq`: a file store's holder's last filesystem report sent before this message (src/holder/fs-channel.ts):
 * the harness handles the message only once it has that report, so the history keeps the holder's order.
 */
export type FromHolder = { fsSeq?: number } & (
  | { t: 'ready'; pid: number; members: string[]; name?: string; description?: string; fenceStore?: 'postgres' }
  | { t: 'load-error'; message: string }
  | ({ t: 'result'; id: number; ok: true; value: unknown } & HolderSpan)
  | ({ t: 'result'; id: number; ok: false; error: string } & HolderSpan)
  /** `at`: the holder's own performance.now() when the target reported the effect. */
  | { t: 'effect'; id: number; name: string; detail: EffectDetail; at?: number }
  | { t: 'seam'; id: number; name: string }
  | { t: 'log'; message: string }
);
