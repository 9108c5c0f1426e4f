/**
 * What a caller asks of one run (`runOracle`): the oracle, the target, its parameters, where to run
 * it, and the hooks exploration and batches use. The first stage (resolve-request.ts) checks it.
 */
import type { Judgement } from '../../core/judgement.ts';
import type { RuntimeChoice } from '../../families/start-store.ts';
import type { StoreKind } from '../../stores/types.ts';
import type { Scenario } from '../../oracle/scenario.ts';
import type { ExplorePoint } from '../../oracle/explore-point.ts';
import type { PreparedRun } from '../run-ahead.ts';
import type { StorePool } from '../store-pool.ts';

export interface RunRequest {
  oracle: string;
  target: string;
  /** Oracle parameters: raw CLI strings or typed values, by parameter name (camelCase). */
  params?: Record<string, unknown>;
  store?: StoreKind;
  /** Which runtime starts the store (src/families/start-store.ts); default local. */
  runtime?: RuntimeChoice;
  /** Several nodes (--topology replicated[:R] | sentinel[:R] | redlock[:N]); default one server. */
  topology?: string;
  progress?: (message: string) => void;
  /** Longest the run may take, start-up and teardown included; default from the parameters (src/core/params.ts). */
  deadlineMs?: number;
  /** Aborted (with the signal's name as its reason) when the user interrupts: the run stops and says INTERRUPTED. */
  stop?: AbortSignal;
  /** `--explore`: land this point (the oracle arms it at its stressed part). */
  point?: ExplorePoint;
  /** Start only these holders up front (exploration's trace needs A alone); default the oracle's. */
  holders?: readonly string[];
  /** Play this instead of the oracle's scenario (exploration's trace of A alone). */
  play?: (scenario: Scenario, params: Record<string, string | number>) => Promise<Judgement>;
  /** This run's holders, started ahead of it while the batch's runs before it played (src/run/run-ahead.ts's warm pool). */
  prepared?: PreparedRun;
  /** The batch's started servers: the run borrows one where its store allows it (src/run/store-pool.ts), else starts its own. */
  storePool?: StorePool;
  /** Told once this run's first holders are ready, as its scenario is about to play. */
  onHoldersReady?: () => void;
}
