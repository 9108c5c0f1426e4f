/**
 * Exploration's vocabulary. A boundary is one place in holder A's run where a fault can land: a
 * store command A sent (`release#2 EVALSHA`), a seam it reached, an effect it reported (src/core/fault.ts). A
 * point is a boundary and a fault (every fault in src/faults/registry.ts); each point is run as its own scenario and judged by the oracle's own
 * property and preconditions. A schedule is a point written down so it can be replayed.
 */
import type { Verdict } from '../core/judgement.ts';
import type { Boundary, ExploreFault } from '../core/fault.ts';
import { FAULT_WORDS, FAULTS } from '../faults/registry.ts';
import type { StoreKind } from '../stores/types.ts';

export type { Boundary, BoundaryKind, ExploreFault } from '../core/fault.ts';

export interface ExplorePoint {
  boundary: Boundary;
  fault: ExploreFault;
  /** The other holders' schedule, as oracle parameters (V313: { contender: 'come-and-go' }); none when the oracle has one. */
  schedule?: Record<string, string>;
  /** The holder the fault lands on, when not A: a contender (B) at a boundary of its own part (V311's takeover, --contenders 3 or more). */
  holder?: string;
}

/** `release#2 EVALSHA` */
export function boundaryLabel(boundary: Boundary): string {
  const what =
    boundary.kind === 'command'
      ? boundary.name
      : boundary.kind === 'fs' || boundary.kind === 'message'
        ? boundary.text
        : `${boundary.kind} ${boundary.name}`;
  return `${boundary.part}#${boundary.index} ${what}`;
}

export function pointLabel(point: ExplorePoint): string {
  const others = Object.entries(point.schedule ?? {}).map(([k, v]) => `${k} ${v}`);
  const on = point.holder && point.holder !== 'A' ? `${point.holder}'s ` : '';
  return `${on}${boundaryLabel(point.boundary)}, ${FAULT_WORDS[point.fault]}${others.length ? ` [${others.join(', ')}]` : ''}`;
}

/** A point written down: enough to run exactly that schedule again (`replay`). */
export interface Schedule {
  schemaVersion: 1;
  oracle: string;
  /** The target it was found on (replay takes --target to run it elsewhere: the fixed code). */
  target: string;
  store: StoreKind;
  /** The --topology it was found on, when not one server (a failover replays there). */
  topology?: string;
  /** Every oracle parameter the point ran with. */
  params: Record<string, string | number>;
  /** The holder the fault landed on: A, or a contender (B) at a boundary of its own part. */
  holder: string;
  boundary: Boundary;
  fault: ExploreFault;
  /** The command text the boundary matched when it was found (for a reader; matching uses part, name and nth). */
  command: string;
  /** The verdict the point gave when it was found. */
  verdict: Verdict;
}

/** One explored point's outcome, as evidence.json and the table show it. */
export interface ExploredPoint {
  label: string;
  boundary: Boundary;
  fault: ExploreFault;
  /** The other holders' schedule it ran with (oracle parameters), if the oracle has several. */
  schedule?: Record<string, string>;
  /** The holder the fault landed on, when not A (a contender's takeover). */
  holder?: string;
  command: string;
  verdict: Verdict;
  /** Why, in one sentence: the property's detail, or the precondition that did not hold. */
  reason: string;
  /**
   * The run showed this point's fault cannot land there (A already held the lock at that boundary,
   * so P could not enter), in words: the point is left out of the exploration's verdict.
   */
  notApplicable?: string;
  /** It came out INCONCLUSIVE among other points and was played again alone (this is the alone run): the crowded verdict and why. */
  crowded?: string;
  wallMs: number;
  runId: string;
}

/** One fault kind's points in an exploration (src/oracle/fails-by-fault.ts). */
export interface FaultTally {
  fault: ExploreFault;
  /** Points of this fault that ran and were judged (not applicable ones left out). */
  ran: number;
  /** The labels of those that FAILed, in the order they ran. */
  failed: string[];
}

/** What `--explore` adds to the evidence. */
export interface ExplorationRecord {
  /** Every boundary the trace saw in A's run. */
  trace: Boundary[];
  /** The boundaries that became points (the part the oracle stresses). */
  boundaries: number;
  faults: ExploreFault[];
  points: ExploredPoint[];
  /** How many of `points` were left out of the verdict as not applicable (each says why). */
  notApplicable?: number;
  /** Points not run because of --max-points. */
  skipped: string[];
  /** Points not started because an earlier one had failed (--first-fail); all points before it ran. */
  notStarted?: string[];
  verdict: Verdict;
  /** "no violation in 14 schedules (7 boundaries × 2 faults)" or the first failing point in words. */
  summary: string;
  /** The minimal failing point (earliest boundary, smallest fault), when any failed. */
  minimal?: string;
  /** When any point failed: per fault kind, how many judged points ran and which of them FAILed. */
  failsByFault?: FaultTally[];
  jobs: number;
  traceMs: number;
  wallMs: number;
  /**
   * CPU (user + system) the exploring process itself spent from the trace to the last point, in
   * ms: its share beside the holders' and stores' (docs/benchmarks.md, explorespeed).
   */
  harnessCpuMs?: number;
}

/**
 * What the point did to A (or to the contender it lands on), in words: "A's DEL lock:k was held
 * at its wire proxy before it reached the store".
 */
export function pointInWords(point: ExplorePoint): string {
  const words = pointInWordsOfA(point);
  return point.holder && point.holder !== 'A' ? words.replace(/\bA\b/g, point.holder) : words;
}

function pointInWordsOfA(point: ExplorePoint): string {
  const { boundary, fault } = point;
  const at = boundaryLabel(boundary);
  if (boundary.kind === 'seam') return `A was held at its seam ${boundary.name} (${at})`;
  return FAULTS.find((f) => f.name === fault)?.inWords(boundary, at) ?? `A's ${boundary.text} (${at}): ${fault}`;
}
