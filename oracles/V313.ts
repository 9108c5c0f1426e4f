/**
 * V313 — the lease is shorter than the work, or a renewal's result is ignored.
 *
 * Scenario: A runs the job and makes its first write; A is then stopped (SIGSTOP: its timers and
 * renewals stop too) while its lease lapses; B runs the job, takes the lock and writes (held at
 * that first write, so B is still in its critical section); A is resumed and finishes.
 * Property: A makes no accepted write after B's first write (in the resource's arrival order),
 * or the resource rejected every such write (a fencing token checked at the write).
 * Preconditions: A reached its critical section; B took the lock and wrote while A was stopped;
 * A ran to the end of its job after resuming; with the holding contender, B's lease was still live
 * by the store's own clock when A's offending writes arrived (writes after it lapsed may be A's on
 * a lock it re-took: INCONCLUSIVE); with --contender come-and-go, A's next write after resuming came
 * on its old lease (its token still in the key, or no key at all).
 * Window: from B's first write to the end of A's job; with --contender hold, only up to B's lease's
 * end by the store's own clock, read while B sits at its first write (./V313/b-lease.ts): the
 * key's PTTL on Redis/Valkey; on Postgres the lease row the target declares with storeKey(env)
 * (`expiresColumn - now()`), else B's advisory lock granted to the same B session in pg_locks at
 * B's first write and again after A's job ended. A lease in an undeclared table cannot be read: a
 * violation there is INCONCLUSIVE (a job re-taking its lease row after B's lapsed FAILed before).
 * With --contender come-and-go B's lease is gone before A resumes, so A's writes after B's count
 * only on A's old lease: the key, read at A's next write, holding A's token from before its stop or
 * nothing; a new token there is a new lease A took on the free lock (INCONCLUSIVE, not FAIL).
 * A job that throws: running alone (B's solo count) it is the target's error (ERROR naming job());
 * so is A's, when its last try to reach its first write began more than --ttl after B's solo run
 * ended (no lease the job was asked for could still deny it). B's tries while A's lease may live,
 * and A's job after the fault, may throw as a withLock helper's denial or lost lease: judged.
 *
 * Variant "renewal-wire": instead of stopping the whole process, A's next renewal after its first
 * write (PEXPIRE / a compare-and-pexpire script / an UPDATE of a lease row) is held at A's wire
 * proxy until its lease lapses and B has taken the lock and written; then the renewal goes on and
 * A sees its answer. Needs no seam and no signal: the target runs exactly as in production.
 *
 * What the other holders do (`--contender`, Redis/Valkey only for the last two):
 * - hold (default): B takes the lock and writes, and is held at that write while A resumes.
 * - come-and-go: B takes the lock, writes, finishes its job and its lock is gone from the store
 *   before A resumes (B's whole critical section runs inside A's); if A writes again it is held at
 *   that write while a third holder C runs the job (C denied: A silently re-took the lock). The
 *   property is the same: A's accepted writes after B's first break the exclusion of A's section.
 * - after-lift: A's lease lapses in the store while A is stopped; A resumes (held at its next write,
 *   if it makes one) and only then B runs the job, takes the lock and writes.
 *
 * Explored (--explore): instead of the SIGSTOP after A's first write, A is stopped at one boundary of
 * the rest of its job — a command on the lock held before it or its reply held, a write's receipt
 * held, or A SIGSTOPped at a write's receipt (its timers too: a helper renewing on a timer keeps its
 * lease through a held receipt) — × each contender schedule (Redis).
 */
import { takeoverCounts, takeoverDetail, takeoverWindow, writesAfterTakeover } from '../src/judging/takeover.ts';
import { defineOracle } from '../src/oracle/definition.ts';
import { type Check, nothingProven, firstLine } from '../src/core/judgement.ts';
import { runJobUntilFirstEffect } from '../scenarios/run-job-until-effect.ts';
import { armPoint } from '../src/oracle/arm-point.ts';
import { traceFromFirstWrite } from '../src/oracle/traces.ts';
import { boundaryLabel, pointInWords } from '../src/oracle/explore-point.ts';
import { throwIfTargetThrew, type CallOutcome, type Holder } from '../src/holder/holder.ts';
import type { Latch } from '../src/holder/latch.ts';
import { UsageError } from '../src/core/errors.ts';
import { readBLease, type BLease } from './V313/b-lease.ts';
import type { ObservedLock } from '../src/oracle/scenario.ts';

