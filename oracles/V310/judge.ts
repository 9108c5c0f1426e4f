/**
 * V310's judgement, a pure function of what play recorded: B's lock must survive A's release (the
 * key still holds B's token, B can still extend or release its lease, C is denied). Judged only when
 * A held the lock where the harness looks, A was stopped (or held) until B took the lock, A's release
 * ran, and what shows the damage was seen while B's lease was live by the store's clock.
 */
import { nothingProven, type Check, type Judgement } from '../../src/core/judgement.ts';
import { longerTtlFlags, type ParamValues } from '../../src/core/params.ts';
import type { Recorded } from '../../src/oracle/definition.ts';
import { pointInWords } from '../../src/oracle/explore-point.ts';
import { B_CHECKED_LIVE, bLiveUntil, countBSide, readUntil, seenBLive } from './b-window.ts';
import type { Located, V310Observations } from './observations.ts';
import type { v310Params } from './params.ts';
import { RENEWAL } from './renewal.ts';
import { FAILOVER_PRECONDITION } from './failover.ts';
import { lostInFailover } from '../../src/judging/failover-loss.ts';
import { bIdentified, ownerIn, showsLockOf } from './owner.ts';

export { B_CHECKED_LIVE } from './b-window.ts';
export const A_HELD = 'A held the lock';
export const LOCATED = 'the harness found the lock where the target says it lives';
export const HELD_IN_RELEASE = 'A was held inside its release, before its delete';
export const HELD_AT_POINT = 'A was held at the explored point';
export const B_TOOK = "A's lease lapsed and B took the lock while A was stopped";
export const A_RELEASED = "A's release ran after B took the lock";
export const B_LIVE = "B's lease was live when the harness judged";

export const V310_PRECONDITIONS = [
  { name: A_HELD, checks: "A's acquire on the empty store returned a lease" },
  {
    name: LOCATED,
    checks:
      "a read while A (or, when that read came too late, B) held the lock found it where the target says it lives (env.key or storeKey(env)), the holder's own: by its token, or by its own call the harness traced making it (the inode its mkdir or create left, the value its acquire wrote)",
  },
  {
    name: HELD_IN_RELEASE,
    checks: '--variant narrow: A reached its delete (held at its wire proxy, or at env.seam("release:before-delete"))',
  },
  {
    name: HELD_AT_POINT,
    checks:
      "--explore: A's release (on a file store, its renewal or release) reached the explored point, where A was held",
  },
  FAILOVER_PRECONDITION,
  {
    name: B_TOOK,
    checks:
      "B took the lock while A was still stopped or held (--variant failover: inside A's lease by the master's PTTL)",
  },
  {
    name: A_RELEASED,
    checks:
      "A's release returned (did not throw, did not time out) after B took the lock, and, where A was held inside it, only once A was let go (one that returned while A's command was still held did not wait for that command)",
  },
  {
    name: B_CHECKED_LIVE,
    checks:
      "B's refused extend (or release) of its own lease, when nothing else shows the damage, was answered before B's lease could have lapsed",
  },
  {
    name: B_LIVE,
    checks:
      "B's lease was in the store right after B acquired, and what shows the damage (the key, C's grant, B's refusal) was seen before its PTTL ran out",
  },
];

export function judgeV310(recorded: Recorded<V310Observations>, p: ParamValues<typeof v310Params>): Judgement {
  const judged = judgeRun(recorded, p);
  const why = renewedOutOfReach(recorded.observations);
  return why && judged.preconditions.some((c) => c.name === B_TOOK && !c.held)
    ? { ...judged, notApplicable: why }
    : judged;
}

/**
 * An explored point whose fault cannot land: A was held at a command of its release, but A's own
 * timer went on renewing its lease meanwhile, so B could never take the lock. The partition point
 * at the same boundary (A's renewals held too) is the one that lands there.
 */
/** How A was held inside its release, by --hold. */
const HELD_BY: Record<string, string> = {
  wire: "its delete command kept at A's wire proxy",
  seam: 'at the seam release:before-delete',
  partition:
    'cut off at its wire proxy from its delete on: its store traffic held both ways, its own renewals too, while it ran',
} as const;

