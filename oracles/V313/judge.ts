/**
 * V313's judgement, a pure function of what play recorded: A makes no accepted write after B's
 * first (in the resource's arrival order), or the resource rejected every such write (a fence).
 * Judged only when every step of the scenario landed (./preconditions.ts) and, with the holding
 * contender, inside B's lease by the store's own clock.
 */
import { nothingProven, type Check, type Judgement } from '../../src/core/judgement.ts';
import type { ParamValues } from '../../src/core/params.ts';
import type { EffectRecord } from '../../src/core/resource.ts';
import { leaseAtWrites, leaseAtWritesInWords } from '../../src/judging/lease-at-write.ts';
import { takeoverCounts, takeoverDetail, takeoverWindow, writesAfterTakeover } from '../../src/judging/takeover.ts';
import type { Recorded } from '../../src/oracle/definition.ts';
import { failoverCannotLand } from '../../scenarios/failover-flow.ts';
import type { AStop, BLease, V313Observations } from './observations.ts';
import type { v313Params } from './params.ts';
import { aLeaseAtShutdown, B_LEASE_LIVE, scenarioChecks, soloWrites } from './preconditions.ts';
import { explainFailover } from './failover-checks.ts';
import { explainAcquireStop, explainQuorum, jobEnd, twoLocksAtWrites } from './quorum-checks.ts';
import { judgeCandidates } from './judge-candidates.ts';

export {
  A_LEASE_AT_SHUTDOWN,
  A_LEASE_LAPSED,
  A_ON_OLD_LEASE,
  A_RAN_ON,
  A_REACHED,
  A_STOPPED_AT_POINT,
  B_CAME_AND_WENT,
  B_LEASE_LIVE,
  B_TOOK_AFTER_LIFT,
  B_TOOK_WHILE_STOPPED,
  B_DENIED_PAST_LEASE,
  B_TOOK_DURING_SHUTDOWN,
  CUT_OFF,
  STAGED_HELD,
  SHUTDOWN_LANDED,
  RENEWAL_HELD,
  V313_PRECONDITIONS,
  WRITES_LEFT,
} from './preconditions.ts';

type Params = ParamValues<typeof v313Params>;

export function judgeV313({ observations: o, effects: all }: Recorded<V313Observations>, p: Params): Judgement {
  const preconditions = scenarioChecks(o, all, p);
  const aloneWrites = soloWrites(o, all);
  // The calibration run (B alone, before A started) is in the evidence but not judged.
  const effects = all.filter((e) => e.seq > o.solo.lastSeq);
  // --contenders 3 or more: every pair of holders is judged (./judge-candidates.ts).
  if (o.contenders) return judgeCandidates(o.contenders, effects, p, preconditions);
  const takeover = writesAfterTakeover(effects, 'A', 'B');
  const { staleAfter: aAfter, staleAcceptedAfter: aAcceptedAfter, overlapMs } = takeover;
  const held = aAcceptedAfter.length === 0;
  // Judged only inside the window the property is about: B's lease still live by the store's
  // clock. A's writes that all arrived after it lapsed could be A's on a lock it re-took.
  if (!held && o.bLease) preconditions.push(bLeaseLive(o.bLease, aAcceptedAfter));
  // A shutdown passes only if it took effect inside A's lease: a lapse the load caused before it
  // hands the lock on whatever the shutdown does, and a job that stops on a lost lock then passes.
  const atShutdown = held && o.shutdown ? aLeaseAtShutdown(o.shutdown, o.aResumed?.job ?? null) : undefined;
  if (atShutdown) preconditions.push(atShutdown);
  // On Redlock masters: only while B's token was on a majority, read before each of A's writes.
  if (!held && (o.quorum || o.acquireStop)) preconditions.push(twoLocksAtWrites(o, aAcceptedAfter));
  const atPoint = o.stop?.kind === 'point' ? o.stop : undefined;
  const cannot = atPoint?.notApplicable ?? failoverCannotLand(atPoint, o.failover, effects);
  return {
    ...(cannot ? { notApplicable: cannot } : {}),
    preconditions,
    counts: {
      ...takeoverCounts(takeover, effects),
      writesWhenRunAlone: aloneWrites,
      ...(o.cTookLock !== undefined
        ? { cTookLock: o.cTookLock ? 1 : 0, cWrites: effects.filter((e) => e.holder === 'C').length }
        : {}),
    },
    property: {
      name: 'no accepted write by A after B acquired',
      held,
      detail: takeoverDetail(takeover, 'holders'),
      offending: aAcceptedAfter,
      ...takeoverWindow(takeover, 'holders'),
    },
    explanation: explain() + inferredWords(o),
  };

  function explain(): string {
    const unproven = nothingProven(preconditions);
    if (unproven) return unproven;
    const accepted = aAcceptedAfter.length;
    const rejected = aAfter.length - accepted;
    if (o.failover) return explainFailover(o.failover, takeover, o.stop?.kind === 'point' ? o.stop.label : undefined);
    if (o.quorum) return explainQuorum(o.quorum, takeover, p.ttl);
    if (o.acquireStop) return explainAcquireStop(o.acquireStop, takeover, jobEnd(o));
    if (o.shutdown) return explainShutdown(o.shutdown.by, held, accepted, rejected, aloneWrites);
    const stopped = stopInWords(o.stop);
    const contention = contentionInWords(p.contender);
    if (!held) {
      return (
        `A took a ${p.ttl} ms lease and wrote, then was ${stopped} ${contention}. ` +
        (p.contender === 'come-and-go'
          ? `When A resumed, with B gone, it went on writing: ${accepted} write(s) reached the resource after B's, so B's whole critical section ran inside A's` +
            (o.cTookLock === false
              ? ', and a third holder C arriving after was denied: A had silently re-taken a lock it had lost. '
              : '. ')
          : `When A resumed it went on writing: ${accepted} write(s) reached the resource after B's, so two holders acted at once (overlap ${overlapMs.toFixed(1)} ms by the resource's clock). `) +
        (sentBeforeTakeover(o.stop)
          ? `A sent its write while it held the lock; it arrived after B's, where no check on A's side can stop it: only a fencing token the resource checks does.`
          : `The helper neither renewed-and-checked its lease before writing (a renewal must fail when the key is missing or not its own) nor carried a fencing token the resource could check.`)
      );
    }
    return rejected
      ? `A, holding a ${p.ttl} ms lease, was ${stopped} ${contention}. When A resumed it tried ${rejected} more write(s) after B's first, but each carried a stale fencing token and the resource rejected it: the fence held.`
      : `A, holding a ${p.ttl} ms lease, was ${stopped} ${contention}. A made no write after B's first, although the job makes ${aloneWrites} writes when it runs alone: it stopped before writing on a lease it had lost.`;
  }
}

