/**
 * V311's judgement, a pure function of what play recorded: after A is killed holding the lock, the
 * lock must free — a contender (B; or one of B, C, … with --contenders 3 or more) takes it within
 * TTL + grace, or late, within the patience bound (a PASS with its lifetime; with --strict-ttl on, a
 * FAIL: it frees, but not within its TTL) — and no two contenders may hold it at once. A lock still
 * held is said never to free only once the contenders were denied to the patience bound, the bound
 * named. A key with no expiry (PTTL -1) is the finding when nobody took it over by then; one the
 * helper's own staleness rule took over is not. Judged only when A (or the explored contender) was
 * stopped where asked, the key existed with no longer a TTL than the patience bound, the kill was a
 * real SIGKILL, a denial counted came on A's key after it should have lapsed, and two grants, if
 * any, came while both leases surely lived.
 */
import { nothingProven, type Check, type Judgement } from '../../src/core/judgement.ts';
import type { ParamValues } from '../../src/core/params.ts';
import type { Recorded } from '../../src/oracle/definition.ts';
import { pointInWords } from '../../src/oracle/explore-point.ts';
import { grantedApart, heldAtOnce, type ContenderTry } from '../../scenarios/contenders.ts';
import type { V311Observations } from './observations.ts';
import { sameLock } from '../../src/judging/ownership.ts';
import { patienceMs, type v311Params } from './params.ts';
import { endRead, lockOutcome, PATIENCE_WAITED, patienceWaited, storeFreedWords, type LockOutcome } from './outcome.ts';

export { PATIENCE_WAITED };
import { judgeSessionLockV311, SESSION_LOCK_PRECONDITIONS } from './judge-session-lock.ts';

