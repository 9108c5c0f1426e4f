/**
 * V312 — the acquire result is ignored: the job runs whether or not it got the lock.
 *
 * Scenario: holder P runs the job and is held at its first write (so P is inside its critical
 * section, holding the lock); then A runs the same job to the end.
 * Property: A performs 0 effects.
 * Preconditions: P really held the lock (it reached its first write, and the store shows it: the
 * key on Redis, an advisory lock in pg_locks on Postgres); P's lock was still live when A's job
 * ended; A's job finished; A really tried the lock (its pass-through wire proxy saw a command on
 * the key, or an advisory-lock call on Postgres). A job that throws without sending a command on
 * the lock is ERROR naming job() (the target broke before the scenario exercised it), as a
 * throwing acquire() is everywhere; so is P's job throwing before its first write when P runs
 * alone (no explored point: nobody else can hold the lock).
 * Window: A's whole job, while P sits at its first write holding the lock; judged only if P's lock
 * was still live when A's job ended (the key still holding P's token, or its PTTL read while P held
 * it covering each of A's writes, on Redis: another token there may be A's on a lock it took once
 * P's lease lapsed; P's session still holding the advisory lock in pg_locks on Postgres).
 *
 * Explored (--explore): A starts its job first and is held before one of its commands on the lock
 * (its acquire, before its first write) while P takes the lock and is held at its first write; then
 * A's command goes on. A check-then-act acquire (GET, then a plain SET) is caught there.
 */
import { defineOracle } from '../src/oracle/definition.ts';
import { type Check, nothingProven } from '../src/core/judgement.ts';
import { describeSessionLocks } from '../src/judging/session-locks.ts';
import { armPoint } from '../src/oracle/arm-point.ts';
import { boundaryLabel, pointInWords } from '../src/oracle/explore-point.ts';
import { throwIfTargetThrew } from '../src/holder/holder.ts';

