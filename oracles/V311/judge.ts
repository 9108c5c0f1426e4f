/**
 * V311's judgement, a pure function of what play recorded: after A is killed holding the lock, a
 * contender (B; or one of B, C, … with --contenders 3 or more) must take it within TTL + grace, and
 * no two contenders may hold it at once. A key with no expiry (PTTL -1) is the finding when nobody
 * could take it over; one the helper's own staleness rule took over in time is not. Judged only
 * when A (or the explored contender) was stopped where asked, the key existed with no longer a TTL
 * than asked, the kill was a real SIGKILL, a denial came on A's key after it should have lapsed,
 * and two grants, if any, came while both leases surely lived.
 */
import { nothingProven, type Check, type Judgement } from '../../src/core/judgement.ts';
import type { ParamValues } from '../../src/core/params.ts';
import type { Recorded } from '../../src/oracle/definition.ts';
import { pointInWords } from '../../src/oracle/explore-point.ts';
import { grantedApart, heldAtOnce, type ContenderTry } from '../../scenarios/contenders.ts';
import type { V311Observations } from './observations.ts';
import { sameLock } from '../../src/judging/ownership.ts';
import type { v311Params } from './params.ts';
import { judgeSessionLockV311, SESSION_LOCK_PRECONDITIONS } from './judge-session-lock.ts';

export const STOPPED_BETWEEN = 'A was stopped between creating the key and anything else';
export const STOPPED_AT_POINT = 'A was stopped at the explored point';
export const KEY_EXISTED = 'the key existed when A was killed';
export const TTL_AS_ASKED = 'the key carried no longer a TTL than --ttl';
export const KILLED = 'A was killed';
export const LAST_TRY_LAPSED = "B's last try came after the key lapsed by its PTTL";
export const A_KEY_STILL_HELD = "A's key still held the lock when B gave up";
export const GRANTS_OVERLAPPED = 'two grants came while both leases surely lived';

export const V311_PRECONDITIONS = [
  {
    name: STOPPED_BETWEEN,
    checks:
      '--variant between-commands: A reached env.seam("acquire:after-set") (after the command that created the key)',
  },
  {
    name: STOPPED_AT_POINT,
    checks:
      "--explore: A's acquire (or, a point on a contender, that contender's takeover) reached the explored point, where it was stopped",
  },
  { name: KEY_EXISTED, checks: 'the key (or storeKey(env)) was in the store right before A was killed' },
  {
    name: TTL_AS_ASKED,
    checks: "the key's PTTL at the kill was -1 (no expiry: the finding) or at most --ttl (the target uses env.ttlMs)",
  },
  { name: KILLED, checks: "A's process ended by SIGKILL" },
  {
    name: LAST_TRY_LAPSED,
    checks: 'B, still denied, tried last after the key had lapsed by the PTTL read right after the kill',
  },
  {
    name: A_KEY_STILL_HELD,
    checks:
      "B, still denied, gave up while the key still held A's token or had no expiry, or the store kept A's lapsed record (a lease row past its expiry)",
  },
  {
    name: GRANTS_OVERLAPPED,
    checks:
      "--contenders 3 or more: two contenders granted the lock were granted while both leases surely lived (each from its grant to its attempt's start + --ttl); else nothing shows they held it at once",
  },
  ...SESSION_LOCK_PRECONDITIONS,
];

