/** What an oracle declares to be explorable (`explore` in its definition). */
import type { ParamSpecs, ParamValues } from '../core/params.ts';
import type { ReferenceRun } from './reference-run.ts';
import type { StoreKind } from '../stores/types.ts';
import { isMemberTopology, parseTopology, type TopologyKind } from '../stores/topology.ts';
import type { Scenario } from './scenario.ts';
import type { Tracer } from './tracer.ts';
import type { Boundary, ExploreFault } from './explore-point.ts';
import { alsoCommandsOf, FAULT_ORDER, FAULTS_BY_KIND, faultNamed, LANDING_FAULTS } from '../faults/registry.ts';
import { whyNotOn } from '../faults/landing.ts';
import { familyOf } from '../families/index.ts';
import type { BoundaryKind } from '../core/fault.ts';

export interface ExploreSpec<P extends ParamSpecs = ParamSpecs> {
  /** The part of A's run whose boundaries become points ("release", "acquire", "job"). */
  part: string;
  /**
   * Parts explored besides `part` when the trace records them, earlier in A's run (V310 on a file
   * store: A's renewal, which acts by pathname after a check just as its release does).
   */
  also?: readonly string[];
  /** The faults that apply here; each boundary takes those its kind allows (types.ts FAULTS_BY_KIND). */
  faults: readonly ExploreFault[];
  /**
   * The faults of `faults` one boundary takes on this store, where that is fewer than its kind
   * allows (FAULTS_BY_KIND): e.g. V313 cuts A off (partition) only where a lost connection does
   * not end a session lock, and holds no write receipt where a partition lands better.
   */
  faultsAt?(boundary: Boundary, store: StoreKind): readonly ExploreFault[];
  /**
   * Why the faults that land themselves (src/faults/landing.ts: connection-killed, the etcd and
   * ZooKeeper families' own) mean nothing at this exploration's points, when the oracle's moment
   * makes them so (V317: its points are clock steps). Absent: each of them is put at every point
   * where its declaration holds on the run's store (its stores, topologies and boundary kinds),
   * beside the spec's own faults, with no oracle naming one (selfLandingFaultsOn).
   */
  ownFaultsOnly?: string;
  /** Parameters the trace and every point run with: the oracle's flow that arms a point. */
  params: Record<string, string | number>;
  /**
   * What the other holders do, as more points: each parameter's values on this store (V313's
   * --contender: B holds / comes and goes / comes only after A's fault lifts). Every boundary ×
   * fault runs once per combination; `boundary` is the one the points are for (V310: a renewal's
   * boundaries alone take --renewal).
   */
  dimensions?(store: StoreKind, boundary: Boundary): Record<string, readonly string[]>;
  /** Runs A's part alone, once, A behind its wire proxy (`tracer.holder`), each part inside `tracer.part`. */
  trace(s: Scenario, tracer: Tracer, params: ParamValues<P>): Promise<void>;
  /** The part's boundaries that become points (default: every command naming the lock key, every seam and effect). */
  select?(boundaries: readonly Boundary[]): Boundary[];
  /**
   * The boundaries the faults that land themselves are put at, where the moment has them elsewhere
   * than `select`'s (default: `select`'s): V315 picks A's first commands on the lock after its first
   * write, but a leader whose lock is its session sends none there, so its first writes too.
   */
  selectLanding?(boundaries: readonly Boundary[]): Boundary[];
  /**
   * Points at a contender's own boundaries (--contenders 3 or more: B held between its check and
   * its act while C acts): the trace records that contender's part too, and each of its boundaries
   * × these faults becomes a point carrying `holder`. Absent, or `applies` false: A's points only.
   */
  contenders?: {
    holder: string;
    part: string;
    faults: readonly ExploreFault[];
    applies(params: ParamValues<P>): boolean;
    doc: string;
  };
  /**
   * On a topology of several nodes (--topology): the store faults the points are instead of
   * `faults` (each at the boundaries its declaration says it lands at: src/faults/registry.ts), the parameters a point
   * runs with there unless given (a failover takes longer than the default lease), and what a point
   * does, for --help. `select`, if given, narrows the boundaries first. No `dimensions` there: the topology's flow has its own contender. Absent: the
   * oracle explores one server only.
   */
  topology?: {
    faults: readonly ExploreFault[];
    params(kind: TopologyKind): Record<string, string | number>;
    doc: string;
  };
  /** One line for --help: what a point does in this oracle. */
  doc: string;
  /** The good references safe by construction, and the parameters references run with (see exploreReferences). */
  references: ExploreReferences;
}

