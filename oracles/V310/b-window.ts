/**
 * V310's window: B's lease, from B's acquire until its TTL ran out (or the PTTL read right after B
 * acquired, when later). Which of B's own answers on its lease count: a refusal the store
 * contradicts (B's lock still there after A's release, by its token or B's own call) is B's own, and one answered after B's
 * lease could have lapsed proves nothing about A's release. Pure functions of what play recorded:
 * the judge decides with them, and play notes in the history the answers they leave out.
 */
import type { Check } from '../../src/core/judgement.ts';
import type { BSide, LockReading, V310Observations } from './observations.ts';
import { bIdentified, ownerIn, showsLockOf } from './owner.ts';

export const B_CHECKED_LIVE = 'B checked its lease while it was still live';

/**
 * Harness ms before which the lock surely still lives by the store's clock (sentAt + PTTL, or by a
 * declared app-clock expiry field); a key with no expiry at all ends only by a command: unbounded.
 */
export function liveUntil(lock: LockReading): number {
  return !lock.exists ? lock.sentAt : lock.pttlMs < 0 ? Number.POSITIVE_INFINITY : lock.sentAt + lock.pttlMs;
}

/** The read right after B acquired found B's lease (by its token or B's own call; with neither, anything there). */
export function seenBLive(o: V310Observations): boolean {
  if (o.seenB === null) return false;
  // B denied: "B took the lock" says why nothing is judged; whose the read was does not add to it.
  return o.b?.lease ? showsLockOf(o, o.seenB.lock, 'B') : o.seenB.lock.exists;
}

/**
 * Until when B's lease lives at the earliest: its TTL from when B began the acquire that took it
 * (the key was set after that), or, when later, the PTTL the store gave right after B acquired, or
 * the one it gave just before A was let go to release, still B's (a helper that renews, say).
 */
export function bLiveUntil(o: V310Observations, ttl: number): number {
  const byTtl = (o.b?.startedAt ?? 0) + ttl;
  return seenBLive(o) ? Math.max(byTtl, readUntil(o)) : byTtl;
}

/** B's lease by the store's clock, read after B acquired and, still B's, just before A's release. */
export function readUntil(o: V310Observations): number {
  const before = o.beforeARelease;
  const stillB =
    before?.exists &&
    (bIdentified(o)
      ? ownerIn(o, before).holder === 'B'
      : o.seenB!.lock.value === null || before.value === o.seenB!.lock.value);
  return Math.max(liveUntil(o.seenB!.lock), stillB ? liveUntil(before) : 0);
}

/** B's answer on its own lease as the judge counts it, and why one is left out. */
export interface CountedBSide {
  /** B's answer, when it counts. */
  counted: BSide | undefined;
  /** B's refusal the store contradicts, in words (the explanation names it). */
  ownRefusal: string | undefined;
  /** A refusal too late to count, when nothing else shows the damage: the run proved nothing. */
  lateCheck: Check | undefined;
  /** What play notes in the history about an answer left out. */
  notes: string[];
}

export function countBSide(o: V310Observations, ttl: number): CountedBSide {
  const { bSide, after } = o;
  const identified = bIdentified(o);
  const afterIsB = after !== null && after.exists && ownerIn(o, after).holder === 'B';
  // A refusal the store contradicts (B's lock still there, read after A's release) is B's own, e.g.
  // redlock refusing by its own clock after a slow acquire: not A's doing, not counted.
  if (bSide && !bSide.ok && identified && afterIsB) {
    const ownRefusal = `B's ${bSide.member} of its own lease was refused, though ${after.where} still held B's ${ownerIn(o, after).how === 'declared' ? 'token' : 'lock'} after A's release: the refusal is the target's own (its client's clock, say), not A's release's, and is not counted`;
    return { counted: undefined, ownRefusal, lateCheck: undefined, notes: [ownRefusal] };
  }
  // A refusal that came after B's lease could have lapsed proves nothing about A's release: it
  // is then left out, and when nothing else shows the damage the run is INCONCLUSIVE.
  if (bSide && !bSide.ok && !(bSide.endedAt < bLiveUntil(o, ttl))) {
    const late = `B's ${bSide.member} was refused at ${bSide.endedAt.toFixed(0)} ms, after B's lease could have lapsed (${bLiveUntil(o, ttl).toFixed(0)} ms: ${ttl} ms after B began its acquire, or the PTTL read after B acquired): B's lease may simply have lapsed`;
    const othersHeld = after !== null && !o.c?.lease && (!identified || afterIsB);
    return othersHeld
      ? {
          counted: undefined,
          ownRefusal: undefined,
          lateCheck: { name: B_CHECKED_LIVE, held: false, detail: late },
          notes: [],
        }
      : { counted: undefined, ownRefusal: undefined, lateCheck: undefined, notes: [`${late}; not counted`] };
  }
  return { counted: bSide ?? undefined, ownRefusal: undefined, lateCheck: undefined, notes: [] };
}