export const STOPPED_BETWEEN = 'A was stopped between creating the key and anything else';
export const STOPPED_AT_POINT = 'A was stopped at the explored point';
export const KEY_EXISTED = 'the key existed when A was killed';
export const TTL_WITHIN_PATIENCE = 'the key carried no longer a TTL than the patience bound';
export const KILLED = 'A was killed';
export const LAST_TRY_LAPSED = "B's last try came after the key lapsed by its PTTL";
export const A_KEY_STILL_HELD = "A's key still held the lock when B gave up";
export const GRANTS_OVERLAPPED = 'two grants came while both leases surely lived';
export const LIVE_PAST_TTL = "the store's view showed the lock live past TTL + grace";

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
    name: TTL_WITHIN_PATIENCE,
    checks:
      "the key's PTTL at the kill was -1 (no expiry: the finding) or at most the patience bound (--patience; a longer TTL than --ttl is judged by the lifetime the run measures)",
  },
  { name: KILLED, checks: "A's process ended by SIGKILL" },
  {
    name: LAST_TRY_LAPSED,
    checks:
      'B, still denied (at the patience bound; with --strict-ttl on and the lock taken late, at TTL + grace), tried last after the key had lapsed by the PTTL read right after the kill',
  },
  {
    name: A_KEY_STILL_HELD,
    checks:
      "B, still denied (as above), gave up while the key still held A's token or had no expiry, or the store kept A's lapsed record (a lease row past its expiry)",
  },
  {
    name: PATIENCE_WAITED,
    checks:
      "the lock still held: the contenders kept trying, denied, until the patience bound (--patience) from A's take; a run that stopped short of it (one recorded before --patience stopped at TTL + grace) shows a late lock, not one that never frees",
  },
  {
    name: LIVE_PAST_TTL,
    checks:
      "--strict-ttl on, the lock taken by a try begun past TTL + grace with none denied then (an explored contender's): the key's PTTL, read right after the kill, ran past TTL + grace from A's take",
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
  const out = lockOutcome(o, p);
  const strict = p.strictTtl === 'on';
  const tries = o.contenders ?? [];
  const everyTry = out?.everyTry ?? tries;
  const atOnce = heldAtOnce(everyTry, p.ttl);
  const apart = grantedApart(everyTry, p.ttl);
  const stoppedWho = point?.holder && point.holder !== 'A' ? `${point.holder}'s takeover` : "A's acquire";
  const preconditions: Check[] = [];
  const reads = history.filter((e) => e.kind === 'store-observed' && e.detail.exists === true);
  const immortal = reads.filter((e) => e.detail.pttlMs === -1);
  // A key with no expiry is the finding, unless it never had one in any read and a contender
  // still took it over: the lock's expiry is then the helper's own (an expiry in the value, a
  // file's stale rule, compared on the contender's clock). A key seen with an expiry and without
  // one had its TTL set apart from its creation: the finding, whoever took it over.
  const expiryOfItsOwn = immortal.length > 0 && immortal.length === reads.length;
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
  if (o.sessionLocks)
    return judgeSessionLockV311(o, history, p, [...killedCheck(), ...overlapCheck()], pairInWords, out);
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
  // A key with no expiry at all is this oracle's finding; one longer than the patience bound could
  // not be expected to free within it. A longer TTL than --ttl is judged by the lifetime measured.
  const patience = out?.patienceMs ?? patienceMs(p);
  const ttlWithin = atKill.pttlMs === -1 || atKill.pttlMs <= patience;
  preconditions.push({
    name: TTL_WITHIN_PATIENCE,
    held: ttlWithin,
    detail: ttlWithin
      ? `PTTL at the kill: ${atKill.pttlMs} ms (--ttl ${p.ttl}, patience bound ${patience} ms)`
      : `PTTL at the kill was ${atKill.pttlMs} ms, longer than the ${patience} ms patience bound: the contenders could not be expected to take the lock within it (give a longer --patience, or check the target uses env.ttlMs)`,
  });
  preconditions.push(...killedCheck());
  if (!afterKill || !b || !out) return judged(undefined);
  // B denied counts only if its last try began after the key had surely lapsed by the store's own
  // PTTL (read right after the kill; A, dead, cannot renew it): a loaded machine can end B's budget
  // before B ever tries past the expiry. A key with no expiry (PTTL -1) needs no such window.
  const lapsedBy = !afterKill.exists
    ? afterKill.receivedAt
    : afterKill.pttlMs < 0
      ? undefined
      : afterKill.receivedAt + afterKill.pttlMs;
  // A denial counts where the verdict rests on it: still held at the patience bound; or, with
  // --strict-ttl on, taken late (denied at TTL + grace).
  if (out.kind === 'held') {
    preconditions.push(patienceWaited(out, o));
    deniedChecks(out.lastAttemptAt, endRead(o), 'the patience bound');
  } else if (out.kind === 'late' && strict && !b.granted) deniedChecks(b.lastAttemptAt, stuck, 'TTL + grace');
  else if (out.kind === 'late' && strict) {
    // Taken by a try begun past TTL + grace with no denial then: only the store's view can show the lock outlived it.
    const by = o.heldSince! + p.ttl + p.grace;
    preconditions.push({
      name: LIVE_PAST_TTL,
      held: lapsedBy !== undefined && lapsedBy > by,
      detail:
        lapsedBy === undefined
          ? 'the key had no expiry in the store, and no contender tried it at TTL + grace: nothing shows it still held then'
          : `by the PTTL read right after the kill the key lapsed at ${lapsedBy.toFixed(1)} ms, ${lapsedBy > by ? 'after' : 'before'} TTL + grace (${by.toFixed(1)} ms)`,
    });
  }
  preconditions.push(...overlapCheck());
  return judged(out);

  /**
   * B denied counts only if its last try (by `gaveUpAt`) began after the key lapsed by its PTTL,
   * and while the store still showed A's key (or one with no expiry) when B gave up. A key gone, or
   * holding a token not A's, shows A's key lapsed (and, with a token, was taken again: only B
   * tries): B's denial is then B's own (redlock refusing by its own clock after a slow reply, say),
   * not A's lock outliving its TTL, and is not counted.
   */
  function deniedChecks(lastTry: number, read: typeof stuck, gaveUpAt: string): void {
    if (lapsedBy !== undefined)
      preconditions.push({
        name: LAST_TRY_LAPSED,
        held: lastTry >= lapsedBy,
        detail:
          lastTry >= lapsedBy
            ? `B's last try (by ${gaveUpAt}) began at ${lastTry.toFixed(1)} ms, after the key's expiry (by ${lapsedBy.toFixed(1)} ms by the PTTL read right after the kill)`
            : `B's last try (by ${gaveUpAt}) began at ${lastTry.toFixed(1)} ms, before the key lapsed (by ${lapsedBy.toFixed(1)} ms by the PTTL read right after the kill), and B's budget ran out before another: no try of B came on a lapsed key`,
      });
    if (lapsedBy !== undefined && lastTry < lapsedBy) return;
    // A store that keeps a lapsed record (a lease row past its lease_until) leaves the takeover to the
    // taker's own check of the expiry: A's record still there, lapsed, and B denied is that check failing.
    const aRecordKept = read?.lapsedRecord !== undefined && read.lapsedRecord.value === atKill!.value;
    if (read && !aRecordKept && !(read.exists && (read.pttlMs < 0 || sameLock(read, atKill!))))
      preconditions.push({
        name: A_KEY_STILL_HELD,
        held: false,
        detail:
          (read.exists
            ? `when B gave up (${gaveUpAt}), ${read.where} gave ${JSON.stringify(read.value)} (PTTL ${read.pttlMs} ms), not A's ${JSON.stringify(atKill!.value)}${read.value === atKill!.value ? ` (the same value, but another lock: inode ${read.ino}, A's was ${atKill!.ino})` : ''}: A's key had lapsed and been taken again`
            : `when B gave up (${gaveUpAt}), ${read.where} ${read.free ?? 'found nothing'}: A's key had lapsed and the lock was free by the store`) +
          `, so B's denial is the target's own (its client's clock, say; or a lock kept elsewhere than storeKey(env) says), not A's lock outliving its TTL`,
      });
  }

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

  function judged(outcome: LockOutcome | undefined): Judgement {
    const freed = outcome !== undefined && outcome.kind !== 'held' && (outcome.kind === 'in-time' || !strict);
    const held = freed && atOnce.length === 0 && (immortal.length === 0 || expiryOfItsOwn);
    const grants = history.filter((e) => e.kind === 'acquire-ok' && e.holder !== 'A');
    return {
      preconditions,
      counts: {
        bAcquired: outcome && outcome.kind !== 'held' ? 1 : 0,
        contendersAfterA: Math.max(1, tries.length),
        contendersGranted: everyTry.length
          ? everyTry.filter((t) => t.granted).length
          : outcome && outcome.kind !== 'held'
            ? 1
            : 0,
        pairsHoldingAtOnce: atOnce.length,
        bWaitedMs: outcome ? Math.round(outcome.lifetimeMs) : 0,
        bAttempts: outcome?.attempts ?? 0,
        observationsWithNoExpiry: immortal.length,
        tookLate: outcome?.kind === 'late' ? 1 : 0,
        patienceMs: outcome?.patienceMs ?? patienceMs(p),
        waitedToPatience: outcome?.waitedToBound ? 1 : 0,
        storeFreedAfterMs: outcome?.storeFreed ? Math.round(outcome.storeFreed.afterMs) : -1,
      },
      property: {
        name: PROPERTY,
        held,
        detail: !outcome
          ? 'not judged'
          : atOnce.length
            ? `${atOnce.map(pairInWords).join('; ')}: two contenders held the dead holder's lock at once`
            : `${outcomeInWords(outcome, p, tries.length > 1)}; ${immortal.length ? `the key had no expiry (PTTL -1) in ${expiryOfItsOwn ? 'all ' : ''}${immortal.length} observation(s)` : 'the key always had an expiry'}`,
        offending: held ? [] : atOnce.length ? grants : immortal.length ? immortal : bDenied,
      },
      explanation: explain(held, outcome),
    };
  }

  function explain(held: boolean, outcome: LockOutcome | undefined): string {
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
    const taker = outcome.taker ?? 'B';
    const life = outcome.lifetimeMs.toFixed(0);
    const others = tries.length > 1 ? `, and no other of the ${tries.length} contenders held it meanwhile` : '';
    const late = outcome.kind === 'late';
    const lateWords = `${taker} took it ${life} ms after A had taken it, ${(outcome.lifetimeMs - p.ttl).toFixed(0)} ms past its TTL of ${p.ttl} ms (grace ${p.grace} ms; patience bound ${outcome.patienceMs} ms)${storeFreedWords(outcome)}`;
    const denied = tries.length > 1 ? 'every contender was' : 'B was';
    if (atOnce.length)
      return `${killed} ${atOnce.map(pairInWords).join('; ')}: two contenders took the dead holder's lock and held it at once. A takeover that checks the lock is stale and then removes and re-creates it lets a contender delayed between its check and its removal delete the lock another contender has just taken; take it over in one atomic step (on Redis a compare-and-swap script on the value seen; a file lock: claim it by an atomic rename and check it is still the stale one).`;
    if (held && late)
      return `${killed} The lock freed late: ${lateWords}${immortal.length ? `; the key had no expiry in the store (PTTL -1), so the helper's own staleness rule took it over` : ''}${others}. The lock frees, so this PASSes with its lifetime; run with --strict-ttl on to hold it to its TTL.`;
    // A flock lock: the kernel dropped it with A's open file; its lock file stays behind.
    if (held && afterKill?.kernelLocks && !afterKill.exists)
      return `${killed} The lock is a kernel lock on its file (flock): /proc/locks listed no lock on it right after the kill (${afterKill.ino === undefined ? 'no file was there' : `its file stayed, inode ${afterKill.ino}`}): the kernel had dropped it with A's open file, and ${taker} took the lock ${life} ms after A had taken it (TTL ${p.ttl} ms)${others}.`;
    if (held)
      return immortal.length
        ? `${killed} The key had no expiry in the store (PTTL -1), but the helper's own staleness rule took it over: ${taker} took the lock ${life} ms after A had taken it (TTL ${p.ttl} ms)${others}.`
        : `${killed} The key carried an expiry, so it lapsed and ${taker} took the lock ${life} ms after A had taken it (TTL ${p.ttl} ms)${tries.length > 1 ? `; no other of the ${tries.length} contenders held it meanwhile` : ''}.`;
    const fix =
      'Give the lock its expiry in the same step that takes it (on Redis: SET key token PX ttl NX; a file lock: a staleness rule on its age).';
    if (immortal.length && !expiryOfItsOwn && outcome.kind !== 'held')
      return `${killed} The key had no expiry (PTTL -1) in ${immortal.length} of ${reads.length} read(s) and an expiry in the others: its TTL was set apart from its creation, so a holder killed between the two leaves a key with no expiry. ${taker} took the lock only ${life} ms after A took it. ${fix}`;
    if (late)
      return `${killed} The lock frees, but not within its TTL (--strict-ttl on): ${b?.granted ? "by the store's view the key lived past TTL + grace" : "the contenders were still denied at TTL + grace on A's lock"}, and ${lateWords}. Make the lock's stale rule match the TTL it is given (a library that stamps its lock's mtime ahead, or adds a margin to its stale time, keeps a dead holder's lock past it).`;
    const bound = `still held after the ${outcome.patienceMs} ms patience bound (--patience): ${denied} denied ${life} ms after A took it (${outcome.attempts} attempts)`;
    if (immortal.length)
      return `${killed} The key it left had no expiry (PTTL -1${expiryOfItsOwn ? ' throughout' : ` in ${immortal.length} read(s)`}), and the lock was ${bound}; so no later holder can take it until something removes the key. ${fix}`;
    const row = endRead(o)?.lapsedRecord;
    if (row)
      return `${killed} Its row (${endRead(o)!.where}) lapsed by the database's clock ${row.lapsedMs} ms before B gave up, still A's, yet the lock was ${bound}: the takeover's own check did not see the row lapse in all that time. Compare the expiry with the database's clock at each try (a try in a transaction of its own: now() is frozen at a transaction's start), or with clock_timestamp().`;
    return `${killed} The key kept an expiry, but the lock was ${bound}, past TTL ${p.ttl} + grace ${p.grace} ms: the lock outlived its TTL.`;
  }
}

const PROPERTY =
  "the dead holder's lock frees: a contender takes it within TTL + grace, or late within the patience bound (a FAIL with --strict-ttl on); no two hold it at once";

/** The verdict line's account: who took the lock when, against the TTL and the patience bound. */
function outcomeInWords(out: LockOutcome, p: ParamValues<typeof v311Params>, several: boolean): string {
  const life = out.lifetimeMs.toFixed(0);
  if (out.kind === 'in-time')
    return `${out.taker} took the lock ${life} ms after A took it (TTL ${p.ttl} + grace ${p.grace} ms)`;
  if (out.kind === 'late')
    return `${p.strictTtl === 'on' ? 'the lock frees, but not within its TTL' : 'freed late'}: ${out.taker} took the lock ${life} ms after A took it, past TTL ${p.ttl} + grace ${p.grace} ms (lifetime ${life} ms against TTL ${p.ttl} ms${storeFreedWords(out)})`;
  const who = several ? 'every contender was' : 'B was';
  return out.waitedToBound
    ? `still held after the ${out.patienceMs} ms patience bound: ${who} still denied ${life} ms after A took it (${out.attempts} attempts)`
    : `${who} still denied ${life} ms after A took it (${out.attempts} attempts), short of the ${out.patienceMs} ms patience bound`;
}

/** "B granted at 612.3 ms and C at 618.9 ms" */
function pairInWords([x, y]: [ContenderTry, ContenderTry]): string {
  return `${x.holder} was granted the lock at ${x.endedAt.toFixed(1)} ms and ${y.holder} at ${y.endedAt.toFixed(1)} ms`;
}
