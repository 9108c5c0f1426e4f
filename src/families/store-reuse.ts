/**
 * A store family's capability to serve several runs with one started server (issue 35: a server per
 * worker of a batch, a fresh keyspace per run). The family's own code says what the server was like
 * when it started (`baseline`), and brings it back to that after a run (`reset`), verifying it: a
 * reset that cannot show the server is as found says why, and the server is stopped, not reused.
 * Whether a run may borrow a server at all is src/run/store-pool.ts's decision (what the run asks
 * of the store, what its faults did to it).
 */
import type { StartedStore, StoreKind } from '../stores/types.ts';

export interface StoreReuse {
  /** The family's kinds it resets (Postgres, not PgBouncer in front of it: a pooler's server connections outlive a run). */
  readonly kinds: readonly StoreKind[];
  /**
   * How long an idle server is kept for a next run before it is stopped: about as long as idling
   * costs less CPU than a start (docs/benchmarks.md, "pools": both measured per family).
   */
  readonly keepIdleMs: number;
  /** What the reset clears and verifies, in words, for the evidence of a run on a reused server ("no key, script or client left, …"). */
  readonly verifies: string;
  /** How the server was configured when it started, as the reset compares it (taken before its first run). */
  baseline(store: StartedStore): Promise<string>;
  /**
   * Empties the server of everything a run could leave (data, scripts, clients still connected) and
   * checks it against `baseline`: undefined when it is as found, else what was not (in words).
   */
  reset(store: StartedStore, baseline: string): Promise<string | undefined>;
}
