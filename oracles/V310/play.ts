/**
 * V310's scenario: A takes the lock and is stopped (SIGSTOP, --variant pause) or held inside its
 * release before its delete (--variant narrow, or an explored point) until its TTL lapses and B
 * takes the lock; A's release goes on; then B checks its own lease, the store is read and C tries.
 * On a file store an explored point may be in A's renewal (renewal.ts), which A makes before its
 * release: held there until B takes the lock, with A releasing meanwhile (--renewal across-release)
 * or not (stalls). --variant failover (./failover.ts): A's lock lost in a failover of the master
 * instead of a stop, B takes it on the promoted node, and A releases.
 * Records what happened (V310Observations); judges nothing.
 */
import type { ParamValues } from '../../src/core/params.ts';
import { TargetCallError } from '../../src/core/errors.ts';
import { acquireWithin } from '../../scenarios/retry-acquire.ts';
import type { LeaseSummary } from '../../src/holder/holder-protocol.ts';
import type { CallOutcome, Holder } from '../../src/holder/holder.ts';
import { armPoint } from '../../src/oracle/arm-point.ts';
import type { ObservedLock, Scenario } from '../../src/oracle/scenario.ts';
import { heldStop, latchStop } from '../../src/faults/stops.ts';
import { partitionStop } from '../../src/faults/cut-off.ts';
import type { WireProxy } from '../../src/wire/proxy.ts';
import { matchesPattern } from '../../src/wire/command.ts';
import { countBSide } from './b-window.ts';
import type { ARenewal, BSide, LockReading, V310Observations } from './observations.ts';
import type { v310Params } from './params.ts';
import { RENEWAL, renewsBeforeRelease } from './renewal.ts';
import { showsLockOf } from './owner.ts';
import { flowOf } from '../../scenarios/fault-flows.ts';
import type { ExploreFault } from '../../src/core/fault.ts';

export async function playV310(s: Scenario, p: ParamValues<typeof v310Params>): Promise<V310Observations> {
  const o = await playRun(s, p);
  // What the judge tells each reading's owner from: the holders' own calls that made the lock.
  return { ...o, owners: s.ownerFacts() };
}