function explainShutdown(by: 'close' | 'sigterm', held: boolean, accepted: number, rejected: number, writes: number) {
  const began = `A's graceful shutdown began (${by === 'close' ? 'its close() called' : 'SIGTERM'}) at its first write, while its job of ${writes} writes ran`;
  if (!held)
    return (
      `${began}. A's lease lapsed while the job still ran and B took the lock and wrote; A's job went on: ${accepted} write(s) reached the resource after B's, so two holders acted at once. ` +
      `The shutdown stopped renewing the lock before the running job ended: keep renewing until the job has finished (or stop the job first), or fence its writes.`
    );
  return rejected
    ? `${began}. A tried ${rejected} write(s) after B's first, but each carried a stale fencing token and the resource rejected it: the fence held.`
    : `${began}. A kept its lock until its job ended (B was denied meanwhile, or the job stopped writing), and B wrote only after: no write of A's came after B's.`;
}

/**
 * --contender hold: A's accepted writes after B's first count only while B's lease was live, each
 * judged by B's lock as read in the store just before the harness accepted it.
 */
function bLeaseLive(bLease: BLease, aAcceptedAfter: readonly EffectRecord[]): Check {
  const judged = leaseAtWrites(aAcceptedAfter, bLease.atAWrites, bLease.atFirstWrite);
  return { name: B_LEASE_LIVE, held: judged.some((w) => w.live), detail: leaseAtWritesInWords(judged) };
}

/** A fault that holds A's writes on their way: what A sent while holding the lock can arrive after B's. */
function sentBeforeTakeover(stop: AStop | undefined): boolean {
  if (stop?.kind === 'partition' || stop?.kind === 'delay-write') return true;
  return stop?.kind === 'point' && (stop.fault === 'partition' || stop.fault === 'delay-write');
}

function stopInWords(stop: AStop | undefined): string {
  if (stop?.kind === 'point') return `held at ${stop.label} (${stop.words})`;
  if (stop?.kind === 'renewal-wire' && stop.at) return `held: its renewal's grant kept on ${stop.at}`;
  if (stop?.kind === 'partition' || stop?.kind === 'delay-write') return `cut off (${stop.words})`;
  if (stop?.kind === 'staged') return `held between a staged write and its commit (${stop.words})`;
  if (stop?.kind === 'landed') return `held at its first write while ${stop.words}`;
  return stop?.kind === 'renewal-wire' ? "held at the wire (its renewal kept at A's proxy)" : 'stopped (SIGSTOP)';
}

function contentionInWords(contender: Params['contender']): string {
  if (contender === 'come-and-go')
    return 'until its lease lapsed and B took the lock, wrote and released it (B came and went)';
  if (contender === 'after-lift')
    return 'until its lease lapsed in the store; A resumed and only then B took the lock and wrote';
  return 'until its lease lapsed and B took the lock and wrote';
}

/** " Where the lock lives was inferred …" when the target declared no storeKey and A's job showed it. */
function inferredWords(o: V313Observations): string {
  return o.inferred
    ? ` Where the lock lives was inferred from A's own job (${o.inferred.from}), the target declaring no storeKey.`
    : '';
}