function renewedOutOfReach({ point, renewalsWhileHeld }: V310Observations): string | undefined {
  if (!point || point.boundary.kind !== 'command' || point.fault === 'partition' || !renewalsWhileHeld)
    return undefined;
  return `A's own renewals kept its lease alive while its ${point.boundary.text} was held (the store answered ${renewalsWhileHeld} renewal(s) of A's lock meanwhile), so B could not take the lock; the partition point at this boundary, which holds A's renewals too, is the one that lands here`;
}

function judgeRun(
  { observations: o, history }: Recorded<V310Observations>,
  p: ParamValues<typeof v310Params>,
): Judgement {
  const { point, leaseA, atA, hold, b, seenB, aRelease, after } = o;
  const leaseB = b?.lease ?? null;
  const leaseC = o.c?.lease ?? null;
  const cAnsweredAt = o.c?.answeredAt ?? 0;
  const where = point
    ? `at ${point.boundary.part}#${point.boundary.index} (${point.boundary.text})`
    : 'inside its release, before its delete';
  const preconditions: Check[] = [];

  preconditions.push({
    name: A_HELD,
    held: leaseA !== null,
    detail: leaseA ? `A acquired (token ${leaseA.token ?? 'not reported'})` : 'A was denied on an empty store',
  });
  // Where the lock lives is checked while a holder holds it: on A's lease, or, when the probe came
  // too late to tell (a loaded machine), on B's fresh one.
  const aLate = atA !== null && !atA.lock.exists && atA.lookedAfterMs >= p.ttl;
  if (atA && !aLate) preconditions.push(located(atA, leaseA?.token, 'A'));
  if (hold && hold.outcome !== 'held') {
    const detail =
      hold.outcome === 'finished'
        ? hold.missed
        : `A's release neither finished nor reached ${point ? 'the point' : 'its delete'} within ${p.timeout} ms`;
    preconditions.push({
      name: point ? HELD_AT_POINT : HELD_IN_RELEASE,
      held: false,
      detail: point ? `${where}: ${detail}` : detail,
    });
  }
  if (o.failover) preconditions.push(lostInFailover(o.failover));
  if (b) {
    const held = b.lease !== null && b.aStillStopped;
    const aWas =
      p.variant === 'pause'
        ? 'was stopped'
        : o.failover
          ? "still held it, its lease live by the dead master's PTTL"
          : `was held ${where}`;
    preconditions.push({
      name: B_TOOK,
      held,
      detail: held
        ? `B took the lock while A ${aWas} (${b.attempts} attempt(s))`
        : o.failover
          ? `B did not take the lock on the promoted node before A's lease ran out by the master's PTTL (${b.lease ? 'it took it after' : `not within ${p.timeout} ms`}): the lease's lapse, not the failover, would have let B in (a longer --ttl)`
          : `B could not take the lock within ${p.timeout} ms: A's lease never lapsed, so the fault did not land${
              o.renewalsWhileHeld
                ? ` (A's own renewals kept it: the store answered ${o.renewalsWhileHeld} of them while A was held${point ? '' : '; --hold partition holds them too'})`
                : ''
            }`,
    });
  }
  // A key gone from a read sent a TTL or more after B began its acquire says nothing about where the
  // lock lives (B's lease may have lapsed): "B's lease was live when the harness judged" names that case instead.
  if (b && seenB && aLate && leaseB && !(!seenB.lock.exists && seenB.lock.sentAt - b.startedAt >= p.ttl))
    preconditions.push(located(seenB, leaseB.token, 'B'));
  // A release that threw may never have reached the store: only one that returned is evidence,
  // or one whose command at the point the store ran before its reply was dropped (the client's own
  // error for the lost reply: what the store shows after it is A's doing).
  const ran = o.storeRan ?? [];
  // A reply hold is reached only when the store's reply arrived: the command at the point ran.
  const pointRan = point?.fault === 'reply-dropped' && hold?.outcome === 'held';
  const runs = ran.map((r) => `${r.command} ${r.times} time${r.times === 1 ? '' : 's'}`).join(', ');
  // A release held at its command that still returned before A was let go did not wait on it (its
  // client finished it on another connection or session): it may have acted before B took the lock.
  // Not where A released on purpose while its renewal was held (--renewal across-release).
  const releasedAcross = point?.boundary.part === RENEWAL && p.renewal === 'across-release';
  const returnedWhileHeld =
    !releasedAcross &&
    aRelease?.endedAt !== undefined &&
    hold?.liftedAt !== undefined &&
    aRelease.endedAt < hold.liftedAt;
  if (aRelease)
    preconditions.push({
      name: A_RELEASED,
      held: aRelease.finished && (!aRelease.error || pointRan) && !returnedWhileHeld,
      detail: !aRelease.finished
        ? `A's release did not finish within ${p.timeout} ms`
        : returnedWhileHeld
          ? `A's release returned at ${aRelease.endedAt!.toFixed(1)} ms, while A was still held ${where} (let go at ${hold!.liftedAt!.toFixed(1)} ms): it did not wait for the held command (a client may finish a release on another connection or session, or give it up), so what it did may have come before B took the lock, and B's lock surviving proves nothing`
          : aRelease.error
            ? pointRan
              ? `A's release threw (${aRelease.error.split('\n')[0]}) once its reply was dropped, after the store had run its commands (${runs}): what the store shows after it is judged`
              : `A's release threw (${aRelease.error.split('\n')[0]}): it may never have reached the store, so B's lock surviving proves nothing`
            : "A's release returned",
    });
  const { counted: bSide, ownRefusal, lateCheck } = countBSide(o, p.ttl);
  if (lateCheck) preconditions.push(lateCheck);

  // B's lock told apart right after B acquired (by B's token, or B's own call that made it) is judged
  // by its owner after A's release; one nothing told apart only by being there.
  const identified = bIdentified(o);
  const ownerAfter = after && after.exists ? ownerIn(o, after) : null;
  const keyIsB = ownerAfter?.holder === 'B';
  const keyGone = after !== null && !after.exists;
  const bRefused = bSide !== undefined && !bSide.ok;
  const held = after !== null && leaseC === null && (!identified || keyIsB) && !bRefused;
  // B's lock was told apart by B's own call, but no traced call made what is there now: a call the
  // harness cannot see (a FileHandle's write, a child process) may have; nothing else shows damage.
  const unseenOwner =
    !held && leaseC === null && !bRefused && ownerAfter?.holder === null && ownerIn(o, seenB!.lock).how === 'observed';
  if (unseenOwner)
    preconditions.push({
      name: LOCATED,
      held: false,
      detail: `after A's release ${after!.where} held a lock no holder's traced call made (${ownerAfter!.evidence}), where B's own call had made the one there after B acquired: whose it is the harness cannot tell (a write through a file handle or another process is not traced); report as token the value the helper stores there`,
    });
  if (after) insideBsLease(held, keyIsB || (!identified && after.exists));
  const cGranted = history.filter((e) => e.kind === 'acquire-ok' && e.holder === 'C');
  const observedAfter = history.filter((e) => e.kind === 'store-observed' && e.detail.label === "after A's release");
  const aReleases = history.filter((e) => e.kind === 'release' && e.holder === 'A');
  const bRefusals = history.filter((e) => (e.kind === 'extend-failed' || e.kind === 'release') && e.holder === 'B');
  const what = !after
    ? 'not judged'
    : keyGone
      ? `${after.where} ${after.free ?? 'found nothing'} after A's release`
      : ownerAfter!.how === 'declared' && keyIsB
        ? `${after.where} still gave B's token`
        : keyIsB
          ? `${after.where} still held B's lock (${ownerAfter!.evidence})`
          : ownerAfter!.holder !== null
            ? `${after.where} held ${ownerAfter!.holder}'s lock, not B's (${ownerAfter!.evidence})`
            : identified
              ? `${after.where} gave ${JSON.stringify(after.value)}, not B's lock (${ownerAfter!.evidence})`
              : `${after.where} gave ${JSON.stringify(after.value)} (whose it is the harness cannot tell: ${ownerAfter!.evidence})`;
  const bWhat = bSide ? `; B's ${bSide.member} of its own lease ${bSide.ok ? 'succeeded' : 'was refused'}` : '';
  const resent = ran.filter((r) => r.times > 1);
  const ranWhat = resent.length
    ? `; the store ran ${resent.map((r) => `A's ${r.command} ${r.times} times`).join(', ')} (its reply lost, A's client sent it again)`
    : point?.fault === 'reply-dropped' && ran.length
      ? `; the store ran A's release commands ${runs}`
      : '';
  return {
    preconditions,
    counts: {
      cAcquired: leaseC ? 1 : 0,
      keyHeldBsTokenAfterRelease: keyIsB ? 1 : 0,
      keyGoneAfterRelease: keyGone ? 1 : 0,
      bRefusedOnItsOwnLease: bRefused ? 1 : 0,
      aReleaseCommandsStoreRan: ran.reduce((n, r) => n + r.times, 0),
      aReleaseCommandsRunMoreThanOnce: resent.length,
      bLeaseLeftAtReadMs: after && seenB ? Math.max(0, Math.round(readUntil(o) - after.receivedAt)) : 0,
    },
    property: {
      name: "B's lock survives A's release",
      held,
      detail: `${what}${bWhat}; C was ${leaseC ? 'granted the lock' : 'denied'}${ranWhat}`,
      offending: held ? [] : [...aReleases, ...(bRefused ? bRefusals : []), ...observedAfter, ...cGranted],
    },
    explanation: explain(),
  };

  /**
   * The lock read while `who` held it is `who`'s: by its token, or by `who`'s own call the harness
   * traced; with neither a token nor a traced call, anything there. Asks the target only for what the
   * harness could not see.
   */
  function located({ lock, notFound }: Located, token: string | undefined, who: string): Check {
    const owner = lock.exists ? ownerIn(o, lock) : null;
    const isWho = showsLockOf(o, lock, who);
    const whose = owner?.holder === who ? `, ${who}'s (${owner.evidence})` : '';
    return {
      name: LOCATED,
      held: isWho,
      detail: !owner
        ? notFound
        : isWho
          ? `while ${who} held the lock, ${lock.where} gave ${JSON.stringify(lock.value)}${whose} (PTTL ${lock.pttlMs} ms)` +
            (o.inferred
              ? `; where the lock lives was inferred from A's own acquire (${o.inferred.from}), the target declaring no storeKey`
              : '')
          : owner.holder !== null
            ? `while ${who} held the lock, ${lock.where} showed ${owner.holder}'s lock, not ${who}'s (${owner.evidence})`
            : `${lock.where} gave ${JSON.stringify(lock.value)}, not ${who}'s lease token ${JSON.stringify(token)}, and no call of ${who}'s the harness traced made it (${owner.evidence}): report as token the value the helper stores there, or declare where the lock lives with storeKey(env)`,
    };
  }

  /**
   * The property is about B's lease while it is live: a key found gone, or a C granted, after
   * B's own TTL ran out by the store's clock proves nothing about A's release (a slow acquire,
   * a loaded machine). B's lease lives, at the earliest, until the read after B acquired was sent
   * plus the PTTL it returned; a violation counts only if it was seen before then (B's own
   * extend or second release refused counts when it was answered before B's lease could lapse).
   */
  function insideBsLease(held: boolean, keyWasB: boolean) {
    if (!seenBLive(o)) {
      preconditions.push({
        name: B_LIVE,
        held: false,
        detail: `B's lease had already lapsed by the store's clock when the harness read the key right after B's acquire returned (${seenB?.lock.exists ? `it held ${JSON.stringify(seenB.lock.value)}` : 'the key was gone'}): B's acquire is slower than the ${p.ttl} ms TTL, so A's release cannot be judged; run with a longer lease, e.g. ${longerTtlFlags(seenB?.lookedAfterMs ?? p.ttl, p.ttl, p.timeout)}`,
      });
      return;
    }
    const until = readUntil(o);
    const readInside = keyWasB || after!.receivedAt < until;
    const cInside = leaseC === null || cAnsweredAt < until;
    // B's own extend (or second release) refused while its lease was live is seen inside too.
    const bRefusedInside = bSide !== undefined && !bSide.ok && bSide.endedAt < bLiveUntil(o, p.ttl);
    const violationSeenInside = (!keyWasB && readInside) || (leaseC !== null && cInside) || bRefusedInside;
    if (held || violationSeenInside) return;
    preconditions.push({
      name: B_LIVE,
      held: false,
      detail:
        `B's lease ran out by the store's clock at ${until.toFixed(0)} ms (its PTTL after B acquired, or just before A was let go to release), before the judgement: ` +
        `the read after A's release was answered at ${after!.receivedAt.toFixed(0)} ms and C's acquire at ${cAnsweredAt.toFixed(0)} ms, ` +
        `so the key being gone or C getting the lock may be B's own expiry, not A's release (a slow machine or a slow target; a longer --ttl helps)`,
    });
  }

  /** What the lock held once A's renewal returned, when that was no longer B's. */
  function overB(): string {
    const seen = o.afterRenewal;
    if (!seen || !identified) return '';
    if (!seen.exists) return `Right after A's renewal returned, ${seen.where} ${seen.free ?? 'found nothing'}. `;
    const owner = ownerIn(o, seen);
    return owner.holder === 'B'
      ? ''
      : `Right after A's renewal returned, ${seen.where} gave ${JSON.stringify(seen.value)}, not B's lock (${owner.evidence}). `;
  }

  function explain(): string {
    const unproven = nothingProven(preconditions);
    if (unproven) return unproven;
    const atRenewal = point?.boundary.part === RENEWAL;
    const how = point
      ? atRenewal
        ? `A took a ${p.ttl} ms lock and began its renewal; ${pointInWords(point)}${p.renewal === 'across-release' ? ', and A released meanwhile,' : ''} until B took the lock; then A's renewal${o.aRenewal?.extended ? ' (it said it renewed)' : ''} and release went on`
        : `A took a ${p.ttl} ms lock and began its release; ${pointInWords(point)} until B took the lock (A's lease lapsed, or A's own command had freed it); then A's release went on${ranWhat}`
      : o.failover
        ? `A took a ${p.ttl} ms lock on the master, whose replication was held; the master (${o.failover.killed}) was SIGKILLed with the lock on it alone and ${o.failover.promoted} promoted (${o.failover.how}), so B took the same lock there while A's lease still lived; then A released`
        : p.variant === 'pause'
          ? `A took a ${p.ttl} ms lock and was stopped (SIGSTOP) until it lapsed and B took the lock; then A resumed and released`
          : `A took a ${p.ttl} ms lock and began its release, but was held after its check and before its delete (${HELD_BY[p.hold]}) until the lock lapsed and B took it; then A's release went on`;
    // A lock told apart by a token is checked by it; one told apart by its holder's own call (a
    // directory with no owner record) by being the very lock it made.
    const observedB = bIdentified(o) && seenB !== null && ownerIn(o, seenB.lock).how === 'observed';
    const ownLock =
      observedB && typeof seenB.lock.ino === 'number'
        ? 'the path still names the lock it made'
        : `the ${point?.boundary.kind === 'fs' ? 'lock' : 'key'} still holds its own ${observedB ? 'value' : 'token'}`;
    const bSaw = bSide ? ` B's ${bSide.member} of its own lease ${bSide.ok ? 'still succeeded' : 'was refused'},` : '';
    if (!held && leaseC === null && bSide && !bSide.ok) {
      return atRenewal
        ? `${how}. A's renewal wrote its own record over B's: ${what}, a third holder C was denied, but B's ${bSide.member} of its own live lease was refused, so B no longer held the lock it was granted. ${overB()}The renewal checks the record, then writes by pathname: its write lands on whatever lock the path names by then.`
        : `${how}. A's release destroyed B's lock without freeing it: ${what}, a third holder C was denied, but B's ${bSide.member} of its own live lease was refused, so B no longer held the lock it was granted. The release changes the lock (overwrites or marks it) without checking, atomically, that it still holds its own token.`;
    }
    return held
      ? `${how}. B's lock survived: ${what},${bSaw} and a third holder C was denied.${ownRefusal ? ` (${ownRefusal}.)` : ''} In this interleaving the release did not touch a lock that was no longer its own` +
          (p.variant === 'pause'
            ? ' (a GET→compare→DEL release also passes here: run --variant narrow to pause it between its check and its delete).'
            : '.')
      : `${how}. A's ${atRenewal ? 'late renewal or release' : 'release'} removed B's lock: ${what}, and a third holder C ${leaseC ? 'was granted the lock while B still believed it held it' : 'could take it'}. ${atRenewal ? `${overB()}The renewal checks the record, then acts by pathname` : `The release does not check, atomically, that ${ownLock}`}.`;
  }
}
