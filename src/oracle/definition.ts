/**
 * What an oracle is: one folder (or file) in oracles/ that declares its parameters, the target
 * members and store capabilities it needs, its preconditions, its reference targets, `play`, which
 * runs the scenario against real stores and processes and returns what it observed, and `judge`, a
 * pure function of those observations (with the run's history and effects) that returns the
 * judgement (src/core/judgement.ts) the engine turns into a verdict. Play, then judge: the judge can
 * be tested on recorded observations with no store and no process (test/judges/).
 */
import type { ParamSpecs, ParamValues } from '../core/params.ts';
import type { StoreKind, StoreRequest } from '../stores/types.ts';
import type { TargetMember } from '../../targets/contract.ts';
import type { Scenario } from './scenario.ts';
import type { ExploreSpec } from './explore-spec.ts';
import type { ReferenceRun } from './reference-run.ts';
import type { Judgement } from '../core/judgement.ts';
import type { HistoryEvent } from '../core/history.ts';
import type { EffectRecord } from '../core/resource.ts';
import { withUnreadableReads } from '../judging/unreadable-reads.ts';

/** A precondition an oracle's judge checks, declared: its name (the judgement's Check carries it) and what it checks. */
export interface DeclaredCheck {
  name: string;
  /** What must hold for the run to prove anything, in a sentence (--help, the docs and the README show it). */
  checks: string;
}

/** What a judge is given: what play observed, and the run's history and effects as the evidence records them. */
export interface Recorded<O> {
  observations: O;
  history: readonly HistoryEvent[];
  effects: readonly EffectRecord[];
}

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
  /** --topology the mutant runs on, as its good target's reference does. */
  topology?: string;
}

export interface OracleDefinition<P extends ParamSpecs = ParamSpecs, O = unknown> {
  id: string;
  title: string;
  /** The suspect class in the scanner's words (e.g. "LK-1 release without an owner check"). */
  class: string;
  /** The scenario, in a sentence or two. */
  scenario: string;
  /** What PASS means. */
  property: string;
  /**
   * Every precondition the judge may report, by name: a run where one did not hold proved nothing
   * (INCONCLUSIVE). The engine refuses a judgement that names one not declared here.
   */
  preconditions?: DeclaredCheck[];
  /** Stores it runs on; the first is the default (`--store` picks another). */
  stores: StoreKind[];
  /** Holder names the scenario uses; their processes start while the store starts. */
  holders: string[];
  /**
   * Holders the scenario needs only after the others have played a while (V310: B and C once A
   * holds the lock and is stopped): the scenario begins once the others have loaded, and these
   * load while it plays (started after the others on an idle machine, so those have a core to
   * themselves; at once on a busy one, src/run/stages/start-holders.ts); `s.holder(id)` awaits them where they
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
  /**
   * `--fault NAME` on a plain run: each fault of the registry (src/faults/registry.ts) the oracle's
   * scenario can land, and the parameters that land it (the variant that was its name before, which
   * keeps working: `--fault failover` is `--variant failover`).
   */
  faultRuns?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /**
   * Runs the scenario and returns what it observed, JSON-serialisable (the evidence keeps it, so a
   * run's judgement can be re-derived from its report). Without `judge` (an oracle not yet split,
   * issue 22), play returns the judgement itself.
   */
  play(scenario: Scenario, params: ParamValues<P>): Promise<O>;
  /** The verdict's reasons, from what play observed: a pure function, no store, no process, no clock. */
  judge?(recorded: Recorded<O>, params: ParamValues<P>): Judgement;
}

/** Identity helper that types an oracle definition from its parameter specs and observations. */
export function defineOracle<P extends ParamSpecs, O = unknown>(
  definition: OracleDefinition<P, O>,
): OracleDefinition<P, O> {
  return definition;
}

/**
 * Turns what `play` returned into the judgement: the oracle's judge on it, or (an oracle not yet
 * split) play's own judgement. Refuses a precondition the definition does not declare, so the docs
 * generated from the declarations cannot drift from what the judge reports. A read of the lock the
 * harness could not judge makes any oracle's judgement INCONCLUSIVE (../judging/unreadable-reads.ts).
 */
export function judgeRun<O>(
  oracle: OracleDefinition<ParamSpecs, O>,
  recorded: Recorded<O>,
  params: ParamValues<ParamSpecs>,
): Judgement {
  const judgement = oracle.judge ? oracle.judge(recorded, params) : (recorded.observations as unknown as Judgement);
  if (oracle.preconditions) {
    const declared = new Set(oracle.preconditions.map((check) => check.name));
    const undeclared = judgement.preconditions.filter((check) => !declared.has(check.name)).map((check) => check.name);
    if (undeclared.length)
      throw new Error(
        `${oracle.id}'s judge reported undeclared precondition(s) ${JSON.stringify(undeclared)}: add them to its definition's preconditions`,
      );
  }
  return withUnreadableReads(judgement, recorded.history);
}
