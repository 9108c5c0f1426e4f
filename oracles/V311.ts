/**
 * V311 — no TTL, or a TTL set non-atomically: a crashed holder blocks everyone.
 *
 * Scenario: A takes the lock and is killed (SIGKILL) — variant "after-acquire" right after its
 * acquire returned, variant "between-commands" at the seam "acquire:after-set" (after the command
 * that created the key, before any other: between SETNX and EXPIRE). B then retries.
 * Property: B takes the lock within TTL + grace of A's acquire, and the key never has PTTL -1.
 * Preconditions: the key existed when A was killed; the kill really happened (SIGKILL).
 * Window: from A's take of the key to TTL + grace later; B still denied counts only if B's last try
 * began after the key had lapsed by the store's own PTTL (read right after the kill), or the key had
 * no expiry at all (else INCONCLUSIVE: B's tries all came while the lease was running its course),
 * and only if the key, read when B gave up, still held A's token or had no expiry (a key gone or
 * holding another token shows A's key lapsed: B's denial is B's own, e.g. its client's clock refusing
 * a lock its SET took, so INCONCLUSIVE).
 */
import { defineOracle } from '../src/oracle/definition.ts';
import { type Check, nothingProven } from '../src/core/judgement.ts';
import { acquireWithin } from '../scenarios/retry-acquire.ts';
import type { LockState } from '../src/families/family.ts';
import { armPoint } from '../src/oracle/arm-point.ts';
import { traceAcquireRelease } from '../src/oracle/traces.ts';
import { pointInWords } from '../src/oracle/explore-point.ts';

