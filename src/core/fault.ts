/**
 * A fault as the harness declares it (Jepsen's nemesis): what it is called, what it does, where it
 * lands (the kinds of A's boundaries, the topologies) and when it does not apply. The generic faults
 * are declared in src/faults/, a store family's or a topology's own in its folder (`StoreFamily.faults`);
 * src/faults/registry.ts collects them all, and `--explore`, `--help` and the docs read the registry.
 * A boundary is one place in holder A's run where a fault can land.
 */

/**
 * `fs`: a filesystem call of A's under a file store's directory (src/holder/fs-preload.ts);
 * `message`: a message on a cluster's node-to-node link to or from A's node (src/wire/link-mesh.ts).
 */
export type BoundaryKind = 'command' | 'seam' | 'effect' | 'fs' | 'message';

export interface Boundary {
  /** The part of A's run it belongs to ("acquire", "release", "job"). */
  part: string;
  /** Its position in that part, from 1, counting every recorded boundary. */
  index: number;
  kind: BoundaryKind;
  /** The command name ("EVALSHA", "Query"), the seam's name or the effect's name. */
  name: string;
  /** Which occurrence of `name` (of this kind) in the part it is, from 1: what a point counts to find it again. */
  nth: number;
  /** The command as the proxy saw it ("DEL lock-oracles:V310"), the seam or the effect. */
  text: string;
  /** The proxy connection it went on (commands). */
  connection?: number;
  /** Whether the command names the lock key (commands), or the call is on the lock's path or inside it (fs). */
  onKey?: boolean;
  /**
   * Commands on the lock key (fs: calls on the lock's path): which one of the part's commands on the key it is, from 1. A point
   * finds its command by this position, so a schedule replays on another target (the fixed code:
   * its 1st command of the acquire is a SET … PX … NX where the bad one sent SETNX).
   */
  keyNth?: number;
  /**
   * A link message (kind `message`): its direction, and which message of its type on that direction
   * in the part it is, from 1 (what a point counts to find it again), and A's node (one of its
   * ends: the node A takes its locks through). `name` is the message's `type` field.
   */
  link?: { from: string; to: string; nth: number; aNode: string };
}

/** A fault's name, as `--explore`, schedules and the evidence write it ("hold-reply", "failover"). */
export type ExploreFault = string;

/** Where a point would land, for a fault's not-applicable rule. */
export interface FaultSite {
  /** The topology the run is on ("single": one server). */
  topology: string;
  boundary: Boundary;
}

export interface Fault {
  readonly name: ExploreFault;
  /**
   * How much it changes, smallest first: a hold changes less than a clock step, a step less than a
   * pause of the whole process, a pause less than a kill (shrinking picks the smallest failing fault).
   */
  readonly rank: number;
  /** In a point's label after the boundary: "its reply held". */
  readonly words: string;
  /** What it does, for --help and the docs. */
  readonly doc: string;
  /** The kinds of A's boundaries it lands at. */
  readonly at: readonly BoundaryKind[];
  /** The topologies it lands on ("single": one server). */
  readonly topologies: readonly string[];
  /**
   * Commands not on the lock key it is put at too, on a topology: their reply decides whether A acts
   * on its lock (WAIT: how many replicas have A's writes).
   */
  readonly alsoCommands?: readonly string[];
  /**
   * Put only at the part's first command on the lock key: A's acquire, whose every request (one per
   * master) the fault holds at once, so one point stands for them all.
   */
  readonly firstOnKeyOnly?: true;
  /** On a topology, played by A's own stop at the boundary (as on one server), not by a topology's flow. */
  readonly playedByAStop?: true;
  /** What it did at `boundary` (labelled `at`: "job#2 EVALSHA"), in words, for the verdict's explanation. */
  inWords(boundary: Boundary, at: string): string;
}

/** Why `fault` cannot land at `site`, in words; undefined when it can. */
export function whyNotApplicable(fault: Fault, site: FaultSite): string | undefined {
  const { boundary, topology } = site;
  if (!fault.at.includes(boundary.kind))
    return `${fault.name} lands at ${fault.at.join(' or ')} boundaries, not at ${boundary.kind} ones`;
  if (!fault.topologies.includes(topology))
    return `${fault.name} lands on ${fault.topologies.join(' or ')}, not on ${topology}`;
  if (fault.firstOnKeyOnly && boundary.keyNth !== 1)
    return `${fault.name} lands only at the part's first command on the lock key`;
  return undefined;
}
