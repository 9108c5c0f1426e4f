/**
 * The store faults only a topology has, as explored points: each is data (the fault, the
 * topologies it lands on, the boundary kinds it is put at, what it does), so a fault of another
 * topology joins by adding a row here and the scenario step that plays it. On `redlock:N` a
 * master of A's bare majority is restarted empty or has its clock stepped ahead at A's write (the
 * oracle's quorum flow plays it), A is paused at a write after its acquire (A's own stop plays
 * it: only a fence from a counter outside the masters closes that window), and A is paused inside
 * its acquire, every master's reply in flight (at the acquire's first command on the lock key: only
 * a check of the lock's validity before acting closes that one).
 */
import type { TopologyKind } from '../stores/topology.ts';
import { FAULT_ORDER, type Boundary, type BoundaryKind, type ExploreFault } from './explore-point.ts';
import { defaultSelect } from './explore-spec.ts';

export interface TopologyFault {
  fault: ExploreFault;
  /** The topologies it can land on. */
  topologies: readonly TopologyKind[];
  /** The kinds of A's boundaries it is put at. */
  at: readonly BoundaryKind[];
  /**
   * Commands not on the lock key it is put at too: their reply decides whether A acts on its lock
   * (WAIT: how many replicas have A's writes).
   */
  alsoCommands: readonly string[];
  /** What it does at a boundary, for --help and the docs. */
  doc: string;
  /** Played by A's own stop at the boundary (as on one server), not by the oracle's topology flow. */
  aStopOnly?: true;
  /**
   * Put only at the part's first command on the lock key: A's acquire, whose every request (one per
   * master) the fault's flow holds at once, so one point stands for them all.
   */
  firstOnKeyOnly?: true;
}

export const TOPOLOGY_FAULTS: readonly TopologyFault[] = [
  {
    fault: 'failover',
    topologies: ['replicated', 'sentinel'],
    at: ['command', 'effect'],
    alsoCommands: ['WAIT', 'WAITAOF'],
    doc: "the master's replication held across A's job; A stopped at the boundary (a command run on the master with its reply withheld, a write recorded with its receipt withheld); the master SIGKILLed and a replica promoted (REPLICAOF NO ONE, or the Sentinels); A's store traffic held at its proxy until B took the lock on the promoted node and wrote; then A goes on",
  },
  {
    fault: 'node-restart',
    topologies: ['redlock'],
    at: ['effect'],
    alsoCommands: [],
    doc: "A cut off from a minority of the masters across its acquire, so its lock lives on a bare majority; A held at the write (recorded, its receipt withheld); the last master of that majority restarted without persistence (SHUTDOWN NOSAVE, started again at once, empty); B tries for the lock inside A's lease; then A goes on",
  },
  {
    fault: 'master-clock-ahead',
    topologies: ['redlock'],
    at: ['effect'],
    alsoCommands: [],
    doc: "the same bare majority, A held at the write; the last master of that majority has its wall clock stepped 1.25 × --ttl ahead (the clock-offset library), so A's key there expires at once; B tries for the lock inside A's lease; then A goes on",
  },
  {
    fault: 'pause',
    topologies: ['redlock'],
    at: ['effect'],
    alsoCommands: [],
    aStopOnly: true,
    doc: "A stopped (SIGSTOP) at the write's receipt, after its acquire, until its keys lapsed on every master and B took the lock and wrote; then A goes on",
  },
  {
    fault: 'pause-in-acquire',
    topologies: ['redlock'],
    at: ['command'],
    alsoCommands: [],
    firstOnKeyOnly: true,
    doc: "at A's first command on the lock key (its acquire's request to the first master): every master's reply to the acquire kept at A's link to it until each had answered; A stopped (SIGSTOP) and the replies delivered into its stopped sockets; A kept stopped until its keys lapsed and B took the lock and wrote; then A resumes and its acquire returns a quorum whose validity is spent",
  },
];

/** Of the oracle's topology faults, those that land on this topology at this boundary (none on one server), smallest first. */
export function topologyFaultsAt(
  wanted: readonly ExploreFault[],
  topology: TopologyKind,
  boundary: Boundary,
): ExploreFault[] {
  return TOPOLOGY_FAULTS.filter(
    (t) =>
      wanted.includes(t.fault) &&
      t.topologies.includes(topology) &&
      t.at.includes(boundary.kind) &&
      (!t.firstOnKeyOnly || boundary.keyNth === 1),
  )
    .map((t) => t.fault)
    .sort((f, g) => FAULT_ORDER.indexOf(f) - FAULT_ORDER.indexOf(g));
}

/** The boundaries a topology's faults are put at: every command on the lock key, seam and write, and the commands they name (WAIT). */
export function topologyBoundaries(wanted: readonly ExploreFault[], boundaries: readonly Boundary[]): Boundary[] {
  const also = new Set(TOPOLOGY_FAULTS.filter((t) => wanted.includes(t.fault)).flatMap((t) => t.alsoCommands));
  return boundaries.filter((b) => defaultSelect([b]).length > 0 || (b.kind === 'command' && also.has(b.name)));
}

/** Whether a point's fault is a topology's (played by the oracle's topology flow, not a stop of A alone). */
export function isTopologyFault(fault: ExploreFault): boolean {
  return TOPOLOGY_FAULTS.some((t) => t.fault === fault && !t.aStopOnly);
}
