/**
 * One run as it passes through the stages of `runOracle` (src/run/run-oracle.ts): the resolved
 * request, the scope its resources are released with, and what the stages found so far. The
 * facts are filled in as the run goes, so a run cut short at its deadline or by a signal still
 * reports what it got to (the store it started, the holders' target, its timings).
 */
import type { Judgement } from '../../core/judgement.ts';
import type { ReadyInfo } from '../../holder/holder.ts';
import type { StartedStore } from '../../stores/types.ts';
import type { RunHolders } from './run-holders.ts';
import type { RunRequest } from './run-request.ts';
import type { ResolvedRequest } from './resolve-request.ts';
import type { StoreReuseRecord } from '../store-pool.ts';
import type { RunScope } from './run-scope.ts';

export interface Run {
  readonly request: RunRequest;
  readonly resolved: ResolvedRequest;
  readonly scope: RunScope;
  readonly holders: RunHolders;
  readonly progress: (message: string) => void;
  /** performance.now() when the run began. */
  readonly began: number;
  /** What the run is doing now, in words: the first thing a deadline's or an interrupt's error names as pending. */
  stage: string;
  /** True once the run ended (its deadline passed, it was interrupted): a stage still going records nothing more. */
  readonly over: () => boolean;
  readonly facts: RunFacts;
}

export interface RunFacts {
  store?: StartedStore;
  /** Whether the store served an earlier run of the batch (src/run/store-pool.ts), and why. */
  storeReuse?: StoreReuseRecord;
  fenceStore?: StartedStore;
  /** What the first holder said once it loaded the target (its name, description, members). */
  readyInfo?: ReadyInfo;
  holdersReadyMs: number;
  scenarioMs: number;
  /** What the oracle's play observed, for its judge (kept in the evidence: the judgement can be re-derived). */
  observations?: unknown;
  judgement?: Judgement;
  /** Why the explored point's fault, landing itself, could not land where it was put (Scenario.pointNotApplicable). */
  pointNotApplicable?: string;
}
