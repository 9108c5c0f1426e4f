/** What an oracle declares to be explorable (`explore` in its definition). */
import type { ParamSpecs, ParamValues } from '../params.ts';
import type { ReferenceRun } from '../oracle.ts';
import type { StoreKind } from '../stores/types.ts';
import type { Scenario } from '../../scenarios/scenario.ts';
import type { Tracer } from './tracer.ts';
import type { Boundary, ExploreFault } from './types.ts';

export interface ExploreSpec<P extends ParamSpecs = ParamSpecs> {
  /** The part of A's run whose boundaries become points ("release", "acquire", "job"). */
  part: string;
  /** The faults that apply here; each boundary takes those its kind allows (types.ts FAULTS_BY_KIND). */
  faults: readonly ExploreFault[];
  /** Parameters the trace and every point run with: the oracle's flow that arms a point. */
  params: Record<string, string | number>;
  /**
   * What the other holders do, as more points: each parameter's values on this store (V313's
   * --contender: B holds / comes and goes / comes only after A's fault lifts). Every boundary ×
   * fault runs once per combination.
   */
  dimensions?(store: StoreKind): Record<string, readonly string[]>;
  /** Runs A's part alone, once, A behind its wire proxy (`tracer.holder`), each part inside `tracer.part`. */
  trace(s: Scenario, tracer: Tracer, params: ParamValues<P>): Promise<void>;
  /** The part's boundaries that become points (default: every command naming the lock key, every seam and effect). */
  select?(boundaries: readonly Boundary[]): Boundary[];
  /** One line for --help: what a point does in this oracle. */
  doc: string;
  /**
   * Reference targets explored with no variant, hold or seam parameter (test/explore.test.ts): bad
   * ones must FAIL; good ones safe by construction must PASS with 0 failing points.
   */
  references: ReferenceRun[];
}

export function defaultSelect(boundaries: readonly Boundary[]): Boundary[] {
  return boundaries.filter((b) => b.kind !== 'command' || b.onKey === true);
}
