/**
 * The messages between the harness and a holder process in any language: the holder protocol
 * (docs/holder-protocol.md), one JSON object per line on the holder's fds 3 and 4 (holder-pipes.ts).
 */
import type {
  ClusterNodeIdentity,
  ClusterPeer,
  EffectDetail,
  EffectReceipt,
  StoreLocation,
} from '../../targets/contract.ts';
import type { ClockCommand } from './clock-protocol.ts';

export type Scalar = string | number | boolean;

/** The one protocol version this harness speaks (docs/holder-protocol.md, "Versioning"). */
export const HOLDER_PROTOCOL_VERSION = 1;

/** Why a request failed, stable across languages (docs/holder-protocol.md, "Errors"); `threw` is the member's own error. */
export type HolderErrorCode =
  'threw' | 'no-member' | 'bad-return' | 'unknown-lease' | 'not-ready' | 'unsupported' | 'bad-message';

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

/** What init answers once the target's connect() returned: where the target says its lock lives (its storeKey member, as returned; the harness checks its shape). */
export interface InitReply {
  storeKey?: StoreLocation;
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
 * inside one holder without the pipes' latency both ways, which a loaded machine stretches.
 */
export interface HolderSpan {
  began?: number;
  ended?: number;
}

/** The handshake: the first message a holder sends (docs/holder-protocol.md, section 1). */
export interface HolderHandshake {
  protocol: number;
  language: string;
  runtime: string;
  sdk?: string;
  pid: number;
  members: string[];
  name?: string;
  description?: string;
  fenceStore?: 'postgres';
}

export type ToHolder =
  | { t: 'init'; id: number; init: HolderInit }
  | { t: 'call'; id: number; member: string; leaseId?: number; args: Scalar[] }
  /** `definite`: the resource answered (the receipt); `indefinite`: nobody can say whether the effect happened. */
  | { t: 'effect-reply'; id: number; outcome: 'definite'; receipt: EffectReceipt }
  | { t: 'effect-reply'; id: number; outcome: 'indefinite'; reason: string }
  | { t: 'seam-reply'; id: number }
  | { t: 'abort' }
  | { t: 'clock'; id: number; command: ClockCommand }
  | { t: 'close'; id: number }
  /** Begin the target's graceful shutdown (its close member) while it keeps running; answered when close returns. */
  | { t: 'shutdown'; id: number }
  /** A file store: a hold is armed on this holder's filesystem boundaries (each call then waits for the harness), or none is. */
  | { t: 'fs-gate'; wait: boolean }
  /** The conformance suite's probes, answered by the shim itself (docs/holder-protocol.md, section 5). */
  | { t: 'selftest'; id: number; op: 'effect'; name: string; detail: EffectDetail }
  | { t: 'selftest'; id: number; op: 'seam'; name: string }
  | { t: 'selftest'; id: number; op: 'log' | 'raise'; message: string };

/**
 * `fsSeq`: a file store's holder's last filesystem report sent before this message (src/holder/fs-channel.ts):
 * the harness handles the message only once it has that report, so the history keeps the holder's order.
 */
export type FromHolder = { fsSeq?: number } & (
  | ({ t: 'ready' } & HolderHandshake)
  | { t: 'load-error'; code?: 'load' | 'no-target'; message: string; missing?: string }
  | ({ t: 'result'; id: number; ok: true; value: unknown } & HolderSpan)
  | ({ t: 'result'; id: number; ok: false; error: string; code?: HolderErrorCode } & HolderSpan)
  /** `at`: the holder's own performance.now() when the target reported the effect. */
  | { t: 'effect'; id: number; name: string; detail: EffectDetail; at?: number }
  | { t: 'seam'; id: number; name: string }
  | { t: 'log'; message: string }
);