/** How A is kept out of the way while its lease lapses: SIGSTOP, or its renewal held at the wire. */
interface Stop {
  /** Harness time the stop landed. */
  since: number;
  /** "stopped (SIGSTOP)" / "held its renewal (EVAL ...) at the wire". */
  what: string;
  active(): boolean;
  /** Lift it; returns how long it lasted. */
  lift(): number;
}

export default defineOracle({
  id: 'V313',
  title: 'Lease shorter than the work; renewal result ignored',
  class: 'LK-4 lease shorter than the work; renewal missing or its result ignored',
  scenario:
    'A runs the job and writes once; A is stopped (SIGSTOP) until its lease lapses and B has taken the lock and written; then A resumes.',
  property:
    'A performs no accepted write after B acquired (B wrote), or the resource rejected every such write (fencing).',
  stores: ['redis', 'valkey', 'postgres'],
  holders: ['A', 'B'],
  later: ['A'],
  params: {
    ttl: { kind: 'ms', default: 300, min: 20, doc: 'lease TTL the target is asked to use' },
    variant: {
      kind: 'choice',
      default: 'pause',
      choices: ['pause', 'renewal-wire'],
      doc: "pause: SIGSTOP A after its first write; renewal-wire: hold A's next renewal at its wire proxy (no process stop, no seam)",
    },
    contender: {
      kind: 'choice',
      default: 'hold',
      choices: ['hold', 'come-and-go', 'after-lift'],
      doc: "what B does around A's stop; hold: B takes the lock, writes and holds it while A resumes; come-and-go: B takes the lock, writes and releases before A resumes, then a third holder C arrives (Redis); after-lift: B takes the lock only after A's fault lifts (Redis)",
    },
    steps: {
      kind: 'count',
      default: 3,
      min: 2,
      max: 1000,
      doc: "writes the reference jobs make (targets read env.params.steps); renewal-wire: steps × stepMs must outlast the helper's own renewal period, or the job ends before it renews (INCONCLUSIVE)",
    },
    stepMs: {
      kind: 'ms',
      default: 20,
      min: 1,
      doc: 'work between two writes in the reference jobs (env.params.stepMs); see steps',
    },
    timeout: {
      kind: 'ms',
      default: 5000,
      min: 100,
      doc: 'longest wait for any step (A reaching a write, B taking the lock, A finishing)',
    },
  },
  needs: () => ['job'],
  storeRequest: (p, kind) => {
    if (p.contender !== 'hold' && kind !== 'redis' && kind !== 'valkey') {
      throw new UsageError(
        `--contender ${p.contender} reads the lock key in the store to see B go / A's lease lapse, which needs a Redis or Valkey store; on ${kind} use --contender hold`,
      );
    }
    return { kind };
  },
  validate: (p) =>
    p.timeout <= p.ttl
      ? [
          `--timeout (${p.timeout}) must be longer than --ttl (${p.ttl}): B can only take the lock after A's lease lapses`,
        ]
      : [],
  references: [
    { target: 'targets/redis/ioredis/lease-no-renewal.ts', expect: 'FAIL' },
    { target: 'targets/redis/ioredis/lease-extend-ignored.ts', expect: 'FAIL' },
    { target: 'targets/redis/node-redis/lease-no-renewal.ts', expect: 'FAIL' },
    { target: 'targets/redis/node-redis/lease-extend-ignored.ts', expect: 'FAIL' },
    { target: 'targets/redis/redlock/using-ignores-signal.ts', expect: 'FAIL' },
    { target: 'targets/redis/ioredis/lease-renew-checked.ts', expect: 'PASS' },
    { target: 'targets/redis/ioredis/lease-fenced.ts', expect: 'PASS' },
    { target: 'targets/redis/node-redis/lease-renew-checked.ts', expect: 'PASS' },
    { target: 'targets/redis/node-redis/lease-fenced.ts', expect: 'PASS' },
    { target: 'targets/redis/redlock/using-checks-signal.ts', expect: 'PASS' },
    { target: 'targets/postgres/job-lease-row.ts', expect: 'FAIL', store: 'postgres' },
    { target: 'targets/postgres/job-session-lock-idle-timeout.ts', expect: 'FAIL', store: 'postgres' },
    { target: 'targets/postgres/job-lease-row-renew-checked.ts', expect: 'PASS', store: 'postgres' },
    { target: 'targets/postgres/job-xact-lock.ts', expect: 'PASS', store: 'postgres' },
    { target: 'targets/redis/ioredis/lease-extend-ignored.ts', expect: 'FAIL', params: { variant: 'renewal-wire' } },
    { target: 'targets/redis/node-redis/lease-extend-ignored.ts', expect: 'FAIL', params: { variant: 'renewal-wire' } },
    { target: 'targets/redis/ioredis/lease-renew-checked.ts', expect: 'PASS', params: { variant: 'renewal-wire' } },
    { target: 'targets/redis/node-redis/lease-renew-checked.ts', expect: 'PASS', params: { variant: 'renewal-wire' } },
    {
      target: 'targets/postgres/job-lease-row-renew-checked.ts',
      expect: 'PASS',
      store: 'postgres',
      params: { variant: 'renewal-wire' },
    },
    {
      target: 'targets/redis/ioredis/lease-renew-resurrects.ts',
      expect: 'PASS',
      knownBad:
        "B still holds the lock when A resumes, so A's renewal sees a foreign key and stops; it re-creates the key only after B came and went (--contender come-and-go)",
    },
    { target: 'targets/redis/ioredis/lease-renew-resurrects.ts', expect: 'FAIL', params: { contender: 'come-and-go' } },
    { target: 'targets/redis/ioredis/lease-renew-checked.ts', expect: 'PASS', params: { contender: 'come-and-go' } },
    { target: 'targets/redis/ioredis/lease-no-renewal.ts', expect: 'FAIL', params: { contender: 'after-lift' } },
    { target: 'targets/redis/ioredis/lease-renew-checked.ts', expect: 'PASS', params: { contender: 'after-lift' } },
    // redlock extends by EVALSHA of a script B's calibration run loaded; its extension timer is due
    // ttl/2 after acquire, so the job must outlast it (20 × 40 ms). Why using-checks-signal is no
    // PASS reference here: targets/redis/README.md ("redlock under renewal-wire").
    {
      target: 'targets/redis/redlock/using-ignores-signal.ts',
      expect: 'FAIL',
      params: { variant: 'renewal-wire', steps: 20, stepMs: 40 },
    },
    { target: 'targets/redis/ioredis/lock-prefixed-key.ts', expect: 'PASS', params: { variant: 'renewal-wire' } },
    { target: 'targets/redis/ioredis/lock-hash-field.ts', expect: 'PASS', params: { variant: 'renewal-wire' } },
  ],
  // Each good reference with its guard removed must FAIL (lock-oracles selfcheck).
  mutations: [
    {
      of: 'targets/redis/ioredis/lease-renew-checked.ts',
      guard: "the check of the renewal's result",
      edits: [['env.key, token, env.ttlMs)) !== 1) {', 'env.key, token, env.ttlMs)) !== 1 && false) {']],
    },
    {
      of: 'targets/redis/ioredis/lease-fenced.ts',
      guard: 'the fencing token on each write',
      edits: [["await env.effect('write', { fence, value: i });", "await env.effect('write', { value: i });"]],
    },
  ],

  explore: {
    part: 'job',
    // A pause at a write stops A's timers too: a helper renewing on a timer keeps its lease through a held receipt.
    faults: ['hold-before', 'hold-reply', 'pause'],
    params: { variant: 'pause' },
    dimensions: (kind) => ({
      contender: kind === 'redis' || kind === 'valkey' ? ['hold', 'come-and-go', 'after-lift'] : ['hold'],
    }),
    doc: "every command on the lock key and every write of A's job after its first write: held before it, or its reply (the write's receipt) held from A, or (a write) A stopped by SIGSTOP at its receipt, its timers too, until A's lease lapsed and the contenders acted (each --contender schedule on Redis); then A goes on",
    // node-redis/lease-fenced.ts (the same fence on another client) PASSes all 18 points too
    // (docs/benchmarks.md); it is left out of the suite for its cost (~80 s at load 30).
    references: {
      safe: [
        'targets/redis/ioredis/lease-fenced.ts',
        { target: 'targets/postgres/job-xact-lock.ts', store: 'postgres' },
      ],
    },
    async trace(s, tracer) {
      const { call } = await traceFromFirstWrite(tracer, await tracer.holder(s), 'job');
      await call;
      tracer.end();
    },
  },

  async play(s, p) {
    // An explored point (--explore) stops A after its first write like --variant renewal-wire, at its own boundary.
    const point = s.point;
    const wireA = p.variant === 'renewal-wire' || point ? await s.wire('A') : undefined;
    // A (and come-and-go's C) load while B counts the job's writes alone: both are awaited before
    // A runs, so each is ready the moment it is needed.
    // On Postgres B connects under its own application_name: pg_locks then shows which session is B's.
    const b = await s.holder('B');
    const others = Promise.all([
      s.holder('A', wireA ? { url: wireA.url } : {}),
      p.contender === 'come-and-go' ? s.holder('C') : undefined,
    ]);
    others.catch(() => undefined); // awaited below; a run that ends before then is checked by the engine
    const preconditions: Check[] = [];
    let aRan = false;
    let cTookLock: boolean | undefined;
    /** hold: until when B's lease surely lived by the store's own clock, B held at its first write (./V313/b-lease.ts). */
    let bLease: BLease | undefined;
    /** On Redis: the lock's value as A was stopped (A's token), to tell A's old lease from a new one. */
    let aTokenAtStop: string | null | undefined;

    // A is stopped after its first write, so a job with a single write would have nothing left to
    // judge. Learn the job's shape first: B runs it alone, unobstructed, once.
    s.progress('B runs the job alone once, to count the writes it makes unobstructed');
    s.phase('solo', 'B alone, counting writes (not judged)');
    const alone = await s.within(b.call('job'), p.timeout);
    throwIfTargetThrew(
      'B',
      'job',
      alone,
      'running alone on a free lock, with no fault (the run that counts the writes)',
    );
    const calibration = s.resource.effects().length;
    const aloneWrites = s.resource.effects().filter((e) => e.holder === 'B').length;
    preconditions.push({
      name: 'the job has writes left after its first',
      held: alone !== undefined && aloneWrites >= 2,
      detail:
        alone === undefined
          ? `run alone, the job did not finish within ${p.timeout} ms`
          : `run alone, the job ${alone.ok ? 'returned' : `threw (${firstLine(alone.error)})`} after ${aloneWrites} write(s)` +
            (aloneWrites >= 2 ? '' : ': A is stopped after its first write, so there would be nothing left to judge'),
    });
    if (alone === undefined || aloneWrites < 2) return judge();

    const [a, c] = await others;
    s.progress('A runs the job');
    s.phase('scenario', 'A runs the job, is stopped; B contends');
    const aIn = await runJobUntilFirstEffect(a, p.timeout, Math.max(5, Math.round(p.ttl / 10)));
    const aFirst = aIn.latch;
    // A lease B's solo run left behind lapses within --ttl: a throw on a try begun later is no denial.
    const lastTry = aIn.job ? undefined : aIn.lastOutcome;
    if (lastTry && alone && lastTry.startedAt - alone.endedAt > p.ttl) {
      throwIfTargetThrew(
        'A',
        'job',
        lastTry,
        `on its try #${aIn.attempts} to reach its first write, begun ${(lastTry.startedAt - alone.endedAt).toFixed(0)} ms after B's solo run ended (longer than the ${p.ttl} ms lease: nobody could hold the lock)`,
      );
    }
    preconditions.push({
      name: 'A reached its critical section',
      held: aIn.job !== undefined,
      detail: aIn.job
        ? `A made its first write at ${aFirst.hit?.t} ms`
        : `A made no write within ${p.timeout} ms (${aIn.attempts} attempt(s)${aIn.lastOutcome?.threw ? `, the last threw: ${firstLine(aIn.lastOutcome.error)}` : ''}): it never held the lock, so nothing can be judged`,
    });
    if (!aIn.job) return judge();
    const aJob = aIn.job;

    let stop: Stop;
    if (point) {
      const at = armPoint(point, a, wireA, s.lockKey);
      aFirst.release();
      const first = await s.within(
        Promise.race([at.reached.then(() => 'held' as const), aJob.then(() => 'ended' as const)]),
        p.timeout,
      );
      const since = s.now();
      preconditions.push({
        name: `A was stopped at ${boundaryLabel(point.boundary)}`,
        held: first === 'held',
        detail:
          first === 'held'
            ? `${pointInWords(point)} from ${since.toFixed(1)} ms`
            : first === 'ended'
              ? at.missed
              : `A did not reach the point within ${p.timeout} ms of its first write`,
      });
      if (first !== 'held') {
        at.release();
        await s.within(aJob, p.timeout);
        return judge();
      }
      stop = {
        since,
        what: `held at ${boundaryLabel(point.boundary)} (${pointInWords(point)})`,
        active: () => !at.isReleased,
        lift: () => {
          at.release();
          return s.now() - since;
        },
      };
    } else if (wireA) {
      const hold = wireA.hold(s.lockCommands('renewal'));
      aFirst.release();
      const first = await s.within(
        Promise.race([hold.reached.then(() => 'held' as const), aJob.then(() => 'ended' as const)]),
        p.timeout,
      );
      const held = first === 'held' ? await hold.reached : undefined;
      preconditions.push({
        name: "A's renewal was held at the wire",
        held: held !== undefined,
        detail: held
          ? `A's renewal (${held.command.text}) was held at its wire proxy from ${held.atMs} ms`
          : first === 'ended'
            ? `A's job ended without renewing its lease (${hold.record.what}) after its first write: nothing to hold. A helper with no renewal is judged by --variant pause; one that renews on a timer needs --steps × --stepMs longer than its renewal period` +
              (s.lockUnreadable === undefined
                ? `; one whose lock does not live under ${s.lockKey} must declare where with storeKey(env)`
                : '')
            : `A sent no renewal the wire proxy recognises within ${p.timeout} ms of its first write (${hold.record.what})` +
              (s.lockUnreadable === undefined
                ? `; if the lock does not live under ${s.lockKey}, declare where with storeKey(env) (targets/contract.ts)`
                : ''),
      });
      if (!held) {
        hold.release();
        await s.within(aJob, p.timeout);
        return judge();
      }
      stop = {
        since: held.atMs,
        what: `held its renewal (${held.command.text.slice(0, 60)}) at the wire`,
        active: () => hold.holding,
        lift: () => {
          hold.release();
          return s.now() - held.atMs;
        },
      };
    } else {
      const pause = await a.pause();
      aFirst.release();
      stop = { since: pause.appliedAt, what: 'stopped (SIGSTOP)', active: () => a.isPaused, lift: () => a.resume() };
    }
    await markLeaseEnd();
    const retryEvery = Math.max(5, Math.round(p.ttl / 10));
    if (p.contender === 'after-lift') await contendAfterLift();
    else await contendWhileStopped();
    return judge();

    /** hold / come-and-go: B takes the lock while A is stopped. */
    async function contendWhileStopped() {
      s.progress(
        `A ${stop.what} after its first write; waiting for its ${p.ttl} ms lease to lapse and B to take the lock`,
      );
      const bIn = await runJobUntilFirstEffect(b, p.timeout, retryEvery);
      const bFirst = s.resource.effects().find((e) => e.holder === 'B' && e.seq > calibration);
      const bWroteWhileAStopped = bIn.job !== undefined && stop.active() && bFirst !== undefined;
      const stoppedFor = (bFirst?.t ?? s.now()) - stop.since;
      preconditions.push({
        name: 'A was stopped past its lease and B took the lock',
        held: bWroteWhileAStopped,
        detail: bWroteWhileAStopped
          ? `B wrote (resource #${bFirst!.seq}) ${stoppedFor.toFixed(1)} ms into A's stop, after ${bIn.attempts} attempt(s); the lease was ${p.ttl} ms`
          : `B did not take the lock and write within ${p.timeout} ms of A's stop (${bIn.attempts} attempt(s)): A's lease never lapsed, so the fault did not land`,
      });
      const finishBLease = p.contender === 'hold' && bIn.job ? await readBLease(s) : undefined;
      if (p.contender === 'come-and-go' && bIn.job) await bComesAndGoes(bIn.latch, bIn.job);
      const aNext = p.contender === 'come-and-go' ? a.holdNextEffect() : undefined;
      liftAndLog();
      if (aNext && c) await thirdHolderArrives(aNext, c);
      await aRunsOn();
      if (finishBLease) bLease = await finishBLease();
      bIn.latch.release();
      if (bIn.job) await s.within(bIn.job, p.timeout);
    }

    /** come-and-go: B, held at its first write, is let go: it finishes its job and its lock is gone before A resumes. */
    async function bComesAndGoes(bLatch: Latch, bJob: Promise<CallOutcome>) {
      const during = await s.observeLock('B in its critical section (held at its first write)');
      bLatch.release();
      const bEnd = await s.within(bJob, p.timeout);
      const gone =
        bEnd !== undefined && (await s.waitUntil(async () => !(await s.readLock()).exists, p.timeout, retryEvery));
      const after = await s.observeLock("B's job ended");
      const went = bEnd !== undefined && gone && !after.exists && stop.active();
      preconditions.push({
        name: 'B came and went while A was stopped',
        held: went && during.exists && during.pttlMs > 0,
        detail:
          `while B wrote the key ${during.exists ? `was live in the store (PTTL ${during.pttlMs} ms)` : 'was absent'}; ` +
          (bEnd === undefined
            ? `B's job did not end within ${p.timeout} ms`
            : `B's job ${bEnd.ok ? 'returned' : `threw (${firstLine(bEnd.error)})`} at ${bEnd.endedAt} ms and the key was ${after.exists ? `still there (PTTL ${after.pttlMs} ms)` : 'gone'}` +
              (stop.active() ? ', all while A was stopped' : ', but A was no longer stopped')),
      });
    }

    /**
     * come-and-go: A resumed with nobody holding the lock. If A writes again, it is held at that
     * write while a third holder C runs the job: C denied shows A silently re-took the lock.
     */
    async function thirdHolderArrives(aNext: Latch, c: Holder) {
      const first = await s.within(
        Promise.race([aNext.reached.then(() => 'write' as const), aJob.then(() => 'ended' as const)]),
        p.timeout,
      );
      if (first === 'write') aOnItsOldLease(await s.observeLock('A resumed and is at its next write'));
      const cLatch = c.holdNextEffect();
      const cJob = c.call('job');
      const cFirst = await s.within(
        Promise.race([cLatch.reached.then(() => 'write' as const), cJob.then(() => 'ended' as const)]),
        p.timeout,
      );
      cTookLock = cFirst === 'write';
      s.note(
        `C arrived ${first === 'write' ? 'while A was at its next write after resuming' : "after A's job ended"} and ${cTookLock ? 'took the lock' : 'did not take the lock'}`,
      );
      aNext.release();
      await aRunsOn();
      cLatch.release();
      await s.within(cJob, p.timeout);
    }

    /** after-lift: A's lease lapses in the store while A is stopped; A resumes; only then B contends. */
    async function contendAfterLift() {
      s.progress(`A ${stop.what} after its first write; waiting for its ${p.ttl} ms lease to lapse in the store`);
      const lapsed = await s.waitUntil(async () => !(await s.readLock()).exists, p.timeout, retryEvery);
      const seen = await s.observeLock('A stopped; its lease lapsed?');
      preconditions.push({
        name: "A's lease lapsed in the store while A was stopped",
        held: lapsed && !seen.exists && stop.active(),
        detail: !seen.exists
          ? `the key was gone ${(s.now() - stop.since).toFixed(1)} ms into A's stop; the lease was ${p.ttl} ms`
          : `the key was still there (PTTL ${seen.pttlMs} ms) ${p.timeout} ms into A's stop: A's lease never lapsed, so the fault did not land`,
      });
      const aNext = a.holdNextEffect();
      liftAndLog();
      const first = await s.within(
        Promise.race([aNext.reached.then(() => 'write' as const), aJob.then(() => 'ended' as const)]),
        p.timeout,
      );
      s.progress(
        `B runs the job after A's fault lifted (${first === 'write' ? 'A is held at its next write' : "A's job ended"})`,
      );
      const bIn = await runJobUntilFirstEffect(b, p.timeout, retryEvery);
      const bFirst = s.resource.effects().find((e) => e.holder === 'B' && e.seq > calibration);
      preconditions.push({
        name: "B took the lock and wrote after A's fault lifted",
        held: bIn.job !== undefined && bFirst !== undefined,
        detail: bFirst
          ? `B wrote (resource #${bFirst.seq}) ${(bFirst.t - stop.since).toFixed(1)} ms after A's stop began, after ${bIn.attempts} attempt(s)`
          : `B did not take the lock and write within ${p.timeout} ms of A resuming (${bIn.attempts} attempt(s))` +
            (first === 'write' ? ': A, resumed, held the lock again' : ''),
      });
      aNext.release();
      await aRunsOn();
      bIn.latch.release();
      if (bIn.job) await s.within(bIn.job, p.timeout);
    }

    /**
     * When A's lease runs out: by the store's own clock where the harness can read the key (the
     * PTTL read now; A cannot renew while stopped), else at the latest by the TTL A was asked to use.
     */
    async function markLeaseEnd() {
      const seen = s.lockUnreadable === undefined ? await s.observeLock("A stopped: its lease's time left") : undefined;
      if (seen?.exists) aTokenAtStop = seen.value;
      if (seen?.exists && seen.pttlMs < 0) return; // no expiry on the key: the lease never runs out by itself
      if (seen?.exists)
        s.leaseRanOut(
          'A',
          seen.liveUntil,
          `the key's PTTL ${seen.pttlMs} ms, read ${(seen.sentAt - stop.since).toFixed(1)} ms into A's stop`,
        );
      else
        s.leaseRanOut(
          'A',
          stop.since + p.ttl,
          `at the latest: ${p.ttl} ms after A was stopped, by the TTL it was asked to use (A cannot renew while stopped)`,
        );
    }

    /**
     * come-and-go: A's writes after B's break A's section only on A's old lease (its token still in
     * the key, or no lock at all). A new token there is a new lease A took on the free lock, in a
     * new critical section that B's no longer overlaps (B came and went before): not judged.
     */
    function aOnItsOldLease(atNext: ObservedLock) {
      const newLease = atNext.exists && aTokenAtStop !== undefined && atNext.value !== aTokenAtStop;
      preconditions.push({
        name: "A wrote after B's on its old lease",
        held: !newLease,
        detail: !atNext.exists
          ? `at A's next write after resuming ${atNext.where} found nothing: A wrote holding no lock`
          : newLease
            ? `at A's next write after resuming ${atNext.where} gave ${JSON.stringify(atNext.value)}, not the token A held when stopped (${JSON.stringify(aTokenAtStop)}): A took the free lock again with a new lease after B had come and gone, so its writes after B's are in a new critical section`
            : `at A's next write after resuming ${atNext.where} still gave A's token from before its stop (${JSON.stringify(atNext.value)}): A's old lease went on`,
      });
    }

    function liftAndLog() {
      const stoppedMs = stop.lift();
      s.progress(`A resumed after ${stoppedMs.toFixed(0)} ms`);
    }

    async function aRunsOn() {
      if (aRan) return;
      aRan = true;
      const aEnd = await s.within(aJob, p.timeout);
      preconditions.push({
        name: 'A ran on after resuming',
        held: aEnd !== undefined,
        detail: aEnd
          ? `A's job ${aEnd.ok ? 'returned' : `threw (${firstLine(aEnd.error)})`} at ${aEnd.endedAt} ms`
          : `A's job did not finish within ${p.timeout} ms of resuming`,
      });
    }

    function judge() {
      // The calibration run (B alone, before A started) is in the evidence but not judged.
      const effects = s.resource.effects().filter((e) => e.seq > calibration);
      const takeover = writesAfterTakeover(effects, 'A', 'B');
      const { staleAfter: aAfter, staleAcceptedAfter: aAcceptedAfter, overlapMs } = takeover;
      const held = aAcceptedAfter.length === 0;
      // Judged only inside the window the property is about: B's lease still live by the store's
      // clock. A's writes that all arrived after it lapsed could be A's on a lock it re-took.
      if (!held && bLease) {
        const until = bLease.until;
        const inside = until === undefined ? [] : aAcceptedAfter.filter((e) => e.t <= until);
        preconditions.push({
          name: "B's lease was live at A's writes after B's first",
          held: inside.length > 0,
          detail:
            until === undefined
              ? bLease.why
              : inside.length
                ? `${inside.length} of A's write(s) after B's first reached the resource by ${inside.at(-1)!.t.toFixed(1)} ms, while B's lease lived (until ${until.toFixed(1)} ms ${bLease.how})`
                : `B's lease is known live only until ${until.toFixed(1)} ms ${bLease.how}, before A's first write after B's (${aAcceptedAfter[0]!.t.toFixed(1)} ms): the window closed before A wrote, so A may have re-taken a free lock`,
        });
      }
      return {
        preconditions,
        counts: {
          ...takeoverCounts(takeover, effects),
          writesWhenRunAlone: aloneWrites,
          ...(cTookLock !== undefined
            ? { cTookLock: cTookLock ? 1 : 0, cWrites: effects.filter((e) => e.holder === 'C').length }
            : {}),
        },
        property: {
          name: 'no accepted write by A after B acquired',
          held,
          detail: takeoverDetail(takeover, 'holders'),
          offending: aAcceptedAfter,
          ...takeoverWindow(takeover, 'holders'),
        },
        explanation: explain(held, aAcceptedAfter.length, aAfter.length - aAcceptedAfter.length, overlapMs),
      };
    }

    function explain(held: boolean, accepted: number, rejected: number, overlapMs: number): string {
      const unproven = nothingProven(preconditions);
      if (unproven) return unproven;
      if (!held) {
        return (
          `A took a ${p.ttl} ms lease and wrote, then was ${stopWhat()} ${contention()}. ` +
          (p.contender === 'come-and-go'
            ? `When A resumed, with B gone, it went on writing: ${accepted} write(s) reached the resource after B's, so B's whole critical section ran inside A's` +
              (cTookLock === false
                ? ', and a third holder C arriving after was denied: A had silently re-taken a lock it had lost. '
                : '. ')
            : `When A resumed it went on writing: ${accepted} write(s) reached the resource after B's, so two holders acted at once (overlap ${overlapMs.toFixed(1)} ms by the resource's clock). `) +
          `The helper neither renewed-and-checked its lease before writing (a renewal must fail when the key is missing or not its own) nor carried a fencing token the resource could check.`
        );
      }
      return rejected
        ? `A, holding a ${p.ttl} ms lease, was ${stopWhat()} ${contention()}. When A resumed it tried ${rejected} more write(s) after B's first, but each carried a stale fencing token and the resource rejected it: the fence held.`
        : `A, holding a ${p.ttl} ms lease, was ${stopWhat()} ${contention()}. A made no write after B's first, although the job makes ${aloneWrites} writes when it runs alone: it stopped before writing on a lease it had lost.`;
    }

    function contention(): string {
      if (p.contender === 'come-and-go')
        return 'until its lease lapsed and B took the lock, wrote and released it (B came and went)';
      if (p.contender === 'after-lift')
        return 'until its lease lapsed in the store; A resumed and only then B took the lock and wrote';
      return 'until its lease lapsed and B took the lock and wrote';
    }

    function stopWhat(): string {
      if (point) return `held at ${boundaryLabel(point.boundary)} (${pointInWords(point)})`;
      return p.variant === 'renewal-wire' ? "held at the wire (its renewal kept at A's proxy)" : 'stopped (SIGSTOP)';
    }
  },
});
