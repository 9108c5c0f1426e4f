/**
 * V311's scenario: A takes the lock and is killed (SIGKILL) right after its acquire returned
 * (--variant after-acquire), or stopped at the seam acquire:after-set (--variant between-commands)
 * or an explored point and killed there; the contenders (B, and C, D, … with --contenders 3 or
 * more) then retry together for TTL + grace from when A took the key, and, the lock still held
 * then, on until it frees or the patience bound (watch.ts). An explored point on a
 * contender (its takeover of the dead holder's lock) lets that contender try once A's lease has
 * lapsed, holds it at the point, lets each of the others try once meanwhile, then lets it go on.
 * Records what happened (V311Observations); judges nothing.
 */
import type { ParamValues } from '../../src/core/params.ts';
import type { LockState, Scenario } from '../../src/oracle/scenario.ts';
import { asOne, contenderIds, raceTogether, tryOnce, type ContenderTry } from '../../scenarios/contenders.ts';
import { armPoint } from '../../src/oracle/arm-point.ts';
import { latchStop, type Stop } from '../../src/faults/stops.ts';
import type { V311Observations } from './observations.ts';
import { grantedSessionLocks, onSessionLock } from './session-lock.ts';
import { patienceMs, type v311Params } from './params.ts';
import { watchLock } from './watch.ts';