export default defineOracle({
  id: 'V312',
  title: 'Acquire result ignored',
  class: 'LK-3 acquire result ignored',
  scenario:
    'Holder P takes the lock through the job and is held at its first write; then A runs the same job to the end.',
  property: 'A performs 0 effects while the lock is held by another holder.',
  stores: ['redis', 'valkey', 'postgres'],
  holders: ['P', 'A'],
  params: {
    ttl: { kind: 'ms', default: 5000, min: 100, doc: "lease TTL; must outlast A's whole job" },
    steps: { kind: 'count', default: 3, min: 1, max: 1000, doc: 'writes the reference jobs make (env.params.steps)' },
    stepMs: {
      kind: 'ms',
      default: 5,
      min: 1,
      doc: 'work between two writes in the reference jobs (env.params.stepMs)',
    },
    timeout: { kind: 'ms', default: 5000, min: 100, doc: 'longest wait for any step' },
  },
  needs: () => ['job'],
  references: [
    { target: 'targets/redis/ioredis/job-ignores-acquire.ts', expect: 'FAIL' },
    { target: 'targets/redis/node-redis/job-ignores-acquire.ts', expect: 'FAIL' },
    { target: 'targets/redis/ioredis/job-checks-acquire.ts', expect: 'PASS' },
    { target: 'targets/redis/node-redis/job-checks-acquire.ts', expect: 'PASS' },
    { target: 'targets/postgres/job-ignores-try-lock.ts', expect: 'FAIL', store: 'postgres' },
    { target: 'targets/postgres/job-checks-try-lock.ts', expect: 'PASS', store: 'postgres' },
  ],
  // Each good reference with its guard removed must FAIL (lock-oracles selfcheck).
  mutations: [
    {
      of: 'targets/redis/ioredis/job-checks-acquire.ts',
      guard: "the check of the acquire's result",
      edits: [["'PX', env.ttlMs, 'NX')) === null) {", "'PX', env.ttlMs, 'NX')) === null && false) {"]],
    },
    {
      of: 'targets/postgres/job-checks-try-lock.ts',
      guard: "the check of pg_try_advisory_lock's result",
      store: 'postgres',
      edits: [
        [
          'if (!ok(await client.query(TRY_LOCK, [env.key]))) {',
          'if (!ok(await client.query(TRY_LOCK, [env.key])) && false) {',
        ],
      ],
    },
  ],

  explore: {
    part: 'job',
    // Only a hold before the command lets P in: once A's acquire ran, P is denied (the fault cannot
    // land), and a killed A makes no write at all.
    faults: ['hold-before'],
    params: {},
    doc: "every command of A's job on the lock before its first write (its acquire): held at A's wire proxy while P takes the lock and is held at its first write; then A's command and job go on",
    references: {
      safe: [
        'targets/redis/ioredis/job-checks-acquire.ts',
        'targets/redis/node-redis/job-checks-acquire.ts',
        { target: 'targets/postgres/job-checks-try-lock.ts', store: 'postgres' },
      ],
      alsoBad: ['targets/redis/ioredis/job-get-then-set.ts'],
    },
    async trace(s, tracer) {
      const a = await tracer.holder(s);
      await tracer.part('job', () => a.call('job'));
    },
    select: (boundaries) => {
      const firstWrite = boundaries.find((b) => b.kind === 'effect')?.index ?? Infinity;
      return boundaries.filter((b) => b.kind === 'command' && b.onKey === true && b.index < firstWrite);
    },
  },

  async play(s, p) {
    // A talks to the store through a pass-through wire proxy, so the run can show A really tried
    // the lock (a job that returns or throws before contending would make 0 writes and prove nothing).
    const wireA = await s.wire('A');
    const [holderP, a] = await Promise.all([s.holder('P'), s.holder('A', { url: wireA.url })]);
    const preconditions: Check[] = [];
    // Where the store shows the lock itself (a Redis key), it is read before and after A's job.
    const readable = s.lockUnreadable === undefined;
    // On Postgres the lock must show in pg_locks as a granted advisory lock.
    const pgLocks = async (label: string) =>
      s.view().sessionLocks ? (await s.observeSessionLocks(label)).filter((l) => l.granted) : undefined;

    // An explored point: A starts first and is held at its boundary while P takes the lock.
    const point = s.point;
    const stop = point ? armPoint(point, a, wireA, s.lockKey) : undefined;
    const tries: string[] = [];
    const touchesLock = (text: string, args: readonly string[]) =>
      s.family.commands.touches({ text, args }, s.lockLocation);
    const stopWatching = wireA.on((event) => {
      if (event.type === 'command' && touchesLock(event.command.text, event.command.args))
        tries.push(event.command.text);
    });
    const aJob = stop ? a.call('job') : undefined;
    if (stop && aJob) {
      const first = await s.within(
        Promise.race([stop.reached.then(() => 'held' as const), aJob.then(() => 'ended' as const)]),
        p.timeout,
      );
      preconditions.push({
        name: `A was held at ${boundaryLabel(point!.boundary)}`,
        held: first === 'held',
        detail:
          first === 'held'
            ? pointInWords(point!)
            : first === 'ended'
              ? stop.missed
              : `A's job neither reached the point nor ended within ${p.timeout} ms`,
      });
      if (first !== 'held') {
        stop.release();
        stopWatching();
        await s.within(aJob, p.timeout);
        return judge();
      }
    }

    s.progress(`P runs the job and is held at its first write${stop ? ' (A is held at the point)' : ''}`);
    const pFirst = holderP.holdNextEffect();
    const pJob = holderP.call('job');
    const pEnded = await s.within(Promise.race([pFirst.reached.then(() => undefined), pJob]), p.timeout);
    // P runs alone on a free lock unless A, held at an explored point, may already hold it.
    if (!stop) throwIfTargetThrew('P', 'job', pEnded, 'before its first write, running alone on a free lock');
    const keyBefore = pFirst.isReached && readable ? await s.observeLock('P holds the lock') : undefined;
    const locksBefore = pFirst.isReached ? await pgLocks('P holds the lock') : undefined;
    preconditions.push({
      name: 'P held the lock',
      held:
        pFirst.isReached &&
        (keyBefore === undefined || keyBefore.exists) &&
        (locksBefore === undefined || locksBefore.length > 0),
      detail: !pFirst.isReached
        ? `P made no write within ${p.timeout} ms: the lock was never pre-held`
        : keyBefore
          ? keyBefore.exists
            ? `P reached its first write; ${keyBefore.where} gave ${JSON.stringify(keyBefore.value)} (PTTL ${keyBefore.pttlMs} ms)`
            : `P reached its first write, but ${s.lockNotFound('while P held the lock')}`
          : locksBefore
            ? `P reached its first write; pg_locks showed ${describeSessionLocks(locksBefore)}`
            : `P reached its first write at ${pFirst.hit?.t} ms`,
    });
    if (!pFirst.isReached) {
      stop?.release();
      stopWatching();
      if (aJob) await s.within(aJob, p.timeout);
      return judge();
    }
    const heldSince = pFirst.hit!.t;

    s.progress(stop ? "A's held command goes on while P holds the lock" : 'A runs the job while P holds the lock');
    stop?.release();
    const aEnd = await s.within(aJob ?? a.call('job'), p.timeout);
    stopWatching();
    // A job that throws without ever asking for the lock broke before the scenario could exercise
    // it: ERROR naming the member, as for a throwing acquire. A throw after it asked (a denial a
    // withLock helper throws, an aborted job) is behaviour, and judged.
    if (tries.length === 0) throwIfTargetThrew('A', 'job', aEnd, 'before it sent any command on the lock');
    preconditions.push({
      name: "A's job finished",
      held: aEnd !== undefined,
      detail: aEnd
        ? `A's job ${aEnd.ok ? 'returned' : `threw (${(aEnd.error ?? '').split('\n')[0]})`}`
        : `A's job did not finish within ${p.timeout} ms`,
    });
    preconditions.push({
      name: 'A tried to take the lock while P held it',
      held: tries.length > 0,
      detail: tries.length
        ? `A's wire proxy saw ${tries.length} command(s) on the lock, first: ${tries[0]!.slice(0, 80)}`
        : `A's job sent no command on ${readable ? `key ${s.lockKey}` : 'an advisory lock'} through its wire proxy: it never contended, so its writes (or their absence) prove nothing`,
    });
    const keyAfter = readable ? await s.observeLock("A's job ended") : undefined;
    const locksAfter = await pgLocks("A's job ended");
    const liveFor = s.now() - heldSince;
    const pSessions = new Set((locksBefore ?? []).map((l) => l.session));
    // On Redis, A's own SET may have overwritten P's key (and A's release removed it): P's lease
    // still counts as live while its PTTL, read when P held the lock, had not run out by A's writes.
    const aWrites = s.resource.effects().filter((e) => e.holder === 'A');
    const pLeaseCoversWrites =
      keyBefore !== undefined && aWrites.length > 0 && aWrites.every((e) => e.t < keyBefore.liveUntil);
    // The key counts as P's only with P's token in it: A's token there may be a lock A took once
    // P's lease had lapsed (a job that waits for the lock and leaves its lease to run out).
    const stillPs = keyAfter !== undefined && keyAfter.exists && keyAfter.value === keyBefore?.value;
    preconditions.push({
      name: "P's lock was still live when A's job ended",
      held: keyAfter
        ? stillPs || pLeaseCoversWrites
        : locksAfter
          ? locksAfter.some((l) => pSessions.has(l.session))
          : liveFor < p.ttl,
      detail: keyAfter
        ? keyWhenAEnded(
            keyAfter.exists,
            stillPs,
            pLeaseCoversWrites,
            JSON.stringify(keyAfter.value),
            keyBefore?.pttlMs,
            aWrites.length,
          )
        : locksAfter
          ? `when A's job ended pg_locks showed ${describeSessionLocks(locksAfter)}`
          : `A's job ended ${liveFor.toFixed(0)} ms after P took a ${p.ttl} ms lease`,
    });
    pFirst.release();
    await s.within(pJob, p.timeout);
    return judge();

    function keyWhenAEnded(
      exists: boolean,
      stillPs: boolean,
      covers: boolean,
      value: string,
      pttlWhenPHeld: number | undefined,
      aWrites: number,
    ): string {
      if (stillPs) return `the key still held P's token ${value} when A's job ended`;
      const seen = exists ? `the key held ${value}, not P's token,` : 'the key was gone';
      return covers
        ? `${seen} when A's job ended, but P's lease (PTTL ${pttlWhenPHeld} ms when P held it) was live by the store's clock at each of A's ${aWrites} write(s)`
        : `${seen} when A's job ended` +
            (exists
              ? `, and P's lease (PTTL ${pttlWhenPHeld} ms when P held it) had run out by the store's clock before A's last write: A may have taken a lock P's lease no longer held`
              : '');
    }

    function explain(held: boolean, writes: number): string {
      const how = point
        ? `A started the job and ${pointInWords(point)} while P took the lock and was held at its first write; then A went on`
        : 'P held the lock (held at its first write) while A ran the job';
      return held
        ? `${how}: A was denied the lock and made no write. The job checks its acquire before its first effect.`
        : `${how}: A made ${writes} write(s) anyway. The job does the work without holding the lock (it ignores its acquire's result, or checks and then takes the lock in two steps).`;
    }

    function judge() {
      const aEffects = s.resource.effects().filter((e) => e.holder === 'A');
      const held = aEffects.length === 0;
      return {
        preconditions,
        counts: { aEffects: aEffects.length, pEffects: s.resource.effects().filter((e) => e.holder === 'P').length },
        property: {
          name: 'A performs 0 effects while another holder has the lock',
          held,
          detail: held ? 'A made no write' : `A made ${aEffects.length} write(s) while P held the lock`,
          offending: aEffects,
        },
        explanation: nothingProven(preconditions) ?? explain(held, aEffects.length),
      };
    }
  },
});
