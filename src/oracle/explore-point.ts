/**
 * Exploration's vocabulary. A boundary is one place in holder A's run where a fault can land: a
 * store command A sent (`release#2 EVALSHA`), a seam it reached, an effect it reported. A point is
 * a boundary and a fault; each point is run as its own scenario and judged by the oracle's own
 * property and preconditions. A schedule is a point written down so it can be replayed.
 */
import type { Verdict } from '../core/judgement.ts';
import type { StoreKind } from '../stores/types.ts';

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

/**
 * hold-before: A's command is kept at its wire proxy (or A blocks at its seam) until the other
 * holder has acted; hold-reply: the command ran, its reply (or the effect's receipt) is kept from A
 * until then; reply-dropped: the command ran, its reply is kept from A until the other holder has
 * acted, then A's connection is dropped with the reply in it (the reply is never delivered), so A's
 * client does what it does when a command's reply is lost — ioredis reconnects and re-sends it, by
 * default —, for real; clock-ahead / clock-back: A's wall clock (Date) steps forward / back by the oracle's
 * skew right before A prepares the command (after the reply to its previous command on the lock
 * reached it, or before its part begins for the first), so whatever A computes from its clock for
 * that command and after is off; kill-after-reply: A is SIGKILLed once the reply reached its proxy,
 * before it can send anything else; pause (a write): the write was recorded and A is stopped
 * (SIGSTOP) before its receipt reaches it — the process, its timers and its renewals all stop,
 * where a held receipt leaves A's timers running (a helper that renews on a timer keeps its lease
 * through a held receipt, not through a pause); partition: from this command or write on,
 * everything A sends and receives — its store connections both ways, its writes on their way to the
 * resource — is held while A keeps running, then delivered in order (a helper renewing on its own
 * timer loses its lease: its renewals never reach the store); delay-write (a write): only this
 * write is held on its way to the resource, then delivered, arriving after whatever came
 * meanwhile (src/oracle/partition.ts); hold-message (a message on a cluster's node-to-node link):
 * held at the harness's link proxy until the other holder has acted, the messages behind it on its
 * direction waiting too; pause-node (a link message): A's node is stopped (SIGSTOP) the moment the
 * message reaches the link proxy, then the message goes on (into the stopped node, or from it to its
 * peer) and the node stays stopped until the other holder has acted (src/oracle/arm-link-point.ts);
 * node-clock-ahead / node-clock-back (a link message): the message is held at the link proxy while
 * one node's wall clock (which one, the oracle's parameter says) is stepped ahead or back, then goes
 * on (src/oracle/arm-node-clock-step.ts);
 * failover (a topology of a master and replicas: the store faults of src/oracle/topology-faults.ts): replication held across A's job, A stopped at the
 * boundary (a command's reply, a write's receipt withheld), the master SIGKILLed and a replica
 * promoted, A kept from the store until the contender took the lock there; node-restart and
 * master-clock-ahead (Redlock's independent masters, --topology redlock:N): A's lock won on a bare
 * majority, A held at the write, and the last master of that majority restarted empty
 * (SHUTDOWN NOSAVE, started again at once) or its wall clock stepped ahead past the TTL;
 * pause-in-acquire (Redlock, at the acquire's first command on the lock key): every master's reply
 * to A's acquire kept at A's own link to it until each had answered, A SIGSTOPped and the replies
 * delivered into its stopped sockets, A kept stopped until its keys lapsed and B took the lock and
 * wrote; A resumes and its acquire returns a quorum whose validity is spent.
 */
export type ExploreFault =
  | 'hold-before'
  | 'hold-reply'
  | 'reply-dropped'
  | 'clock-ahead'
  | 'clock-back'
  | 'pause'
  | 'delay-write'
  | 'partition'
  | 'kill-after-reply'
  | 'hold-message'
  | 'pause-node'
  | 'node-clock-ahead'
  | 'node-clock-back'
  | 'failover'
  | 'node-restart'
  | 'master-clock-ahead'
  | 'pause-in-acquire';

/** Smallest first: a hold changes less than a clock step, a step less than a pause of the whole process, a pause less than a kill (shrinking picks the smallest failing fault). */
export const FAULT_ORDER: readonly ExploreFault[] = [
  'hold-before',
  'hold-reply',
  'hold-message',
  'reply-dropped',
  'clock-ahead',
  'clock-back',
  'pause',
  'pause-in-acquire',
  'pause-node',
  'node-clock-ahead',
  'node-clock-back',
  'delay-write',
  'partition',
  'kill-after-reply',
  'master-clock-ahead',
  'node-restart',
  'failover',
];

export const FAULT_WORDS: Record<ExploreFault, string> = {
  'hold-before': 'held before it',
  'hold-reply': 'its reply held',
  'reply-dropped': 'its reply dropped with its connection',
  'clock-ahead': "A's clock stepped ahead before it",
  'clock-back': "A's clock stepped back before it",
  pause: 'A stopped (SIGSTOP) at its receipt',
  'delay-write': 'the write held on its way to the resource',
  partition: 'A cut off from the store and the resource from it on',
  'kill-after-reply': 'SIGKILL after its reply',
  'hold-message': 'held on its link',
  'pause-node': "A's node stopped (SIGSTOP) as it arrived",
  'node-clock-ahead': "a node's wall clock stepped ahead as it arrived",
  'node-clock-back': "a node's wall clock stepped back as it arrived",
  failover: 'the master failed over there',
  'node-restart': 'a master of its majority restarted empty there',
  'master-clock-ahead': 'a master of its majority had its clock stepped ahead there',
  'pause-in-acquire': "A stopped (SIGSTOP) with every master's reply to its acquire in flight",
};