export default defineOracle({
  id: 'V311',
  title: 'No TTL, or TTL set non-atomically',
  class: 'LK-2 no TTL, or a TTL set non-atomically',
  scenario:
    'A takes the lock and is killed (SIGKILL) — after its acquire, or between the command that created the key and the one that set its TTL; B retries.',
  property: 'B takes the lock within TTL + grace, and the key never has PTTL -1 (no expiry).',
  stores: ['redis', 'valkey', 'fs'],
  holders: ['A', 'B'],
  params: {
    ttl: { kind: 'ms', default: 300, min: 20, doc: 'lock TTL the target is asked to use' },
    variant: {
      kind: 'choice',
      default: 'after-acquire',
      choices: ['after-acquire', 'between-commands'],
      doc: 'after-acquire: kill A once acquire returned; between-commands: kill A at seam "acquire:after-set"',
    },
    grace: { kind: 'ms', default: 300, min: 0, doc: 'how long past the TTL B may still need (ε)' },
    timeout: { kind: 'ms', default: 5000, min: 100, doc: 'longest wait for A to reach the kill point' },
  },
  needs: () => ['acquire'],
  explore: {
    part: 'acquire',
    faults: ['kill-after-reply'],
    params: { variant: 'between-commands' },
    doc: "every command of A's acquire on the lock key: A is SIGKILLed the moment the command's reply reaches A's wire proxy, before A can send the next (no seam needed); B then retries",
    references: {
      safe: [
        'targets/redis/ioredis/acquire-nx-px.ts',
        'targets/redis/ioredis/lock-correct.ts',
        'targets/redis/node-redis/lock-correct.ts',
        'targets/redis/ioredis/lock-prefixed-key.ts',
      ],
    },
    trace: traceAcquireRelease(false),
  },
  references: [
    { target: 'targets/redis/ioredis/acquire-no-ttl.ts', expect: 'FAIL' },
    { target: 'targets/redis/node-redis/acquire-no-ttl.ts', expect: 'FAIL' },
    {
      target: 'targets/redis/ioredis/acquire-setnx-then-expire.ts',
      expect: 'FAIL',
      params: { variant: 'between-commands' },
    },
    {
      target: 'targets/redis/node-redis/acquire-setnx-then-expire.ts',
      expect: 'FAIL',
      params: { variant: 'between-commands' },
    },
    { target: 'targets/redis/ioredis/lock-correct.ts', expect: 'PASS' },
    { target: 'targets/redis/ioredis/lock-correct.ts', expect: 'PASS', params: { variant: 'between-commands' } },
    { target: 'targets/redis/node-redis/lock-correct.ts', expect: 'PASS' },
    { target: 'targets/redis/node-redis/lock-correct.ts', expect: 'PASS', params: { variant: 'between-commands' } },
    {
      target: 'targets/redis/ioredis/acquire-nx-then-pexpire.ts',
      expect: 'PASS',
      knownBad:
        'A is killed after both commands, so the key has its TTL; the kill must land after the SET NX reply, and between-commands needs a seam this helper lacks (INCONCLUSIVE)',
    },
    { target: 'targets/redis/ioredis/acquire-nx-px.ts', expect: 'PASS' },
    { target: 'targets/redis/ioredis/lock-prefixed-key.ts', expect: 'PASS' },
    { target: 'targets/redis/ioredis/lock-hash-field.ts', expect: 'PASS', params: { variant: 'between-commands' } },
    { target: 'targets/fs/mkdir-no-stale.ts', expect: 'FAIL', store: 'fs' },
    { target: 'targets/fs/mkdir-lock.ts', expect: 'PASS', store: 'fs' },
    { target: 'targets/fs/mkdir-lock.ts', expect: 'PASS', store: 'fs', params: { variant: 'between-commands' } },
    { target: 'targets/fs/proper-lockfile.ts', expect: 'PASS', store: 'fs', params: { ttl: 3000 } },
  ],
  // Each good reference with its guard removed must FAIL (lock-oracles selfcheck).
  mutations: [
    {
      of: 'targets/redis/ioredis/acquire-nx-px.ts',
      guard: 'the TTL on the acquire (SET NX without PX)',
      edits: [["set(env.key, token, 'PX', env.ttlMs, 'NX')", "set(env.key, token, 'NX')"]],
    },
    {
      of: 'targets/fs/mkdir-lock.ts',
      guard: 'the staleness rule on the acquire (a lock directory never taken over)',
      edits: [['if (!seen || seen.mtimeMs > Date.now() - env.ttlMs) return null;', 'return null;']],
      store: 'fs',
    },
  ],

  async play(s, p) {
    // An explored point (--explore) stops A inside its acquire like the seam, at its own boundary.
    const point = s.point;
    const wireA = point ? await s.wire('A') : undefined;
    const [a, b] = await Promise.all([s.holder('A', wireA ? { url: wireA.url } : {}), s.holder('B')]);
    const preconditions: Check[] = [];
    let atKill: LockState | undefined;
    let heldSince: number | undefined;
    const acquireStartedAt = s.now();

    if (p.variant === 'after-acquire') {
      const lease = await a.acquire();
      heldSince = s.now();
      if (lease) atKill = await s.observeLock('A acquired; about to kill A');
    } else {
      const stop = point ? armPoint(point, a, wireA, s.lockKey) : a.holdSeam('acquire:after-set');
      const acquire = a.acquire();
      const first = await s.within(
        Promise.race([stop.reached.then(() => 'seam' as const), acquire.then(() => 'done' as const)]),
        p.timeout,
      );
      if (first === 'seam') {
        heldSince = 'hit' in stop && stop.hit ? stop.hit.t : s.now();
        atKill = await s.observeLock(
          point
            ? `A stopped at ${point.boundary.part}#${point.boundary.index}; about to kill A`
            : 'A held after creating the key; about to kill A',
        );
      } else {
        preconditions.push({
          name: point
            ? `A was stopped at ${point.boundary.part}#${point.boundary.index} (${point.boundary.text})`
            : 'A was stopped between creating the key and anything else',
          held: false,
          detail:
            first === 'done'
              ? 'missed' in stop
                ? stop.missed
                : 'A\'s acquire returned without reaching env.seam("acquire:after-set"): the target has no such seam, so the kill could not land between its commands'
              : `A's acquire neither returned nor reached ${point ? 'the point' : 'the seam'} within ${p.timeout} ms`,
        });
        return judge(undefined);
      }
    }
    preconditions.push({
      name: 'the key existed when A was killed',
      held: atKill?.exists === true,
      detail: !atKill
        ? 'A was denied on an empty store'
        : atKill.exists
          ? `${atKill.where} gave ${JSON.stringify(atKill.value)}, PTTL ${atKill.pttlMs} ms`
          : s.lockNotFound('while A held the lock', s.now() - acquireStartedAt),
    });
    if (!atKill?.exists) return judge(undefined);
    // A key with no expiry at all is this oracle's finding; one with a longer expiry than asked
    // means the target ignores env.ttlMs, and B's wait would prove nothing.
    preconditions.push({
      name: 'the key carried no longer a TTL than --ttl',
      held: atKill.pttlMs === -1 || atKill.pttlMs <= p.ttl,
      detail:
        atKill.pttlMs === -1 || atKill.pttlMs <= p.ttl
          ? `PTTL at the kill: ${atKill.pttlMs} ms (--ttl ${p.ttl})`
          : `PTTL at the kill was ${atKill.pttlMs} ms, longer than --ttl ${p.ttl}: the target does not use env.ttlMs, so B could not be expected in TTL + grace`,
    });

    s.progress(`killing A (SIGKILL) while it holds the lock (${p.variant})`);
    const exit = await a.kill();
    preconditions.push({
      name: 'A was killed',
      held: exit.signal === 'SIGKILL',
      detail: `A's process ended with ${exit.signal ?? `exit code ${exit.code}`} at ${exit.t} ms`,
    });
    const afterKill = await s.observeLock('right after the kill');
    const budget = Math.max(0, heldSince! + p.ttl + p.grace - s.now());
    s.progress(
      `B retries for up to ${budget.toFixed(0)} ms (TTL ${p.ttl} + grace ${p.grace} from when A took the key)`,
    );
    const got = await acquireWithin(b, () => s.now(), budget, Math.max(5, Math.round(p.ttl / 10)));
    const stuck = got.lease ? undefined : await s.observeLock('B gave up');
    // B denied counts only if its last try began after the key had surely lapsed by the store's own
    // PTTL (read right after the kill; A, dead, cannot renew it): a loaded machine can end B's budget
    // before B ever tries past the expiry. A key with no expiry (PTTL -1) needs no such window.
    const lapsedBy = !afterKill.exists
      ? afterKill.receivedAt
      : afterKill.pttlMs < 0
        ? undefined
        : afterKill.receivedAt + afterKill.pttlMs;
    const lastTry = got.lastAttemptAt ?? 0;
    if (!got.lease && lapsedBy !== undefined) {
      preconditions.push({
        name: "B's last try came after the key lapsed by its PTTL",
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
    if (stuck && counted && !(stuck.exists && (stuck.pttlMs < 0 || stuck.value === atKill.value))) {
      preconditions.push({
        name: "A's key still held the lock when B gave up",
        held: false,
        detail:
          (stuck.exists
            ? `when B gave up, ${stuck.where} gave ${JSON.stringify(stuck.value)} (PTTL ${stuck.pttlMs} ms), not A's ${JSON.stringify(atKill.value)}: A's key had lapsed and been taken again`
            : `when B gave up, ${stuck.where} found nothing: A's key had lapsed and the lock was free by the store`) +
          `, so B's denial is the target's own (its client's clock, say; or a lock kept elsewhere than storeKey(env) says), not A's lock outliving its TTL`,
      });
    }
    return judge({
      waitedMs: (got.grantedAt ?? s.now()) - heldSince!,
      granted: got.lease !== null,
      attempts: got.attempts,
      afterKill,
      stuck,
    });

    function judge(
      outcome:
        | { waitedMs: number; granted: boolean; attempts: number; afterKill: LockState; stuck: LockState | undefined }
        | undefined,
    ) {
      const immortal = s.history.filter((e) => e.kind === 'store-observed' && e.detail.pttlMs === -1);
      const held = outcome !== undefined && outcome.granted && immortal.length === 0;
      return {
        preconditions,
        counts: {
          bAcquired: outcome?.granted ? 1 : 0,
          bWaitedMs: outcome ? Math.round(outcome.waitedMs) : 0,
          bAttempts: outcome?.attempts ?? 0,
          observationsWithNoExpiry: immortal.length,
        },
        property: {
          name: 'B takes the lock within TTL + grace; the key always has an expiry',
          held,
          detail: !outcome
            ? 'not judged'
            : `${outcome.granted ? `B took the lock ${outcome.waitedMs.toFixed(0)} ms after A took it` : `B was still denied ${outcome.waitedMs.toFixed(0)} ms after A took it (${outcome.attempts} attempts)`}; ` +
              `${immortal.length ? `the key had no expiry (PTTL -1) in ${immortal.length} observation(s)` : 'the key always had an expiry'}`,
          offending: held ? [] : immortal,
        },
        explanation: explain(held, outcome),
      };
    }

    function explain(held: boolean, outcome: { waitedMs: number; granted: boolean } | undefined): string {
      const noExpiry = s.history.events().some((e) => e.kind === 'store-observed' && e.detail.pttlMs === -1);
      const unproven = nothingProven(preconditions);
      if (unproven || !outcome) return unproven ?? 'Nothing was proven.';
      const when =
        p.variant === 'after-acquire'
          ? 'right after its acquire returned'
          : 'after it created the key and before its next command';
      const killed = point ? `${pointInWords(point)}.` : `A was killed (SIGKILL) ${when}.`;
      return held
        ? `${killed} The key carried an expiry, so it lapsed and B took the lock ${outcome.waitedMs.toFixed(0)} ms after A had taken it (TTL ${p.ttl} ms).`
        : noExpiry
          ? `${killed} The key it left had no expiry (PTTL -1), so no later holder can ever take the lock: B was ${outcome.granted ? `only granted it ${outcome.waitedMs.toFixed(0)} ms later` : `still denied ${outcome.waitedMs.toFixed(0)} ms later, past TTL ${p.ttl} + grace ${p.grace} ms`}. Set the TTL in the same command (SET key token PX ttl NX).`
          : `${killed} The key kept an expiry, but B was still denied ${outcome.waitedMs.toFixed(0)} ms later, past TTL ${p.ttl} + grace ${p.grace} ms: the lock outlived its TTL.`;
    }
  },
});
