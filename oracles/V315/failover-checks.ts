/**
 * V315 --fault failover's preconditions, pure over what play recorded: A's leader key lived on the
 * master alone when it was SIGKILLed (the failover lost it), and B led on the promoted node while
 * A's lease still lived by the dead master's PTTL — so the failover, not a lapse, let B lead.
 */
import type { Check } from '../../src/core/judgement.ts';
import type { EffectRecord } from '../../src/core/resource.ts';
import { LOST_IN_FAILOVER, lostInFailover, type FailoverLoss } from '../../src/judging/failover-loss.ts';

export const B_LED_INSIDE_A_LEASE = "B led on the promoted node while A's lease still lived";

export const FAILOVER_PRECONDITIONS = [
  {
    name: LOST_IN_FAILOVER,
    checks:
      "--fault failover: the master's replication was held from before A led, the master held A's leader key and no replica did when it was SIGKILLed at A's first write, and a replica was promoted",
  },
  {
    name: B_LED_INSIDE_A_LEASE,
    checks:
      "--fault failover: B's first leader write came after the replica was promoted and before A's lease ran out by the master's PTTL read at the failover (else the lease's lapse, not the failover, let B lead: a longer --ttl)",
  },
];

export function failoverChecks(f: FailoverLoss, bFirst: EffectRecord | undefined): Check[] {
  return [lostInFailover(f), bInsideALease(f, bFirst)];
}

function bInsideALease(f: FailoverLoss, bFirst: EffectRecord | undefined): Check {
  const name = B_LED_INSIDE_A_LEASE;
  if (!bFirst) return { name, held: false, detail: `B made no leader write after ${f.promoted} was promoted` };
  if (f.promotedAt === undefined || f.aLeaseUntil === null)
    return {
      name,
      held: false,
      detail:
        f.aLeaseUntil === null
          ? "the master held no key of A's at the failover, so nothing shows A's lease still lived"
          : 'this run did not record when the replica was promoted',
    };
  const afterPromotion = bFirst.t >= f.promotedAt;
  const inside = afterPromotion && bFirst.t < f.aLeaseUntil;
  return {
    name,
    held: inside,
    detail:
      `B's first leader write (resource #${bFirst.seq}) at ${bFirst.t.toFixed(1)} ms, ${(bFirst.t - f.promotedAt).toFixed(1)} ms after ${f.promoted} was promoted; A's lease live until ${f.aLeaseUntil.toFixed(1)} ms by ${f.killed}'s PTTL` +
      (inside
        ? ''
        : afterPromotion
          ? ": A's lease had lapsed, so its lapse, not the failover, let B lead (a slow failover: a longer --ttl)"
          : ': B wrote before the promotion, so it did not lead on the promoted node'),
  };
}