/** A reference target on the oracle's first store, or on the one named, with parameters of its own if it needs them (--contenders 3). */
export type ExploredTarget =
  string | { target: string; store?: StoreKind; topology?: string; params?: Record<string, string | number> };

export interface ExploreReferences {
  /** Good targets safe by construction (a fence, compare-and-delete in one script, SET NX PX in one command): PASS with 0 failing points. */
  safe: readonly ExploredTarget[];
  /** Bad targets beyond the oracle's own references (e.g. a fixture with no seams), which must FAIL too. */
  alsoBad?: readonly ExploredTarget[];
  /** Parameters every explored reference runs with (V310: a longer --ttl). */
  params?: Record<string, string | number>;
}

/**
 * The references --explore must settle with no variant, hold or seam parameter
 * (test/explore-oracles.test.ts, test/explored/explore-V3xx.test.ts): every bad target among the oracle's own references (FAIL, or a
 * knownBad PASS: a bad target one schedule misses), once per store and without the parameters that
 * pointed its plain run at the window (but its `exploredWith`; its --topology kept: a failover is
 * explored there), plus `alsoBad`, must FAIL; every `safe` one must PASS.
 */
export function exploreReferences(oracle: {
  references: readonly ReferenceRun[];
  explore?: { references: ExploreReferences };
}): ReferenceRun[] {
  const spec = oracle.explore?.references;
  if (!spec) return [];
  const asRun = (t: ExploredTarget, expect: 'PASS' | 'FAIL'): ReferenceRun => {
    const { params, ...where } = typeof t === 'string' ? { target: t } : t;
    const all = { ...spec.params, ...params };
    return { ...where, expect, ...(Object.keys(all).length ? { params: all } : {}) };
  };
  const bad = [
    ...oracle.references
      .filter((r) => (r.expect === 'FAIL' || r.knownBad !== undefined) && r.notExplored === undefined)
      .map((r) =>
        r.store || r.exploredWith || r.topology
          ? {
              target: r.target,
              ...(r.store ? { store: r.store } : {}),
              ...(r.topology ? { topology: r.topology } : {}),
              ...(r.exploredWith ? { params: r.exploredWith } : {}),
            }
          : r.target,
      ),
    ...(spec.alsoBad ?? []),
  ];
  const seen = new Set<string>();
  const once = (r: ReferenceRun) => {
    const k = `${r.target}|${r.store ?? ''}|${r.topology ?? ''}|${JSON.stringify(r.params ?? {})}`;
    return !seen.has(k) && seen.add(k);
  };
  return [...bad.map((t) => asRun(t, 'FAIL')), ...spec.safe.map((t) => asRun(t, 'PASS'))].filter(once);
}

export function defaultSelect(boundaries: readonly Boundary[]): Boundary[] {
  return boundaries.filter((b) => (b.kind !== 'command' && b.kind !== 'fs') || b.onKey === true);
}

/** The boundaries a topology's faults are put at: every command on the lock key, seam and write, and the commands they name (WAIT). */
export function topologyBoundaries(wanted: readonly ExploreFault[], boundaries: readonly Boundary[]): Boundary[] {
  const also = alsoCommandsOf(wanted);
  return boundaries.filter((b) => defaultSelect([b]).length > 0 || (b.kind === 'command' && also.has(b.name)));
}