export async function playV311(s: Scenario, p: ParamValues<typeof v311Params>): Promise<V311Observations> {
  // An explored point (--explore) stops A inside its acquire like the seam, at its own boundary, or
  // (a point on a contender) stops that contender inside its takeover.
  const point = s.point;
  const onContender = point?.holder !== undefined && point.holder !== 'A' ? point.holder : undefined;
  const pointOnA = onContender ? undefined : point;
  const ids = contenderIds(p.contenders);
  // A talks through its wire proxy wherever the family can tell a lock from a command: a target that
  // declares no storeKey then has its lock's location inferred from A's own acquire.
  const wireA = pointOnA || s.family.commands.lockLocations ? await s.wire('A') : undefined;
  const wireHeld = onContender ? await s.wire(onContender) : undefined;
  const [a, ...contenders] = await Promise.all([
    s.holder('A', wireA ? { url: wireA.url } : {}),
    ...ids.map((id) => s.holder(id, id === onContender && wireHeld ? { url: wireHeld.url } : {})),
  ]);
  const o: V311Observations = {
    point: point ?? null,
    stop: null,
    heldSince: null,
    atKill: null,
    exit: null,
    afterKill: null,
    b: null,
    contenders: null,
    stuck: null,
    watch: null,
    inferred: null,
  };
  const acquireStartedAt = s.now();
  // A session advisory lock (Postgres, no lease row declared) is read in pg_locks, not at a location.
  const session = onSessionLock(s);

  if (p.variant === 'after-acquire' || onContender) {
    const lease = await a.acquire();
    o.heldSince = s.now();
    if (lease) await beforeKill('A acquired; about to kill A');
  } else {
    const seam = point ? undefined : a.holdSeam('acquire:after-set');
    const stop = seam
      ? latchStop(seam, 'A held at env.seam("acquire:after-set")', SEAM_MISSED)
      : armPoint(point!, a, wireA, s);
    const acquire = a.acquire();
    const first = await s.within(
      Promise.race([stop.reached.then(() => 'seam' as const), acquire.then(() => 'done' as const)]),
      p.timeout,
    );
    o.stop = {
      outcome: first === 'seam' ? 'reached' : first === 'done' ? 'finished' : 'timed-out',
      missed: stop.missed,
    };
    if (first !== 'seam') return o;
    o.heldSince = seam?.hit?.t ?? s.now();
    await beforeKill(
      point
        ? `A stopped at ${point.boundary.part}#${point.boundary.index}; about to kill A`
        : 'A held after creating the key; about to kill A',
    );
  }
  if (session ? !o.sessionLocks?.atKill.some((lock) => lock.holder === 'A') : !o.atKill?.exists) return o;

  s.progress(`killing A (SIGKILL) while it holds the lock (${p.variant})`);
  const exit = await a.kill();
  o.exit = { signal: exit.signal ?? null, code: exit.code ?? null, t: exit.t };
  if (session) o.sessionLocks!.afterKill = await grantedSessionLocks(s, 'right after the kill');
  else {
    const afterKill = await s.observeLock('right after the kill');
    o.afterKill = { ...lockState(afterKill), receivedAt: afterKill.receivedAt };
  }
  const heldSince = o.heldSince;
  const budget = () => Math.max(0, heldSince + p.ttl + p.grace - s.now());
  const everyMs = Math.max(5, Math.round(p.ttl / 10));
  const now = () => s.now();
  const who = ids.length > 1 ? `the ${ids.length} contenders (${ids.join(', ')}) retry together` : 'B retries';
  let tries: ContenderTry[];
  if (!onContender) {
    s.progress(`${who} for up to ${budget().toFixed(0)} ms (TTL ${p.ttl} + grace ${p.grace} from when A took the key)`);
    tries = await raceTogether(contenders, now, budget(), everyMs);
  } else {
    const held = contenders.find((h) => h.id === onContender)!;
    // The held contender tries once A's lease has lapsed (A's take + TTL, and the PTTL the store's
    // view still gives it then), so its attempt is the takeover traced.
    await s.sleep(Math.max(0, heldSince + p.ttl - s.now()));
    const until = heldSince + patienceMs(p);
    const left = session ? undefined : await s.readLock();
    if (left?.exists && left.pttlMs > 0) await s.sleep(Math.min(left.pttlMs + 1, Math.max(0, until - s.now())));
    // A file lock whose lapse the store's view cannot show (PTTL -1: no stale time declared) may
    // free later than its TTL: as in the trace, the held contender tries again until a try reaches
    // the point (a point past the stale check is reached only by the try that takes the lock over),
    // or the patience bound.
    const lapseUnseen = left?.exists === true && left.pttlMs === -1 && point!.boundary.kind === 'fs';
    let denials = 0;
    let stop = armPoint(point!, held, wireHeld, s);
    let attempt = tryOnce(held, now);
    let first = await reachedOrDone(stop, attempt);
    while (first === 'done' && lapseUnseen && s.now() < until && !(await attempt).granted) {
      stop.release();
      denials += 1;
      await s.sleep(everyMs);
      stop = armPoint(point!, held, wireHeld, s);
      attempt = tryOnce(held, now);
      first = await reachedOrDone(stop, attempt);
    }
    o.stop = {
      outcome: first === 'point' ? 'reached' : first === 'done' ? 'finished' : 'timed-out',
      missed: stop.missed,
    };
    if (first !== 'point') {
      stop.release();
      return o;
    }
    const others = contenders.filter((h) => h !== held);
    // Each other contender acts once (its attempt on the stale lock) while the held one waits.
    s.progress(`${onContender} held at the point; ${others.map((h) => h.id).join(', ')} try the lock meanwhile`);
    const raced = await Promise.all(others.map((h) => tryOnce(h, now)));
    const releasedAt = s.now();
    stop.release();
    // Held before a command on the lock, the held contender took no lease before it was let go.
    const ownTry = { ...(await attempt), attempts: denials + 1 };
    tries = [point!.fault === 'hold-before' ? { ...ownTry, leaseFrom: releasedAt } : ownTry, ...raced];
  }
  o.contenders = tries;
  o.b = asOne(tries);
  if (o.b.granted) return o;
  const stillHeld = 'the contenders still denied at TTL + grace';
  if (session) o.sessionLocks!.stuck = await grantedSessionLocks(s, stillHeld);
  else o.stuck = lockState(await s.observeLock(stillHeld));
  // Still held at TTL + grace is late, not yet never: watch it to the patience bound.
  const patience = patienceMs(p);
  const until = heldSince + patience;
  s.progress(
    `the lock is still held ${(s.now() - heldSince).toFixed(0)} ms after A took it: ${who} until it frees or the ${patience} ms patience bound (--patience)`,
  );
  o.watch = await watchLock(s, contenders, {
    aLock: o.atKill ?? null,
    until,
    patienceMs: patience,
    everyMs,
    session,
  });
  return o;

  /** The held contender's try reached the explored point, ended first, or neither within --timeout. */
  function reachedOrDone(stop: Stop, attempt: Promise<ContenderTry>): Promise<'point' | 'done' | undefined> {
    return s.within(
      Promise.race([stop.reached.then(() => 'point' as const), attempt.then(() => 'done' as const)]),
      p.timeout,
    );
  }

  /** The lock read right before the kill (the key, with how the harness words it had it found nothing; or pg_locks). */
  async function beforeKill(label: string): Promise<void> {
    if (session) {
      o.sessionLocks = { atKill: await grantedSessionLocks(s, label), afterKill: null, stuck: null };
      return;
    }
    let state = lockState(await s.observeLock(label));
    // Nothing at env.key and no storeKey: where A's own acquire took its lock (SET … NX, a script's keys).
    if (!state.exists && (o.inferred = s.inferLockLocation('A', acquireStartedAt) ?? null))
      state = lockState(await s.observeLock(`${label}, where its acquire took the lock`));
    o.atKill = {
      ...state,
      notFound: s.lockNotFound('while A held the lock', s.now() - acquireStartedAt, state.free),
    };
  }
}

/** The reading itself (its PTTL: -1 for no expiry; a lapsed record the store kept), without the harness times an ObservedLock adds. */
function lockState({ where, exists, value, pttlMs, lapsedRecord, free, ino, kernelLocks }: LockState): LockState {
  return {
    where,
    exists,
    value,
    pttlMs,
    ...(lapsedRecord ? { lapsedRecord } : {}),
    ...(free ? { free } : {}),
    // A file lock's inode: a lock made again at the path is not A's, whatever it holds (sameLock).
    ...(typeof ino === 'number' ? { ino } : {}),
    // A flock lock: the kernel's locks on the file, with the holder each is (held or free by the kernel).
    ...(kernelLocks ? { kernelLocks } : {}),
  };
}

const SEAM_MISSED =
  'A\'s acquire returned without reaching env.seam("acquire:after-set"): the target has no such seam, so the kill could not land between its commands';
