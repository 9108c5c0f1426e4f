/**
 * Every fault the harness can land, in one list: the generic ones (./generic/, one file each) and
 * those each store family contributes from its own folder (StoreFamily.faults: a topology's
 * failover, a cluster's held link message). `--explore` takes its points from here (a boundary ×
 * the faults that apply there), and `--help` and the docs list an oracle's faults from here: a
 * fault added in one file shows up everywhere it applies.
 */
import { whyNotApplicable, type Boundary, type BoundaryKind, type ExploreFault, type Fault } from '../core/fault.ts';
import { FAMILIES } from '../families/index.ts';
import { landsItself, type LandableFault, type StoreCutOff } from './landing.ts';
import { cutsOff } from '../families/fault-landing.ts';
import { CLOCK_AHEAD } from './generic/clock-ahead.ts';
import { CLOCK_BACK } from './generic/clock-back.ts';
import { CONNECTION_KILLED } from './generic/connection-killed.ts';
import { DELAY_WRITE } from './generic/delay-write.ts';
import { HOLD_BEFORE } from './generic/hold-before.ts';
import { HOLD_REPLY } from './generic/hold-reply.ts';
import { KILL_AFTER_REPLY } from './generic/kill-after-reply.ts';
import { PARTITION } from './generic/partition.ts';
import { PAUSE } from './generic/pause.ts';
import { REPLY_DROPPED } from './generic/reply-dropped.ts';

const GENERIC: readonly Fault[] = [
  HOLD_BEFORE,
  HOLD_REPLY,
  REPLY_DROPPED,
  CONNECTION_KILLED,
  CLOCK_AHEAD,
  CLOCK_BACK,
  PAUSE,
  DELAY_WRITE,
  PARTITION,
  KILL_AFTER_REPLY,
];

/** Every fault, smallest first (by rank); one several families contribute (a cluster member's) once. */
export const FAULTS: readonly Fault[] = [
  ...new Set([...GENERIC, ...FAMILIES.flatMap((family) => family.faults ?? [])]),
].sort((f, g) => f.rank - g.rank);

/** The fault of that name; a message naming every fault when there is none. */
export function faultNamed(name: ExploreFault): Fault {
  const fault = FAULTS.find((f) => f.name === name);
  if (!fault) throw new Error(`no fault is called "${name}" (known: ${FAULT_ORDER.join(', ')})`);
  return fault;
}

/** The faults that land themselves (`land`): an oracle that names a moment for them runs each with `--fault NAME`. */
export const LANDING_FAULTS: readonly LandableFault[] = FAULTS.filter(landsItself);

/** The stores' own cut-offs (StoreFamily.cutOff: a cluster partitions a holder's node), for an oracle whose moment is "A is cut off". */
export const STORE_CUT_OFFS: readonly StoreCutOff[] = FAULTS.filter(cutsOff);

/** Every fault's name, smallest first: shrinking picks the smallest failing fault. */
export const FAULT_ORDER: readonly ExploreFault[] = FAULTS.map((f) => f.name);

/** A fault in a point's label: "its reply held". */
export const FAULT_WORDS: Readonly<Record<ExploreFault, string>> = Object.fromEntries(
  FAULTS.map((f) => [f.name, f.words]),
);

const ofKind = (kind: BoundaryKind) => FAULTS.filter((f) => f.at.includes(kind)).map((f) => f.name);

/** Which faults a boundary of this kind can take. */
export const FAULTS_BY_KIND: Readonly<Record<BoundaryKind, readonly ExploreFault[]>> = {
  command: ofKind('command'),
  seam: ofKind('seam'),
  effect: ofKind('effect'),
  fs: ofKind('fs'),
  message: ofKind('message'),
};

/** Of `wanted`, the faults that land on this topology at this boundary (none on one server), smallest first. */
export function topologyFaultsAt(
  wanted: readonly ExploreFault[],
  topology: string,
  boundary: Boundary,
): ExploreFault[] {
  if (topology === 'single') return [];
  return FAULTS.filter((f) => wanted.includes(f.name) && whyNotApplicable(f, { topology, boundary }) === undefined).map(
    (f) => f.name,
  );
}

/** The commands besides those on the lock key that `wanted` faults are put at too (WAIT). */
export function alsoCommandsOf(wanted: readonly ExploreFault[]): Set<string> {
  return new Set(FAULTS.filter((f) => wanted.includes(f.name)).flatMap((f) => f.alsoCommands ?? []));
}

/**
 * Whether a point's fault is a topology's, played by that topology's flow (not a stop of A alone, and
 * not a fault that lands itself: a member paused or killed lands from its own file).
 */
export function isTopologyFault(fault: ExploreFault): boolean {
  return FAULTS.some(
    (f) => f.name === fault && f.topologies.some((t) => t !== 'single') && !f.playedByAStop && !landsItself(f),
  );
}
