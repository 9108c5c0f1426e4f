/** V313's parameters, and the faults its --variant names stand for (--fault NAME). */
import { contendersParam } from '../../scenarios/contenders.ts';
import type { ExploreFault } from '../../src/core/fault.ts';
import { landedFaultParam } from '../../src/oracle/landed-fault.ts';

/**
 * --fault NAME: the variants that are only which fault lands after A's first write (or, a fault
 * with its own flow, which fault A and B go through: scenarios/fault-flows.ts).
 */
export const V313_FAULT_RUNS = {
  pause: { variant: 'pause' },
  'pause-in-acquire': { variant: 'pause-in-acquire' },
  'delay-write': { variant: 'delay-write' },
  partition: { variant: 'partition' },
  'master-clock-ahead': { variant: 'quorum', nodeFault: 'clock-ahead' },
  'node-restart': { variant: 'quorum', nodeFault: 'restart' },
  failover: { variant: 'failover' },
} as const satisfies Readonly<Record<ExploreFault, Readonly<Record<string, string>>>>;

/**
 * The fault a --variant stands for: the first --fault entry that sets it (quorum: a master of A's
 * majority faulted, --node-fault saying how, restart-late too); undefined for a variant that is no
 * fault of the registry (renewal-wire, shutdown, staged).
 */
export function faultOfVariant(variant: string): ExploreFault | undefined {
  return Object.entries(V313_FAULT_RUNS).find(([, run]) => run.variant === variant)?.[0];
}

export const v313Params = {
  ttl: { kind: 'ms', default: 300, min: 20, doc: 'lease TTL the target is asked to use' },
  variant: {
    kind: 'choice',
    default: 'pause',
    choices: [
      'pause',
      'renewal-wire',
      'failover',
      'quorum',
      'pause-in-acquire',
      'partition',
      'delay-write',
      'shutdown',
      'staged',
    ],
    doc: "pause: SIGSTOP A after its first write; renewal-wire: hold A's next renewal at its wire proxy (no process stop, no seam); failover (--topology replicated or sentinel): replication held across A's acquire, the master SIGKILLed at A's first write and a replica promoted; quorum (--topology redlock:N): A cut off from a minority of the masters across its acquire (its lock on a bare majority), one master of that majority faulted at A's first write (--node-fault) while B tries inside A's lease; pause-in-acquire (--topology redlock:N): A SIGSTOPped with every master's reply to its acquire in flight, until its keys lapse and B takes the lock; partition: from A's next write on, hold everything A sends and receives (its store connections both ways, its writes on their way to the resource) while A runs; delay-write: hold A's next write on its way to the resource; shutdown: begin A's graceful shutdown (--shutdown) after its first write while its job runs; staged: hold A at its seam write:staged-before-commit after its first write (its next write staged under the lock and unlocked, not yet committed). The variants that are only which fault lands are aliases of --fault NAME (the --fault table: failover is --fault failover, quorum --fault node-restart or master-clock-ahead with --node-fault, pause-in-acquire, partition, delay-write and pause their own names)",
  },
  shutdown: {
    kind: 'choice',
    default: 'close',
    choices: ['close', 'sigterm'],
    doc: "--variant shutdown: how A's shutdown begins; close: the target's own close member is called while the job runs; sigterm: SIGTERM to A's process (the target handles it)",
  },
  nodeFault: {
    kind: 'choice',
    default: 'restart',
    choices: ['restart', 'restart-late', 'clock-ahead'],
    doc: "--variant quorum: what happens to the last master of A's bare majority at A's first write; restart: SHUTDOWN NOSAVE and started again at once, empty; restart-late: the same, but down for 1.25 × --ttl (Redlock's delayed restart); clock-ahead: its wall clock stepped 1.25 × --ttl ahead, so A's key there expires at once",
  },
  contender: {
    kind: 'choice',
    default: 'hold',
    choices: ['hold', 'come-and-go', 'after-lift'],
    doc: "what B does around A's stop; hold: B takes the lock, writes and holds it while A resumes; come-and-go: B takes the lock, writes and releases before A resumes, then a third holder C arrives (Redis); after-lift: B takes the lock only after A's fault lifts (Redis)",
  },
  steps: {
    kind: 'count',
    default: 3,
    min: 2,
    max: 1000,
    doc: "writes the reference jobs make (targets read env.params.steps); renewal-wire: steps × stepMs must outlast the helper's own renewal period, or the job ends before it renews (INCONCLUSIVE)",
  },
  stepMs: {
    kind: 'ms',
    default: 20,
    min: 1,
    doc: 'work between two writes in the reference jobs (env.params.stepMs); see steps',
  },
  timeout: {
    kind: 'ms',
    default: 5000,
    min: 100,
    doc: 'longest wait for any step (A reaching a write, B taking the lock, A finishing)',
  },
  landedFault: landedFaultParam(
    'on A at its first write (A held there), in force until its lease lapsed and B took the lock and wrote, then lifted and A let go (--variant pause)',
  ),
  contenders: {
    ...contendersParam,
    doc: `${contendersParam.doc} (--variant pause, --contender hold; the other schedules keep one successor)`,
  },
} as const;