const WIRE_BOUNDARIES: readonly BoundaryKind[] = ['command', 'seam', 'effect'];

/**
 * The faults an oracle's --explore lands on one store, by where: on one server (each boundary kind
 * A's run shows on that store's family × the faults the oracle takes there), then on each topology
 * the family's own faults name (`redis --topology redlock`). From the fault registry, for --help
 * and the docs: a fault a family adds shows up on every oracle that names it.
 */
export function faultsOnStore(spec: ExploreSpec, store: StoreKind): Array<{ where: string; faults: ExploreFault[] }> {
  const family = familyOf(store);
  const single = new Set(
    (family.boundaryKinds ?? WIRE_BOUNDARIES).flatMap((kind) =>
      pointFaultsAt(spec, anyBoundaryOf(kind), store).filter((f) => FAULTS_BY_KIND[kind].includes(f)),
    ),
  );
  // A member topology is started by its own store's family (etcd:N with --store etcd): a fault both families declare is listed under each store's own.
  const topologies = [...new Set((family.faults ?? []).flatMap((f) => f.topologies))].filter(
    (t) => t !== 'single' && (!isMemberTopology(parseTopology(t)) || t === store),
  );
  return [
    { where: store, faults: FAULT_ORDER.filter((f) => single.has(f)) },
    ...topologies.map((topology) => ({
      where: `${store} --topology ${topology}`,
      faults: FAULT_ORDER.filter(
        (f) => spec.topology?.faults.includes(f) === true && faultNamed(f).topologies.includes(topology),
      ),
    })),
  ].filter((line) => line.faults.length > 0);
}

/**
 * The faults a boundary takes on one server, smallest first: the spec's (its faultsAt, else its
 * faults) and the faults that land themselves on this store (selfLandingFaultsOn).
 */
export function pointFaultsAt(spec: ExploreSpec, boundary: Boundary, store: StoreKind): ExploreFault[] {
  const own = spec.faultsAt?.(boundary, store) ?? spec.faults;
  const landing = selfLandingFaultsOn(spec, store);
  // Smallest first (FAULT_ORDER), as shrinking reads it: a point's run order is its place in the minimal-schedule order.
  if (!landing.length) return [...own];
  const all = new Set([...own, ...landing]);
  return FAULT_ORDER.filter((f) => all.has(f));
}

/**
 * The faults that land themselves which --explore puts at this oracle's points on one server of
 * `store`: every one the registry holds whose declaration says it lands there (its stores, one
 * server), unless the oracle's moment leaves them no meaning (ownFaultsOnly). Each then goes to
 * the boundaries of the kinds it declares (FAULTS_BY_KIND). A fault a family adds is explored on
 * every oracle with no oracle change.
 */
export function selfLandingFaultsOn(spec: ExploreSpec, store: StoreKind): ExploreFault[] {
  if (spec.ownFaultsOnly !== undefined) return [];
  return LANDING_FAULTS.filter((f) => whyNotOn(f, store, 'single') === undefined).map((f) => f.name);
}

/**
 * Whether the store's clients renew their lease on their own timer (the family's renewsOnOwnTimer:
 * etcd's keepalive stream, ZooKeeper's pings), so a reply held from a holder never lets its lease
 * lapse: a spec's faultsAt cuts such a holder off instead. Data of the family, asked for by oracles
 * that may not import one.
 */
export function renewsOnOwnTimer(store: StoreKind): boolean {
  return familyOf(store).renewsOnOwnTimer === true;
}

/** A boundary of this kind, for a spec's faultsAt, which tells faults apart by the boundary's kind and the store. */
function anyBoundaryOf(kind: BoundaryKind): Boundary {
  return { part: 'any', index: 1, kind, name: kind, nth: 1, text: kind };
}
