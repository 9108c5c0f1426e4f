/**
 * What an oracle is: one file in oracles/ that declares its parameters, the target members and
 * stores it needs, its reference targets, and `play`, which runs the scenario and returns a
 * judgement (src/core/judgement.ts), which the engine turns into a verdict.
 */
import type { ParamSpecs, ParamValues } from '../core/params.ts';
import type { StoreKind, StoreRequest } from '../stores/types.ts';
import type { TargetMember } from '../../targets/contract.ts';
import type { Scenario } from './scenario.ts';
import type { ExploreSpec } from './explore-spec.ts';
import type { ReferenceRun } from './reference-run.ts';
import type { Judgement } from '../core/judgement.ts';

/**
 * A good reference with its guard removed, which the oracle must FAIL (`lock-oracles selfcheck`):
 * proof that the scenario can see the bug class it is about. The mutant is made from the good
 * target by exact text substitutions, each of which must occur exactly once in it.
 */
export interface Mutation {
  /** The good target it is made from (one of this oracle's PASS references). */
  of: string;
  /** The guard removed, in words ("the compare dropped from compare-and-delete"). */
  guard: string;
  /** [text in the good target, what it becomes]. */
  edits: Array<[string, string]>;
  params?: Record<string, string | number>;
  store?: StoreKind;
}

export interface OracleDefinition<P extends ParamSpecs = ParamSpecs> {
  id: string;
  title: string;
  /** The suspect class in the scanner's words (e.g. "LK-1 release without an owner check"). */
  class: string;
  /** The scenario, in a sentence or two. */
  scenario: string;
  /** What PASS means. */
  property: string;
  /** Stores it runs on; the first is the default (`--store` picks another). */
  stores: StoreKind[];
  /** Holder names the scenario uses; their processes start while the store starts. */
  holders: string[];
  /**
   * Holders the scenario needs only after the others have played a while (V310: B and C once A
   * holds the lock and is stopped): the scenario begins once the others have loaded, and these
   * load while it plays (started after the others on an idle machine, so those have a core to
   * themselves; at once on a busy one, src/run/run-oracle.ts); `s.holder(id)` awaits them where they
   * are needed. Await them where a late holder only delays the scenario, never where
   * the time it takes could eat into a window the oracle judges.
   */
  later?: string[];
  params: P;
  /** Target members the scenario calls, for these parameters. */
  needs(params: ParamValues<P>): TargetMember[];
  /** Checks across parameters (e.g. the pause must outlast the TTL); returns error messages. */
  validate?(params: ParamValues<P>): string[];
  /**
   * The default --deadline when the waited parameters do not tell it (e.g. simulated days, whose
   * real length is the target's timers, not a parameter); default: a minute plus three times the
   * oracle's waited ms parameters.
   */
  deadlineMs?(params: ParamValues<P>): number;
  /** The store to start, when more than its kind matters (e.g. PgBouncer's pool mode). */
  storeRequest?(params: ParamValues<P>, kind: StoreKind): StoreRequest;
  references: ReferenceRun[];
  /** Good references with their guard removed, each of which must FAIL (selfcheck). */
  mutations?: Mutation[];
  /** `--explore`: how this oracle's schedules are searched (src/explore/); absent when it cannot be. */
  explore?: ExploreSpec<P>;
  play(scenario: Scenario, params: ParamValues<P>): Promise<Judgement>;
}

/** Identity helper that types an oracle definition from its parameter specs. */
export function defineOracle<P extends ParamSpecs>(definition: OracleDefinition<P>): OracleDefinition<P> {
  return definition;
}
