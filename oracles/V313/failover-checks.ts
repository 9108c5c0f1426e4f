/**
 * V313 --variant failover's preconditions and explanation, pure over what scenarios/failover-flow.ts recorded:
 * the master's writes reached no replica (the lock lived on the master alone when it died), a
 * replica was promoted and B took the lock there and wrote.
 */
import { firstLine, type Check } from '../../src/core/judgement.ts';
import type { EffectRecord } from '../../src/core/resource.ts';
import type { Takeover } from '../../src/judging/takeover.ts';
import { fencesAfterFailover, nodesInWords } from '../../src/judging/failover-loss.ts';
import type { FailoverObservation } from '../../scenarios/failover-flow.ts';

export const LOCK_NOT_REPLICATED = "A's lock reached no replica before the master died";
export const B_TOOK_PROMOTED = 'B took the lock on the promoted replica and wrote';
export const B_INSIDE_A_LEASE = "B took the lock while A's lease still lived";

export const FAILOVER_PRECONDITIONS = [
  {
    name: LOCK_NOT_REPLICATED,
    checks:
      "--variant failover: the master's replication stream was held across A's acquire (bytes kept from every replica) and no replica had the lock's key when the master was SIGKILLed",
  },
  {
    name: B_TOOK_PROMOTED,
    checks: '--variant failover: a replica was promoted and B took the lock there and wrote within --timeout',
  },
  {
    name: B_INSIDE_A_LEASE,
    checks:
      "--variant failover, A at its first write: B's first write came before A's lease ran out by the master's PTTL read at the failover (else the lease's lapse let B in, not the failover)",
  },
];

export function failoverChecks(f: FailoverObservation, bFirst: EffectRecord | undefined, timeoutMs: number): Check[] {
  const replicas = f.nodes.filter((n) => n.node !== f.killed);
  const onMaster = f.nodes.find((n) => n.node === f.killed)?.exists ?? false;
  const replicated = replicas.filter((n) => n.exists);
  // A lock A acted on must have been on the master; a lock A refused may be gone already (released).
  const notReplicated = f.heldBytes > 0 && replicas.length > 0 && replicated.length === 0 && (onMaster || !f.aReached);
  const bTook = f.bWrote && bFirst !== undefined && bFirst.t >= f.promotedAt;
  const insideALease = !f.aReached || (f.aLeaseUntil !== null && bTook && bFirst!.t < f.aLeaseUntil);
  return [
    {
      name: LOCK_NOT_REPLICATED,
      held: notReplicated,
      detail:
        `${f.heldBytes} replication byte(s) were kept from the replicas; at the failover: ${nodesInWords(f.nodes)}` +
        (notReplicated ? '' : ": the lock was not on the master alone, so the failover's loss did not land"),
    },
    {
      name: B_TOOK_PROMOTED,
      held: bTook,
      detail: bTook
        ? `${f.how}; B wrote (resource #${bFirst!.seq}) ${(bFirst!.t - f.promotedAt).toFixed(1)} ms after, on its try #${f.bAttempts}`
        : `${f.how}; B did not take the lock and write within ${timeoutMs} ms (${f.bAttempts} attempt(s))`,
    },
    ...(f.aReached && bTook
      ? [
          {
            name: B_INSIDE_A_LEASE,
            held: insideALease,
            detail:
              f.aLeaseUntil === null
                ? 'the master held no key of A at the failover, so nothing shows A still held the lock'
                : `B's first write at ${bFirst!.t.toFixed(1)} ms, A's lease live until ${f.aLeaseUntil.toFixed(1)} ms by the master's PTTL` +
                  (insideALease
                    ? ''
                    : ": A's lease had lapsed, so its lapse, not the failover, let B in (a slow failover: a longer --ttl)"),
          },
        ]
      : []),
  ];
}

/**
 * The explanation of a judged failover run (every precondition held); `at` is the explored
 * boundary A was stopped at (absent: its first write, --variant failover).
 */
export function explainFailover(f: FailoverObservation, takeover: Takeover, at?: string): string {
  const took = at ? `A took the lock and was held at ${at}` : 'A took the lock and wrote';
  const { staleAfter, staleAcceptedAfter, takerFirst, overlapMs } = takeover;
  const accepted = staleAcceptedAfter.length;
  const rejected = staleAfter.length - accepted;
  const lost = `the master (${f.killed}) was SIGKILLed with A's lock on it alone and ${f.promoted} was promoted (${f.how}), so B took the same lock there and wrote.`;
  if (!f.aReached)
    return `A's job ended before its first write (${f.aEnded ? (f.aEnded.ok ? 'it returned' : `it threw: ${firstLine(f.aEnded.error)}`) : 'no outcome'}) while its lock had reached no replica; then ${lost} A never acted on a lock the failover could lose: the helper checked its write reached a replica (WAIT on the same connection) and refused the lock when it had not.`;
  if (accepted)
    return `${took}; then ${lost} A went on writing: ${accepted} write(s) reached the resource after B's first, so two holders acted at once (overlap ${overlapMs.toFixed(1)} ms). ${repeatedToken(takerFirst, staleAcceptedAfter)}`;
  return rejected
    ? `${took}; then ${lost} A tried ${rejected} more write(s) after B's first and the resource rejected each: ${fencesCarried(takerFirst, staleAfter)}, from a counter the failover did not lose.`
    : `${took}; then ${lost} A made no write after B's first.`;
}

/** The fences A's late writes and B's first write carried, in words. */
function fencesCarried(bFirst: EffectRecord | undefined, aAfter: readonly EffectRecord[]): string {
  const aFences = [...new Set(aAfter.map((e) => e.fence).filter((f) => f !== undefined))];
  return `A's carried fence ${aFences.join(', ') || 'none'}, B's first fence ${bFirst?.fence ?? 'none'}`;
}

/** What the fences show: a token handed out again by the promoted master, or no token at all. */
function repeatedToken(bFirst: EffectRecord | undefined, aAfter: readonly EffectRecord[]): string {
  return (
    fencesAfterFailover(bFirst, aAfter) ??
    'A lock on one master with asynchronous replication is lost by a failover: nothing but a check that the lock reached a replica (or a fence from a counter that does not fail over) stops A.'
  );
}