/** Which faults a boundary of this kind can take. */
export const FAULTS_BY_KIND: Record<BoundaryKind, readonly ExploreFault[]> = {
  command: [
    'hold-before',
    'hold-reply',
    'reply-dropped',
    'clock-ahead',
    'clock-back',
    'partition',
    'kill-after-reply',
    'failover',
    'pause-in-acquire',
  ],
  seam: ['hold-before'],
  effect: ['hold-reply', 'pause', 'delay-write', 'partition', 'failover', 'node-restart', 'master-clock-ahead'],
  fs: ['hold-before', 'hold-reply', 'kill-after-reply'],
  message: ['hold-message', 'pause-node', 'node-clock-ahead', 'node-clock-back'],
};

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
  const at = `${boundaryLabel(boundary)}`;
  if (boundary.kind === 'seam') return `A was held at its seam ${boundary.name} (${at})`;
  if (fault === 'pause-node')
    return `A's node ${boundary.link?.aNode ?? ''} was stopped (SIGSTOP) the moment the message ${at} reached the link proxy, then the message went on`;
  if (fault === 'hold-message') return `the message ${at} was held on its link at the harness's proxy`;
  if (fault === 'node-clock-ahead' || fault === 'node-clock-back')
    return `a node's wall clock was stepped ${fault === 'node-clock-ahead' ? 'ahead' : 'back'} the moment the message ${at} reached the link proxy, then the message went on`;
  if (fault === 'partition')
    return `from A's ${boundary.kind === 'effect' ? `write "${boundary.name}"` : boundary.text} (${at}) on, everything A sent and received (its store connections both ways, its writes on their way to the resource) was held while A kept running`;
  if (fault === 'failover')
    return `the master's replication was held across A's job; with A at ${boundary.kind === 'effect' ? `its write "${boundary.name}"` : boundary.text} (${at}: ${boundary.kind === 'effect' ? 'the write recorded, its receipt withheld' : 'the command ran on the master, its reply withheld'}) the master was SIGKILLed and a replica promoted, A's store traffic held until B had taken the lock there and written`;
  if (fault === 'node-restart' || fault === 'master-clock-ahead')
    return `A, cut off from a minority of the masters across its acquire, won its lock on a bare majority; with A held at its write "${boundary.name}" (${at}: the write recorded, its receipt withheld) the last master of that majority was ${fault === 'node-restart' ? 'restarted without persistence (SHUTDOWN NOSAVE, started again at once, empty)' : 'given a wall clock stepped ahead past the TTL'}, and B tried for the lock inside A's lease`;
  if (fault === 'pause-in-acquire')
    return `every master's reply to A's acquire (from its first request on the lock key, ${at}) was kept at A's own link to it until each master had answered; A was stopped (SIGSTOP), the replies delivered into its stopped sockets, and A kept stopped until its keys lapsed and B took the lock and wrote`;
  if (fault === 'delay-write')
    return `A's write "${boundary.name}" (${at}) was held on its way to the resource (A waiting for its receipt, its store traffic flowing)`;
  if (boundary.kind === 'effect') {
    return fault === 'pause'
      ? `A's write "${boundary.name}" (${at}) was recorded and A was stopped (SIGSTOP: its timers and renewals too) before its receipt reached it`
      : `A's write "${boundary.name}" (${at}) was recorded, but its receipt was withheld from A`;
  }
  if (boundary.kind === 'fs') {
    if (fault === 'hold-before') return `A's ${boundary.text} (${at}) was held before it ran`;
    if (fault === 'hold-reply') return `A's ${boundary.text} (${at}) ran, but its result was held from A`;
    return `A was killed (SIGKILL) once its ${boundary.text} (${at}) had run, before its result reached A`;
  }
  switch (fault) {
    case 'hold-before':
      return `A's ${boundary.text} (${at}) was held at its wire proxy before it reached the store`;
    case 'hold-reply':
      return `A's ${boundary.text} (${at}) ran in the store, but its reply was held from A at its wire proxy`;
    case 'reply-dropped':
      return `A's ${boundary.text} (${at}) ran in the store; its reply was held from A at its wire proxy, then dropped with A's connection (reset), never delivered`;
    case 'clock-ahead':
    case 'clock-back':
      return `A's wall clock was stepped ${fault === 'clock-ahead' ? 'ahead' : 'back'} right before A prepared its ${boundary.text} (${at})`;
    case 'pause':
      return `A was stopped (SIGSTOP) at its ${boundary.text} (${at})`;
    case 'kill-after-reply':
      return `A was killed (SIGKILL) the moment the reply to its ${boundary.text} (${at}) reached its wire proxy, before A could send anything else`;
  }
}
