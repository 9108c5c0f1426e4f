/**
 * V310 — a release without an owner check deletes the next holder's lock.
 *
 * Scenario (variant "pause"): A takes the lock, then is stopped (SIGSTOP) until its TTL lapses and
 * B takes the lock; A resumes and releases. Variant "narrow": A takes the lock and starts its
 * release, but is held after its GET-and-compare, before its delete, until its TTL lapses and B
 * takes the lock; then A's release goes on. Where A is held: `--hold wire` (default) keeps A's
 * delete command (DEL / UNLINK / a deleting script) at A's wire proxy, so no target change is
 * needed; `--hold seam` holds A at env.seam("release:before-delete").
 * Property: B's lock survives A's release, seen from three sides: the store (the lock's key, or the
 * target's storeKey, still holds B's token), B (its extend, or a second release when the target has
 * no extend, still succeeds on its live lease) and a third holder C (still denied). A release that
 * overwrites B's claim instead of deleting it (marks it done, resets a hash field) leaves C denied,
 * but B's own extend then fails.
 * Preconditions: A held the lock, and the harness found it where the target says it lives; A was
 * stopped/held until B took the lock; A's release ran; B checked its lease while it was still live.
 * Window: B's lease, from B's acquire until the end of its TTL (or of the PTTL read right after B
 * acquired, when later); the key read after A's release, C's try and B's own extend/release count
 * only when answered inside it (else INCONCLUSIVE: B's lease may simply have lapsed). B's refusal
 * that the store contradicts (B's token still in the key after A's release) is B's own (its client's
 * clock, say) and does not count.
 * Throws: acquire() throwing is ERROR; A's release may throw on a lease it lost (a helper's "not the
 * owner"): it may then never have reached the store (INCONCLUSIVE); B's extend/release throwing on a
 * lease the store still shows as B's is ERROR, on a lease gone or not B's it counts as refused.
 */
import { defineOracle } from '../src/oracle/definition.ts';
import { type Check, nothingProven } from '../src/core/judgement.ts';
import { acquireWithin } from '../scenarios/retry-acquire.ts';
import type { LeaseSummary } from '../src/holder/holder-protocol.ts';
import { type Holder } from '../src/holder/holder.ts';
import { TargetCallError } from '../src/core/errors.ts';
import type { LockState } from '../src/families/family.ts';
import type { ObservedLock } from '../src/oracle/scenario.ts';
import { latchStop, wireStop } from '../src/oracle/stops.ts';
import { armPoint } from '../src/oracle/arm-point.ts';
import { traceAcquireRelease } from '../src/oracle/traces.ts';
import { pointInWords } from '../src/oracle/explore-point.ts';