async function playRun(s: Scenario, p: ParamValues<typeof v310Params>): Promise<V310Observations> {
  // An explored point (--explore) lands inside the release like the narrow variant, at its own boundary.
  const holdAtWire = p.variant === 'narrow' && (p.hold !== 'seam' || s.point !== undefined);
  // A talks through its wire proxy wherever the family can tell a lock from a command: a target
  // that declares no storeKey then has its lock's location inferred from A's own acquire.
  const wireA = holdAtWire || s.family.commands.lockLocations ? await s.wire('A') : undefined;
  const point = s.point;
  const where = point
    ? `at ${point.boundary.part}#${point.boundary.index} (${point.boundary.text})`
    : 'inside its release, before its delete';
  const a = await s.holder('A', wireA ? { url: wireA.url } : {});
  // B and C load while A takes the lock, and are awaited while A is stopped or held: its lease
  // lapses meanwhile anyway, and B's lease (the window judged) begins only after both are ready.
  const contenders = Promise.all([s.holder('B'), s.holder('C')]);
  contenders.catch(() => undefined); // awaited below; a run that ends before then is checked by the engine
  const retryEvery = Math.max(5, Math.round(p.ttl / 10));
  const o: V310Observations = {
    point: point ?? null,
    inferred: null,
    leaseA: null,
    atA: null,
    hold: null,
    storeRan: null,
    renewalsWhileHeld: null,
    b: null,
    seenB: null,
    aRenewal: null,
    afterRenewal: null,
    aRelease: null,
    bSide: null,
    after: null,
    c: null,
  };

  // A variant whose fault's flow lands once A holds the lock (--variant failover): armed before A acquires.
  const onceLocked = flowOf(p.variant as ExploreFault)?.onceLocked;
  const failOverNow = onceLocked ? await onceLocked.arm(s, p, `V310 --variant ${p.variant}`) : undefined;
  const aAcquireStartedAt = s.now();
  const leaseA = await a.acquire();
  o.leaseA = leaseA;
  if (!leaseA) return o;
  o.atA = await located('after A acquired', 'A', aAcquireStartedAt);
  // Nothing at env.key and no storeKey: where A's own acquire took its lock (SET … NX, a script's keys).
  if (!o.atA.lock.exists && (o.inferred = s.inferLockLocation('A', aAcquireStartedAt) ?? null))
    o.atA = await located('after A acquired, where its acquire took the lock', 'A', aAcquireStartedAt);
  // Not where the harness looks (and not read too late to tell: then B's fresh lease is read for it):
  // nothing can be judged, so A lets go and the run ends (the judge says why).
  const aLate = !o.atA.lock.exists && o.atA.lookedAfterMs >= p.ttl;
  const foundA = showsLockOf({ ...o, owners: s.ownerFacts() }, o.atA.lock, 'A');
  if (!aLate && !foundA) {
    await s.within(a.release(leaseA), p.timeout);
    return o;
  }

  let b: Holder;
  let c: Holder;
  if (p.variant === 'pause') {
    await a.pause();
    s.progress(`A stopped (SIGSTOP) holding the lock; waiting for its ${p.ttl} ms TTL to lapse and B to take the lock`);
    [b, c] = await contenders;
    await bAcquires(b, () => a.isPaused);
    o.beforeARelease = reading(await s.observeLock("B's lease just before A is let go to release"));
    const stoppedMs = a.resume();
    s.progress(`A resumed after ${stoppedMs.toFixed(0)} ms and releases`);
    const release = await s.within(a.release(leaseA), p.timeout);
    o.aRelease = { finished: release !== undefined, error: release?.error ?? null };
  } else if (failOverNow) {
    // B and C connected before the failover: a connect cut by it would be the target's error, not the lock's.
    [b, c] = await contenders;
    o.failover = await failOverNow();
    s.progress(`B takes the lock on the promoted ${o.failover.promoted}; then A, holding its lease, releases`);
    const aLeaseUntil = o.failover.aLeaseUntil;
    await bAcquires(b, () => aLeaseUntil !== null && s.now() < aLeaseUntil);
    o.beforeARelease = reading(await s.observeLock("B's lease just before A releases"));
    const release = await s.within(a.release(leaseA), p.timeout);
    o.aRelease = { finished: release !== undefined, error: release?.error ?? null };
  } else {
    // On a file store A renews before it releases, as traced; a point in the renewal is armed before it.
    const renews = point !== undefined && (await renewsBeforeRelease(s, a));
    const atRenewal = renews && point.boundary.part === RENEWAL;
    if (renews && !atRenewal) o.aRenewal = await renewed(a.extend(leaseA, p.ttl));
    const stop = point
      ? armPoint(point, a, wireA, s)
      : holdAtWire && wireA
        ? p.hold === 'partition'
          ? partitionStop(a, wireA, { command: s.lockCommands('delete'), nth: 1 }, PARTITION_WHAT, WIRE_MISSED)
          : heldStop(wireA.hold(s.lockCommands('delete')), "A's delete held at its wire proxy", WIRE_MISSED)
        : latchStop(a.holdSeam('release:before-delete'), 'A held at env.seam("release:before-delete")', SEAM_MISSED);
    const ran = wireA ? countStoreRuns(wireA) : undefined;
    // A's renewals of its lock the store answered while A was held (its own timer keeping its lease).
    const renewals = wireA && s.family.commands.renewal ? countRenewals(wireA, stop.reached) : undefined;
    const renewal = atRenewal ? a.extend(leaseA, p.ttl) : undefined;
    let release = atRenewal ? undefined : a.release(leaseA);
    const first = await s.within(
      Promise.race([stop.reached.then(() => 'stop' as const), (renewal ?? release!).then(() => 'done' as const)]),
      p.timeout,
    );
    o.hold = { outcome: first === 'stop' ? 'held' : first === 'done' ? 'finished' : 'timed-out', missed: stop.missed };
    if (first !== 'stop') {
      stop.release();
      ran?.stop();
      return o;
    }
    const across = atRenewal && p.renewal === 'across-release';
    s.progress(
      `A held ${where}${across ? ' and releasing meanwhile' : ''}; waiting for B to take the lock (A's ${p.ttl} ms TTL)`,
    );
    if (across) release = a.release(leaseA);
    [b, c] = await contenders;
    await bAcquires(b, () => !stop.isReleased);
    o.renewalsWhileHeld = renewals?.stop() ?? null;
    o.beforeARelease = reading(await s.observeLock("B's lease just before A is let go to release"));
    o.hold = { ...o.hold, liftedAt: s.now() };
    stop.release();
    if (renewal) {
      o.aRenewal = await renewed(renewal);
      o.afterRenewal = reading(await s.observeLock("after A's renewal"));
    }
    const outcome = await s.within((release ??= a.release(leaseA)), p.timeout);
    o.aRelease = {
      finished: outcome !== undefined,
      error: outcome?.error ?? null,
      ...(outcome ? { endedAt: outcome.endedAt } : {}),
    };
    o.storeRan = ran?.stop() ?? null;
  }

  // B's own view first: an extend renews B's lease, so the store and C are then read inside it.
  const leaseB = o.b!.lease;
  const bExtends = (await b.ready).members.includes('extend');
  if (bExtends && leaseB) o.bSide = await checkB(b, leaseB, 'extend');
  const after = reading(await s.observeLock("after A's release"));
  o.after = after;
  const leaseC = await c.acquire();
  o.c = { lease: leaseC, answeredAt: s.now() };
  if (!bExtends && leaseB && !leaseC) o.bSide = await checkB(b, leaseB, 'release');
  // B's own lease, still B's in the store, gave B no reason to be refused: its throw is the target's error.
  const bLeaseIntact = showsLockOf({ ...o, owners: s.ownerFacts() }, after, 'B');
  if (o.bSide && o.bSide.threw !== null && bLeaseIntact)
    throw new TargetCallError(
      'B',
      o.bSide.member,
      o.bSide.threw,
      "on its own lease, which the store still showed as B's",
    );
  for (const text of countBSide({ ...o, owners: s.ownerFacts() }, p.ttl).notes) s.note(text);
  return o;

  /**
   * Counts the store's replies to A's commands on the lock from now until `stop()`, per command text;
   * renewals (a timer's, sent again and again with the same text) are not the release's and not counted.
   */
  function countStoreRuns(wire: WireProxy) {
    const times = new Map<string, number>();
    const renewal = s.family.commands.renewal?.(s.lockLocation) ?? [];
    const unsubscribe = wire.on((event) => {
      if (event.type !== 'reply' || renewal.some((pattern) => matchesPattern(event.command, pattern))) return;
      const { text, args } = event.command;
      if (s.family.commands.touches({ text, args }, s.lockLocation)) times.set(text, (times.get(text) ?? 0) + 1);
    });
    return {
      stop: () => {
        unsubscribe();
        return [...times].map(([command, n]) => ({ command, times: n }));
      },
    };
  }

  /** Counts the store's replies to A's renewals of its lock once `from` resolved, until `stop()`. */
  function countRenewals(wire: WireProxy, from: Promise<unknown>) {
    const renewal = s.lockCommands('renewal');
    let counting = false;
    let times = 0;
    from.then(
      () => (counting = true),
      () => undefined,
    );
    const unsubscribe = wire.on((event) => {
      if (counting && event.type === 'reply' && renewal.some((pattern) => matchesPattern(event.command, pattern)))
        times += 1;
    });
    return {
      stop: () => {
        unsubscribe();
        return times;
      },
    };
  }

  /** A's renewal, once it returned (or --timeout passed). */
  async function renewed(call: Promise<{ extended: boolean; outcome: CallOutcome }>): Promise<ARenewal> {
    const answer = await s.within(call, p.timeout);
    return {
      finished: answer !== undefined,
      extended: answer?.extended ?? null,
      error: answer?.outcome.threw ? (answer.outcome.error ?? '') : null,
    };
  }

  /** B retries until it takes the lock (A's lease lapsed), then the lock is read on B's fresh lease. */
  async function bAcquires(holder: Holder, aStillStopped: () => boolean) {
    // A's lease has surely lapsed by the store's clock once the PTTL read after A acquired has run
    // from when its answer came: B tries then too.
    const lock = o.atA?.lock;
    const freesAt = lock?.exists && lock.pttlMs >= 0 ? lock.receivedAt + lock.pttlMs + 1 : undefined;
    const got = await acquireWithin(
      holder,
      () => s.now(),
      p.timeout,
      retryEvery,
      freesAt === undefined ? {} : { freesAt },
    );
    o.b = {
      lease: got.lease,
      attempts: got.attempts,
      startedAt: got.lastAttemptAt ?? 0,
      aStillStopped: aStillStopped(),
    };
    o.seenB = await located('after B acquired', 'B', o.b.startedAt);
  }

  /** Read the lock while `who` holds it, `since` the harness ms its acquire began. */
  async function located(label: string, who: string, since: number) {
    const lock = reading(await s.observeLock(label));
    const lookedAfterMs = s.now() - since;
    return { lock, lookedAfterMs, notFound: s.lockNotFound(`while ${who} held the lock`, lookedAfterMs, lock.free) };
  }

  /** B extends (or releases) its own lease: it must still be B's after A's stale release. */
  async function checkB(holder: Holder, lease: LeaseSummary, member: 'extend' | 'release'): Promise<BSide> {
    // A release that returns false says it found the lock was no longer its own.
    const answer =
      member === 'extend'
        ? await holder.extend(lease, p.ttl)
        : await holder.release(lease).then((outcome) => ({ extended: outcome.ok && outcome.value !== false, outcome }));
    return {
      member,
      ok: answer.extended,
      endedAt: s.now(),
      threw: answer.outcome.threw ? (answer.outcome.error ?? '') : null,
    };
  }
}

const PARTITION_WHAT =
  'A cut off at its wire proxy from its delete on (its store traffic held both ways while it runs)';

/** The raw reading (its PTTL), without the extrapolated end, which is unbounded for a key with no expiry. */
function reading({ liveUntil: _, ...lock }: ObservedLock): LockReading {
  return lock;
}

const WIRE_MISSED =
  'A\'s release finished without sending a delete of the lock\'s key the wire proxy recognises (DEL, UNLINK, DELEX, or EVAL/EVALSHA/FCALL of a script calling del/unlink, naming the key; for a lock in a hash field also HDEL of the field, HSET of it to an empty string, or a script calling hdel or hset with one; declare the key with storeKey(env) when it is not env.key): nothing was held between its check and its delete. If the release deletes another way, run with --hold seam and call env.seam("release:before-delete") before the delete';

const SEAM_MISSED =
  'A\'s release finished without reaching env.seam("release:before-delete"): the target has no such seam, so the pause could not land between its check and its delete (use --hold wire, which needs no seam)';