export function judgeV311(
  { observations: o, history }: Recorded<V311Observations>,
  p: ParamValues<typeof v311Params>,
): Judgement {
  const { point, stop, atKill, exit, afterKill, b, stuck } = o;
  const tries = o.contenders ?? [];
  const atOnce = heldAtOnce(tries, p.ttl);
  const apart = grantedApart(tries, p.ttl);
  const stoppedWho = point?.holder && point.holder !== 'A' ? `${point.holder}'s takeover` : "A's acquire";
  const preconditions: Check[] = [];
  const reads = history.filter((e) => e.kind === 'store-observed' && e.detail.exists === true);
  const immortal = reads.filter((e) => e.detail.pttlMs === -1);
  // A lock that kept an expiry but outlived it shows in B's refusals past TTL + grace.
  const bDenied = history.filter((e) => e.kind === 'acquire-denied' && e.holder === 'B');
  if (stop && stop.outcome !== 'reached') {
    const detail =
      stop.outcome === 'finished'
        ? stop.missed
        : `${stoppedWho} neither returned nor reached ${point ? 'the point' : 'the seam'} within ${p.timeout} ms`;
    preconditions.push({
      name: point ? STOPPED_AT_POINT : STOPPED_BETWEEN,
      held: false,
      detail: point ? `at ${point.boundary.part}#${point.boundary.index} (${point.boundary.text}): ${detail}` : detail,
    });
    return judged(undefined);
  }
  if (o.sessionLocks) return judgeSessionLockV311(o, history, p, [...killedCheck(), ...overlapCheck()], pairInWords);
  preconditions.push({
    name: KEY_EXISTED,
    held: atKill?.exists === true,
    detail: !atKill
      ? 'A was denied on an empty store'
      : atKill.exists
        ? `${atKill.where} gave ${JSON.stringify(atKill.value)}, PTTL ${atKill.pttlMs} ms${inferredWords()}`
        : atKill.notFound,
  });
  if (!atKill?.exists) return judged(undefined);
  // A key with no expiry at all is this oracle's finding; one with a longer expiry than asked
  // means the target ignores env.ttlMs, and B's wait would prove nothing.
  const ttlAsAsked = atKill.pttlMs === -1 || atKill.pttlMs <= p.ttl;
  preconditions.push({
    name: TTL_AS_ASKED,
    held: ttlAsAsked,
    detail: ttlAsAsked
      ? `PTTL at the kill: ${atKill.pttlMs} ms (--ttl ${p.ttl})`
      : `PTTL at the kill was ${atKill.pttlMs} ms, longer than --ttl ${p.ttl}: the target does not use env.ttlMs, so B could not be expected in TTL + grace`,
  });
  preconditions.push(...killedCheck());
  if (!afterKill || !b) return judged(undefined);
  // B denied counts only if its last try began after the key had surely lapsed by the store's own
  // PTTL (read right after the kill; A, dead, cannot renew it): a loaded machine can end B's budget
  // before B ever tries past the expiry. A key with no expiry (PTTL -1) needs no such window.
  const lapsedBy = !afterKill.exists
    ? afterKill.receivedAt
    : afterKill.pttlMs < 0
      ? undefined
      : afterKill.receivedAt + afterKill.pttlMs;
  const lastTry = b.lastAttemptAt;
  if (!b.granted && lapsedBy !== undefined) {
    preconditions.push({
      name: LAST_TRY_LAPSED,
      held: lastTry >= lapsedBy,
      detail:
        lastTry >= lapsedBy
          ? `B's last try began at ${lastTry.toFixed(1)} ms, after the key's expiry (by ${lapsedBy.toFixed(1)} ms by the PTTL read right after the kill)`
          : `B's last try began at ${lastTry.toFixed(1)} ms, before the key lapsed (by ${lapsedBy.toFixed(1)} ms by the PTTL read right after the kill), and B's ${p.ttl + p.grace} ms budget ran out before another: B was never tried on a lapsed key`,
    });
  }
  // B denied counts only while the store still shows A's key (or a key with no expiry) when B
  // gives up. A key gone, or holding a token not A's, shows A's key lapsed (and, with a token, was
  // taken again: only B tries): B's denial is then B's own (redlock refusing by its own clock
  // after a slow reply, say), not A's lock outliving its TTL, and is not counted.
  // (Asked only of a denial the window above counts.)
  const counted = lapsedBy === undefined || lastTry >= lapsedBy;
  // A store that keeps a lapsed record (a lease row past its lease_until) leaves the takeover to the
  // taker's own check of the expiry: A's record still there, lapsed, and B denied is that check failing.
  const aRecordKept = stuck?.lapsedRecord !== undefined && stuck.lapsedRecord.value === atKill.value;
  if (stuck && counted && !aRecordKept && !(stuck.exists && (stuck.pttlMs < 0 || sameLock(stuck, atKill)))) {
    preconditions.push({
      name: A_KEY_STILL_HELD,
      held: false,
      detail:
        (stuck.exists
          ? `when B gave up, ${stuck.where} gave ${JSON.stringify(stuck.value)} (PTTL ${stuck.pttlMs} ms), not A's ${JSON.stringify(atKill.value)}${stuck.value === atKill.value ? ` (the same value, but another lock: inode ${stuck.ino}, A's was ${atKill.ino})` : ''}: A's key had lapsed and been taken again`
          : `when B gave up, ${stuck.where} found nothing: A's key had lapsed and the lock was free by the store`) +
        `, so B's denial is the target's own (its client's clock, say; or a lock kept elsewhere than storeKey(env) says), not A's lock outliving its TTL`,
    });
  }
  preconditions.push(...overlapCheck());
  return judged({ waitedMs: b.endedAt - o.heldSince!, granted: b.granted, attempts: b.attempts });

  /** "; where the lock lives was inferred from A's own acquire (SET lock.k … NX), …" when it was. */
  function inferredWords(): string {
    return o.inferred
      ? `; where the lock lives was inferred from A's own acquire (${o.inferred.from}), the target declaring no storeKey`
      : '';
  }

  /** How A's process ended, once it was killed. */
  function killedCheck(): Check[] {
    if (!exit) return [];
    return [
      {
        name: KILLED,
        held: exit.signal === 'SIGKILL',
        detail: `A's process ended with ${exit.signal ?? `exit code ${exit.code}`} at ${exit.t} ms`,
      },
    ];
  }

  /** Two contenders granted the lock with nothing showing they held it at once: not judged as two holders. */
  function overlapCheck(): Check[] {
    if (atOnce.length > 0 || apart.length === 0) return [];
    return [
      {
        name: GRANTS_OVERLAPPED,
        held: false,
        detail: `${apart.map(pairInWords).join('; ')}: an attempt outlasted the lease it was granted, so nothing shows the two held the lock at once`,
      },
    ];
  }

  function judged(outcome: { waitedMs: number; granted: boolean; attempts: number } | undefined): Judgement {
    // A key with no expiry is the finding, unless it never had one in any read and a contender
    // still took it over in time: the lock's expiry is then the helper's own (an expiry in the
    // value, compared on the contender's clock). A key seen with an expiry and without one had
    // its TTL set apart from its creation: the finding, whoever took it over.
    const expiryOfItsOwn = immortal.length > 0 && immortal.length === reads.length;
    const held =
      outcome !== undefined && outcome.granted && atOnce.length === 0 && (immortal.length === 0 || expiryOfItsOwn);
    const grants = history.filter((e) => e.kind === 'acquire-ok' && e.holder !== 'A');
    return {
      preconditions,
      counts: {
        bAcquired: outcome?.granted ? 1 : 0,
        contendersAfterA: Math.max(1, tries.length),
        contendersGranted: tries.length ? tries.filter((t) => t.granted).length : outcome?.granted ? 1 : 0,
        pairsHoldingAtOnce: atOnce.length,
        bWaitedMs: outcome ? Math.round(outcome.waitedMs) : 0,
        bAttempts: outcome?.attempts ?? 0,
        observationsWithNoExpiry: immortal.length,
      },
      property: {
        name: "a contender takes the dead holder's lock within TTL + grace; no two hold it at once",
        held,
        detail: !outcome
          ? 'not judged'
          : atOnce.length
            ? `${atOnce.map(pairInWords).join('; ')}: two contenders held the dead holder's lock at once`
            : `${outcome.granted ? `${tries.find((t) => t.granted)?.holder ?? 'B'} took the lock ${outcome.waitedMs.toFixed(0)} ms after A took it` : `${tries.length > 1 ? 'every contender was' : 'B was'} still denied ${outcome.waitedMs.toFixed(0)} ms after A took it (${outcome.attempts} attempts)`}; ` +
              `${immortal.length ? `the key had no expiry (PTTL -1) in ${immortal.length} observation(s)` : 'the key always had an expiry'}`,
        offending: held ? [] : atOnce.length ? grants : immortal.length ? immortal : bDenied,
      },
      explanation: explain(held, outcome),
    };
  }

  function explain(held: boolean, outcome: { waitedMs: number; granted: boolean } | undefined): string {
    const unproven = nothingProven(preconditions);
    if (unproven || !outcome) return unproven ?? 'Nothing was proven.';
    const when =
      p.variant === 'after-acquire'
        ? 'right after its acquire returned'
        : 'after it created the key and before its next command';
    const killed =
      point?.holder && point.holder !== 'A'
        ? `A was killed (SIGKILL) right after its acquire returned; once its lease had lapsed, ${pointInWords(point)}, while each other contender tried the lock once.`
        : point
          ? `${pointInWords(point)}.`
          : `A was killed (SIGKILL) ${when}.`;
    const taker = tries.find((t) => t.granted)?.holder ?? 'B';
    return held
      ? immortal.length
        ? `${killed} The key had no expiry in the store (PTTL -1), but the helper's own staleness rule took it over: ${taker} took the lock ${outcome.waitedMs.toFixed(0)} ms after A had taken it (TTL ${p.ttl} ms)${tries.length > 1 ? `, and no other of the ${tries.length} contenders held it meanwhile` : ''}.`
        : `${killed} The key carried an expiry, so it lapsed and ${taker} took the lock ${outcome.waitedMs.toFixed(0)} ms after A had taken it (TTL ${p.ttl} ms)${tries.length > 1 ? `; no other of the ${tries.length} contenders held it meanwhile` : ''}.`
      : atOnce.length
        ? `${killed} ${atOnce.map(pairInWords).join('; ')}: two contenders took the dead holder's lock and held it at once. A takeover that checks the lock is stale and then removes and re-creates it lets a contender delayed between its check and its removal delete the lock another contender has just taken; take it over in one atomic step (on Redis a compare-and-swap script on the value seen; a file lock: claim it by an atomic rename and check it is still the stale one).`
        : immortal.length
          ? `${killed} The key it left had no expiry (PTTL -1), so no later holder can ever take the lock: B was ${outcome.granted ? `only granted it ${outcome.waitedMs.toFixed(0)} ms later` : `still denied ${outcome.waitedMs.toFixed(0)} ms later, past TTL ${p.ttl} + grace ${p.grace} ms`}. Give the lock its expiry in the same step that takes it (on Redis: SET key token PX ttl NX; a file lock: a staleness rule on its age).`
          : stuck?.lapsedRecord
            ? `${killed} Its row (${stuck.where}) lapsed by the database's clock ${stuck.lapsedRecord.lapsedMs} ms before B gave up, still A's, yet B was still denied ${outcome.waitedMs.toFixed(0)} ms after A took it, past TTL ${p.ttl} + grace ${p.grace} ms: the takeover's own check never saw the row lapse. Compare the expiry with the database's clock at each try (a try in a transaction of its own: now() is frozen at a transaction's start), or with clock_timestamp().`
            : `${killed} The key kept an expiry, but B was still denied ${outcome.waitedMs.toFixed(0)} ms later, past TTL ${p.ttl} + grace ${p.grace} ms: the lock outlived its TTL.`;
  }
}

/** "B granted at 612.3 ms and C at 618.9 ms" */
function pairInWords([x, y]: [ContenderTry, ContenderTry]): string {
  return `${x.holder} was granted the lock at ${x.endedAt.toFixed(1)} ms and ${y.holder} at ${y.endedAt.toFixed(1)} ms`;
}