export default defineOracle({
  id: 'V310',
  title: 'Release without an owner check',
  class: 'LK-1 release without an owner check (incl. the narrow GET → compare → DEL)',
  scenario:
    'A takes the lock and is stopped (or, "narrow", held inside its release between its check and its delete) until its TTL lapses and B takes the lock; then A releases.',
  property:
    "B's lock survives A's release: the key still holds B's token, B can still extend (or release) its lease, and a third holder C is denied.",
  stores: ['redis', 'valkey', 'fs'],
  holders: ['A', 'B', 'C'],
  later: ['B', 'C'],
  params: {
    ttl: { kind: 'ms', default: 200, min: 20, doc: 'lock TTL the target is asked to use' },
    variant: {
      kind: 'choice',
      default: 'pause',
      choices: ['pause', 'narrow'],
      doc: 'pause: SIGSTOP A before its release; narrow: hold A inside its release, after its check, before its delete',
    },
    hold: {
      kind: 'choice',
      default: 'wire',
      choices: ['wire', 'seam'],
      doc: 'narrow: where A is held; wire: its delete command (DEL/UNLINK/deleting script) at its wire proxy, no target change; seam: env.seam("release:before-delete")',
    },
    timeout: { kind: 'ms', default: 5000, min: 100, doc: 'longest wait for any step' },
  },
  needs: () => ['acquire', 'release'],
  validate: (p) => (p.timeout <= p.ttl ? [`--timeout (${p.timeout}) must be longer than --ttl (${p.ttl})`] : []),
  explore: {
    part: 'release',
    faults: ['hold-before', 'hold-reply'],
    params: { variant: 'narrow', hold: 'wire' },
    doc: "every command (and seam) of A's release on the lock key: held before it, or its reply held from A, until A's TTL lapsed and B took the lock; then A's release goes on",
    references: {
      safe: [
        'targets/redis/ioredis/release-clock-guarded-cad.ts',
        'targets/redis/ioredis/release-marks-done-checked.ts',
        'targets/redis/ioredis/lock-correct.ts',
        'targets/redis/node-redis/lock-correct.ts',
        'targets/redis/redlock/lock.ts',
        'targets/redis/ioredis/lock-prefixed-key.ts',
        'targets/redis/ioredis/lock-hash-field.ts',
      ],
      alsoBad: ['test/fixtures/targets/release-get-compare-del-no-seams.ts'],
      params: { ttl: 500 },
    },
    trace: traceAcquireRelease(true),
  },
  references: [
    { target: 'targets/redis/ioredis/release-bare-del.ts', expect: 'FAIL' },
    { target: 'targets/redis/node-redis/release-bare-del.ts', expect: 'FAIL' },
    { target: 'targets/redis/ioredis/release-get-compare-del.ts', expect: 'FAIL', params: { variant: 'narrow' } },
    { target: 'targets/redis/node-redis/release-get-compare-del.ts', expect: 'FAIL', params: { variant: 'narrow' } },
    {
      target: 'targets/redis/ioredis/release-get-compare-del.ts',
      expect: 'FAIL',
      params: { variant: 'narrow', hold: 'seam' },
    },
    { target: 'targets/redis/ioredis/lock-correct.ts', expect: 'PASS' },
    { target: 'targets/redis/ioredis/lock-correct.ts', expect: 'PASS', params: { variant: 'narrow' } },
    { target: 'targets/redis/ioredis/lock-correct.ts', expect: 'PASS', params: { variant: 'narrow', hold: 'seam' } },
    { target: 'targets/redis/node-redis/lock-correct.ts', expect: 'PASS' },
    { target: 'targets/redis/node-redis/lock-correct.ts', expect: 'PASS', params: { variant: 'narrow' } },
    { target: 'targets/redis/redlock/lock.ts', expect: 'PASS' },
    { target: 'targets/redis/redlock/lock.ts', expect: 'PASS', params: { variant: 'narrow' } },
    {
      target: 'targets/redis/ioredis/release-clock-guarded.ts',
      expect: 'PASS',
      knownBad:
        "A resumes after its own deadline and skips its DEL; only a hold between its clock check and its DEL (--variant narrow) shows it deleting B's lock",
    },
    { target: 'targets/redis/ioredis/release-clock-guarded.ts', expect: 'FAIL', params: { variant: 'narrow' } },
    { target: 'targets/redis/ioredis/release-clock-guarded-cad.ts', expect: 'PASS' },
    { target: 'targets/redis/ioredis/release-clock-guarded-cad.ts', expect: 'PASS', params: { variant: 'narrow' } },
    { target: 'targets/redis/ioredis/release-marks-done.ts', expect: 'FAIL' },
    { target: 'targets/redis/ioredis/release-marks-done-checked.ts', expect: 'PASS' },
    { target: 'targets/redis/ioredis/lock-prefixed-key.ts', expect: 'PASS' },
    { target: 'targets/redis/ioredis/lock-hash-field.ts', expect: 'PASS', params: { variant: 'narrow' } },
    { target: 'targets/fs/mkdir-bare-rmdir.ts', expect: 'FAIL', store: 'fs' },
    {
      target: 'targets/fs/mkdir-lock.ts',
      expect: 'PASS',
      store: 'fs',
      knownBad:
        "its release reads the owner file, compares, then removes the directory by its path: A resumes, finds B's token and leaves it; only a hold between the compare and the rm (--variant narrow) shows it removing B's lock",
    },
    { target: 'targets/fs/mkdir-lock.ts', expect: 'FAIL', store: 'fs', params: { variant: 'narrow', hold: 'seam' } },
  ],
  // Each good reference with its guard removed must FAIL (lock-oracles selfcheck).
  mutations: [
    {
      of: 'targets/redis/ioredis/lock-correct.ts',
      guard: 'the compare in compare-and-delete (a bare DEL)',
      edits: [
        [
          '(await redis.get().eval(COMPARE_AND_DELETE, 1, env.key, String(lease.token))) === 1',
          '(await redis.get().del(env.key)) === 1',
        ],
      ],
    },
    {
      of: 'targets/redis/node-redis/lock-correct.ts',
      guard: 'the compare in compare-and-delete (a bare DEL)',
      edits: [
        [
          '(await redis.get().eval(COMPARE_AND_DELETE, { keys: [env.key], arguments: [String(lease.token)] })) === 1',
          '(await redis.get().del(env.key)) === 1',
        ],
      ],
    },
    {
      of: 'targets/fs/mkdir-lock.ts',
      guard: "the release's owner check (a bare rm -r of the lock directory)",
      edits: [
        [
          "    if (owner !== lease.token) return false;\n    await env.seam('release:before-delete');",
          "    await env.seam('release:before-delete');",
        ],
      ],
      store: 'fs',
    },
  ],

  async play(s, p) {
    // An explored point (--explore) lands inside the release like the narrow variant, at its own boundary.
    const wireA = p.variant === 'narrow' && (p.hold === 'wire' || s.point) ? await s.wire('A') : undefined;
    const point = s.point;
    const where = point
      ? `at ${point.boundary.part}#${point.boundary.index} (${point.boundary.text})`
      : 'inside its release, before its delete';
    const a = await s.holder('A', wireA ? { url: wireA.url } : {});
    // B and C load while A takes the lock, and are awaited while A is stopped or held: its lease
    // lapses meanwhile anyway, and B's lease (the window judged) begins only after both are ready.
    const contenders = Promise.all([s.holder('B'), s.holder('C')]);
    contenders.catch(() => undefined); // awaited below; a run that ends before then is checked by the engine
    let b!: Holder;
    let c!: Holder;
    const preconditions: Check[] = [];
    let leaseB: LeaseSummary | null = null;
    let seenB: ObservedLock | undefined;
    let after: ObservedLock | undefined;
    let leaseC: LeaseSummary | null = null;
    let cAnsweredAt = 0;
    let bSide: BSide | undefined;
    let bOwnRefusal: string | undefined;
    let bAcquireStartedAt = 0;
    const retryEvery = Math.max(5, Math.round(p.ttl / 10));

    const aAcquireStartedAt = s.now();
    const leaseA = await a.acquire();
    preconditions.push({
      name: 'A held the lock',
      held: leaseA !== null,
      detail: leaseA ? `A acquired (token ${leaseA.token ?? 'not reported'})` : 'A was denied on an empty store',
    });
    if (!leaseA) return judge();
    // Where the lock lives is checked while a holder holds it: on A's lease, or, when the probe
    // came too late to tell (a loaded machine), on B's fresh one.
    const atA = await s.observeLock('after A acquired');
    const aLate = !atA.exists && s.now() - aAcquireStartedAt >= p.ttl;
    if (!aLate) {
      const located = locatedCheck(atA, leaseA.token, s.now() - aAcquireStartedAt, 'A');
      preconditions.push(located);
      if (!located.held) {
        await s.within(a.release(leaseA), p.timeout);
        return judge();
      }
    }
    /**
     * Push the location check on B's lease when A's came too late. A key gone from a read sent a
     * TTL or more after B began its acquire says nothing about where the lock lives (B's lease may
     * have lapsed): "B's lease was live when the harness judged" names that case instead.
     */
    const locateOnB = async () => {
      seenB = await s.observeLock('after B acquired');
      const mayHaveLapsed = !seenB.exists && seenB.sentAt - bAcquireStartedAt >= p.ttl;
      if (aLate && leaseB && !mayHaveLapsed)
        preconditions.push(locatedCheck(seenB, leaseB.token, s.now() - bAcquireStartedAt, 'B'));
    };

    if (p.variant === 'pause') {
      await a.pause();
      s.progress(
        `A stopped (SIGSTOP) holding the lock; waiting for its ${p.ttl} ms TTL to lapse and B to take the lock`,
      );
      [b, c] = await contenders;
      const got = await acquireWithin(b, () => s.now(), p.timeout, retryEvery);
      bAcquireStartedAt = got.lastAttemptAt ?? 0;
      leaseB = got.lease;
      landed(leaseB !== null && a.isPaused, `B took the lock while A was stopped (${got.attempts} attempt(s))`);
      await locateOnB();
      const stoppedMs = a.resume();
      s.progress(`A resumed after ${stoppedMs.toFixed(0)} ms and releases`);
      const release = await s.within(a.release(leaseA), p.timeout);
      ran(release !== undefined, release?.error);
    } else {
      const stop = point
        ? armPoint(point, a, wireA, s.lockKey)
        : wireA
          ? wireStop(wireA.hold(s.lockCommands('delete')), "A's delete held at its wire proxy", WIRE_MISSED)
          : latchStop(a.holdSeam('release:before-delete'), 'A held at env.seam("release:before-delete")', SEAM_MISSED);
      const release = a.release(leaseA);
      const first = await s.within(
        Promise.race([stop.reached.then(() => 'stop' as const), release.then(() => 'done' as const)]),
        p.timeout,
      );
      if (first !== 'stop') {
        preconditions.push({
          name: `A was held ${where}`,
          held: false,
          detail:
            first === 'done'
              ? stop.missed
              : `A's release neither finished nor reached ${point ? 'the point' : 'its delete'} within ${p.timeout} ms`,
        });
        stop.release();
        return judge();
      }
      s.progress(`A held ${where}; waiting for its ${p.ttl} ms TTL to lapse and B to take the lock`);
      [b, c] = await contenders;
      const got = await acquireWithin(b, () => s.now(), p.timeout, retryEvery);
      bAcquireStartedAt = got.lastAttemptAt ?? 0;
      leaseB = got.lease;
      landed(
        leaseB !== null && !stop.isReleased,
        `B took the lock while A was held ${where} (${got.attempts} attempt(s))`,
      );
      await locateOnB();
      stop.release();
      const outcome = await s.within(release, p.timeout);
      ran(outcome !== undefined, outcome?.error);
    }

    // B's own view first: an extend renews B's lease, so the store and C are then read inside it.
    const bExtends = (await b.ready).members.includes('extend');
    if (bExtends && leaseB) bSide = await checkB(b, leaseB, 'extend');
    after = await s.observeLock("after A's release");
    leaseC = await c.acquire();
    cAnsweredAt = s.now();
    if (!bExtends && leaseB && !leaseC) bSide = await checkB(b, leaseB, 'release');
    // B's own lease, still B's in the store, gave B no reason to be refused: its throw is the target's error.
    const bLeaseIntact = after.exists && (typeof leaseB?.token !== 'string' || after.value === leaseB.token);
    if (bSide?.threw !== undefined && bLeaseIntact)
      throw new TargetCallError(
        'B',
        bSide.member,
        bSide.threw,
        "on its own lease, which the store still showed as B's",
      );
    // A refusal the store contradicts (B's token still in the key, read after A's release) is B's
    // own, e.g. redlock refusing by its own clock after a slow acquire: not A's doing, not counted.
    if (bSide && !bSide.ok && typeof leaseB?.token === 'string' && after.exists && after.value === leaseB.token) {
      bOwnRefusal = `B's ${bSide.member} of its own lease was refused, though ${after.where} still held B's token after A's release: the refusal is the target's own (its client's clock, say), not A's release's, and is not counted`;
      s.note(bOwnRefusal);
      bSide = undefined;
    }
    // A refusal that came after B's lease could have lapsed proves nothing about A's release: it
    // is then left out, and when nothing else shows the damage the run is INCONCLUSIVE.
    if (bSide && !bSide.ok && !bSide.inWindow) {
      const late = `B's ${bSide.member} was refused at ${bSide.endedAt.toFixed(0)} ms, after B's lease could have lapsed (${bLiveUntil().toFixed(0)} ms: ${p.ttl} ms after B began its acquire, or the PTTL read after B acquired): B's lease may simply have lapsed`;
      bSide = undefined;
      const tokenKnown = typeof leaseB?.token === 'string';
      const othersHeld = after !== undefined && leaseC === null && (!tokenKnown || after.value === leaseB!.token);
      if (othersHeld)
        preconditions.push({ name: 'B checked its lease while it was still live', held: false, detail: late });
      else s.note(`${late}; not counted`);
    }
    return judge();

    function locatedCheck(state: LockState, token: string | undefined, lookedAfterMs: number, who: string): Check {
      const tokenMatches = token === undefined || state.value === token;
      return {
        name: 'the harness found the lock where the target says it lives',
        held: state.exists && tokenMatches,
        detail: !state.exists
          ? s.lockNotFound(`while ${who} held the lock`, lookedAfterMs)
          : tokenMatches
            ? `while ${who} held the lock, ${state.where} gave ${JSON.stringify(state.value)} (PTTL ${state.pttlMs} ms)`
            : `${state.where} gave ${JSON.stringify(state.value)}, not ${who}'s lease token ${JSON.stringify(token)}: report as token the value the helper stores there, or declare where the lock lives with storeKey(env)`,
      };
    }

    /** B extends (or releases) its own lease: it must still be B's after A's stale release. */
    async function checkB(holder: Holder, lease: LeaseSummary, member: 'extend' | 'release'): Promise<BSide> {
      // A release that returns false says it found the lock was no longer its own.
      const answer =
        member === 'extend'
          ? await holder.extend(lease, p.ttl)
          : await holder
              .release(lease)
              .then((outcome) => ({ extended: outcome.ok && outcome.value !== false, outcome }));
      const endedAt = s.now();
      return {
        member,
        ok: answer.extended,
        endedAt,
        inWindow: endedAt < bLiveUntil(),
        ...(answer.outcome.threw ? { threw: answer.outcome.error ?? '' } : {}),
      };
    }

    /**
     * Until when B's lease lives at the earliest: its TTL from when B began the acquire that took
     * it (the key was set after that), or, when later, the PTTL the store gave right after B acquired.
     */
    function bLiveUntil(): number {
      const byTtl = bAcquireStartedAt + p.ttl;
      return seenB?.exists && (typeof leaseB?.token !== 'string' || seenB.value === leaseB.token)
        ? Math.max(byTtl, seenB.liveUntil)
        : byTtl;
    }

    function landed(held: boolean, detail: string) {
      preconditions.push({
        name: "A's lease lapsed and B took the lock while A was stopped",
        held,
        detail: held
          ? detail
          : `B could not take the lock within ${p.timeout} ms: A's lease never lapsed, so the fault did not land`,
      });
    }

    // A release that threw may never have reached the store: only one that returned is evidence.
    function ran(finished: boolean, error: string | undefined) {
      preconditions.push({
        name: "A's release ran after B took the lock",
        held: finished && !error,
        detail: !finished
          ? `A's release did not finish within ${p.timeout} ms`
          : error
            ? `A's release threw (${error.split('\n')[0]}): it may never have reached the store, so B's lock surviving proves nothing`
            : "A's release returned",
      });
    }

    function judge() {
      const tokenKnown = typeof leaseB?.token === 'string';
      const keyIsB = after !== undefined && tokenKnown && after.value === leaseB!.token;
      const keyGone = after !== undefined && !after.exists;
      const bRefused = bSide !== undefined && !bSide.ok;
      const held = after !== undefined && leaseC === null && (!tokenKnown || keyIsB) && !bRefused;
      if (after) insideBsLease(held, keyIsB || (!tokenKnown && after.exists));
      const cGranted = s.history.filter((e) => e.kind === 'acquire-ok' && e.holder === 'C');
      const observedAfter = s.history.filter(
        (e) => e.kind === 'store-observed' && e.detail.label === "after A's release",
      );
      const aReleases = s.history.filter((e) => e.kind === 'release' && e.holder === 'A');
      const bRefusals = s.history.filter(
        (e) => (e.kind === 'extend-failed' || e.kind === 'release') && e.holder === 'B',
      );
      const what = !after
        ? 'not judged'
        : keyGone
          ? `${after.where} found nothing after A's release`
          : tokenKnown && !keyIsB
            ? `${after.where} gave ${JSON.stringify(after.value)} instead of B's token`
            : tokenKnown
              ? `${after.where} still gave B's token`
              : `${after.where} gave ${JSON.stringify(after.value)} (B's lease reports no token to compare)`;
      const bWhat = bSide ? `; B's ${bSide.member} of its own lease ${bSide.ok ? 'succeeded' : 'was refused'}` : '';
      return {
        preconditions,
        counts: {
          cAcquired: leaseC ? 1 : 0,
          keyHeldBsTokenAfterRelease: keyIsB ? 1 : 0,
          keyGoneAfterRelease: keyGone ? 1 : 0,
          bRefusedOnItsOwnLease: bRefused ? 1 : 0,
          bLeaseLeftAtReadMs: after && seenB ? Math.max(0, Math.round(seenB.liveUntil - after.receivedAt)) : 0,
        },
        property: {
          name: "B's lock survives A's release",
          held,
          detail: `${what}${bWhat}; C was ${leaseC ? 'granted the lock' : 'denied'}`,
          offending: held ? [] : [...aReleases, ...(bRefused ? bRefusals : []), ...observedAfter, ...cGranted],
        },
        explanation: explain(held, what),
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
      const seenLive =
        seenB !== undefined && seenB.exists && (typeof leaseB?.token !== 'string' || seenB.value === leaseB.token);
      if (!seenLive) {
        preconditions.push({
          name: "B's lease was live when the harness judged",
          held: false,
          detail: `B's lease had already lapsed by the store's clock when the harness read the key right after B's acquire returned (${seenB?.exists ? `it held ${JSON.stringify(seenB.value)}` : 'the key was gone'}): B's acquire is slower than the ${p.ttl} ms TTL, so A's release cannot be judged; run with a longer --ttl`,
        });
        return;
      }
      const until = seenB!.liveUntil;
      const readInside = keyWasB || after!.receivedAt < until;
      const cInside = leaseC === null || cAnsweredAt < until;
      // B's own extend (or second release) refused while its lease was live is seen inside too.
      const bRefusedInside = bSide !== undefined && !bSide.ok && bSide.inWindow;
      const violationSeenInside = (!keyWasB && readInside) || (leaseC !== null && cInside) || bRefusedInside;
      if (held || violationSeenInside) return;
      preconditions.push({
        name: "B's lease was live when the harness judged",
        held: false,
        detail:
          `B's lease ran out by the store's clock at ${until.toFixed(0)} ms (its PTTL after B acquired), before the judgement: ` +
          `the read after A's release was answered at ${after!.receivedAt.toFixed(0)} ms and C's acquire at ${cAnsweredAt.toFixed(0)} ms, ` +
          `so the key being gone or C getting the lock may be B's own expiry, not A's release (a slow machine or a slow target; a longer --ttl helps)`,
      });
    }

    function explain(held: boolean, what: string): string {
      const unproven = nothingProven(preconditions);
      if (unproven) return unproven;
      const how = point
        ? `A took a ${p.ttl} ms lock and began its release; ${pointInWords(point)} until the lock lapsed and B took it; then A's release went on`
        : p.variant === 'pause'
          ? `A took a ${p.ttl} ms lock and was stopped (SIGSTOP) until it lapsed and B took the lock; then A resumed and released`
          : `A took a ${p.ttl} ms lock and began its release, but was held after its check and before its delete (${p.hold === 'wire' ? "its delete command kept at A's wire proxy" : 'at the seam release:before-delete'}) until the lock lapsed and B took it; then A's release went on`;
      const bSaw = bSide
        ? ` B's ${bSide.member} of its own lease ${bSide.ok ? 'still succeeded' : 'was refused'},`
        : '';
      if (!held && leaseC === null && bSide && !bSide.ok) {
        return `${how}. A's release destroyed B's lock without freeing it: ${what}, a third holder C was denied, but B's ${bSide.member} of its own live lease was refused, so B no longer held the lock it was granted. The release changes the lock (overwrites or marks it) without checking, atomically, that it still holds its own token.`;
      }
      return held
        ? `${how}. B's lock survived: ${what},${bSaw} and a third holder C was denied.${bOwnRefusal ? ` (${bOwnRefusal}.)` : ''} In this interleaving the release did not touch a lock that was no longer its own` +
            (p.variant === 'pause'
              ? ' (a GET→compare→DEL release also passes here: run --variant narrow to pause it between its check and its delete).'
              : '.')
        : `${how}. A's release removed B's lock: ${what}, and a third holder C ${leaseC ? 'was granted the lock while B still believed it held it' : 'could take it'}. The release does not check, atomically, that the key still holds its own token.`;
    }
  },
});

/** What B saw when it extended (or released) its own lease after A's release. */
interface BSide {
  member: 'extend' | 'release';
  ok: boolean;
  endedAt: number;
  /** It ended before B's lease could have lapsed (TTL from when B began the acquire that took it). */
  inWindow: boolean;
  /** The member threw (this error) instead of answering. */
  threw?: string;
}

const WIRE_MISSED =
  'A\'s release finished without sending a delete of the lock\'s key the wire proxy recognises (DEL, UNLINK, DELEX, or EVAL/EVALSHA/FCALL of a script calling del/unlink, naming the key; declare the key with storeKey(env) when it is not env.key): nothing was held between its check and its delete. If the release deletes another way, run with --hold seam and call env.seam("release:before-delete") before the delete';

const SEAM_MISSED =
  'A\'s release finished without reaching env.seam("release:before-delete"): the target has no such seam, so the pause could not land between its check and its delete (use --hold wire, which needs no seam)';
