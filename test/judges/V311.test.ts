/**
 * V311's judge on recorded runs, with no store and no process: the same recorded histories with
 * one fact changed move the verdict the way the property and the preconditions say they must.
 */
import { describe, expect, it } from 'vitest';
import { FIXTURES, load, rejudge, type JudgeFixture } from './recorded.ts';
import {
  A_KEY_STILL_HELD,
  GRANTS_OVERLAPPED,
  KEY_EXISTED,
  KILLED,
  LAST_TRY_LAPSED,
  LIVE_PAST_TTL,
  PATIENCE_WAITED,
  STOPPED_AT_POINT,
  STOPPED_BETWEEN,
  TTL_WITHIN_PATIENCE,
} from '../../oracles/V311/judge.ts';
import type { V311Observations } from '../../oracles/V311/observations.ts';
import { A_SESSION_LOCKED, LOCK_ON_A_SESSION } from '../../oracles/V311/judge-session-lock.ts';

const bad = load(`${FIXTURES}/V311/bad-no-ttl-after-acquire.json`);
const good = load(`${FIXTURES}/V311/good-lock-correct-after-acquire.json`);
const badBetween = load(`${FIXTURES}/V311/bad-setnx-then-expire-between-commands.json`);
/** --contenders 3, explored: B's GET of the stale lock had its reply held while C took the lock over; then B did too. */
const twoTakers = load(`${FIXTURES}/V311/bad-stale-takeover-del-contenders-3-explored.json`);
const casThree = load(`${FIXTURES}/V311/good-stale-takeover-cas-contenders-3.json`);
/** --store fs, --contenders 3, explored: npm lockfile's lockSync held after it saw the lock stale while C took it over; then B removed C's. */
const lockSyncTwoTakers = load(`${FIXTURES}/V311/bad-npm-lockfile-sync-contenders-3-explored.json`);
// Postgres lease rows: tries sharing one transaction never see A's row lapse; a transaction per try does.
const pgOneTransaction = load(`${FIXTURES}/V311/bad-postgres-lease-row-retry-one-transaction.json`);
const pgFreshTransaction = load(`${FIXTURES}/V311/good-postgres-lease-row-retry-fresh-transaction.json`);
const observed = (f: JudgeFixture) => f.observations as V311Observations;
const unmet = (judgement: { preconditions: Array<{ name: string; held: boolean }> }) =>
  judgement.preconditions.filter((c) => !c.held).map((c) => c.name);

/** The run's reads of the key, as the history recorded them. */
const reads = (f: JudgeFixture) => f.history.filter((e) => e.kind === 'store-observed');

/** The same run had the key carried an expiry of `pttlMs` at every read (the history and the observations). */
function withExpiry(f: JudgeFixture, pttlMs: number) {
  for (const e of reads(f)) e.detail.pttlMs = pttlMs;
  const o = observed(f);
  for (const lock of [o.atKill, o.afterKill, o.stuck, o.watch?.last]) if (lock) lock.pttlMs = pttlMs;
}

/** The same run had the contenders' last try (to the patience bound) begun at `at`. */
function lastTryAt(f: JudgeFixture, at: number) {
  for (const t of observed(f).watch!.tries) t.lastAttemptAt = at;
}

describe('V311 judge', () => {
  it('FAILs the recorded no-TTL run, naming every read of the key that had no expiry', async () => {
    const { verdict, judgement } = await rejudge(bad);
    expect(verdict).toBe('FAIL');
    expect(judgement.counts.bAcquired).toBe(0);
    expect(judgement.property.offending.length).toBe(reads(bad).length);
    expect(judgement.explanation).toMatch(/had no expiry \(PTTL -1 throughout\)/);
    expect(judgement.explanation).toMatch(/still held after the 2600 ms patience bound/);
  });

  it('PASSes the same run had the key carried an expiry and B then taken the lock', async () => {
    const { verdict } = await rejudge(bad, (f) => {
      withExpiry(f, 200);
      observed(f).b!.granted = true;
    });
    expect(verdict).toBe('PASS');
  });

  it("PASSes a key that never had a store expiry when B took it over in time: the lock's expiry is the helper's own", async () => {
    const { verdict, judgement } = await rejudge(bad, (f) => {
      observed(f).b!.granted = true;
    });
    expect(verdict).toBe('PASS');
    expect(judgement.explanation).toMatch(/the helper's own staleness rule took it over/);
  });

  it("FAILs a key with an expiry that B, trying past it, still found holding A's token: the lock outlived its TTL", async () => {
    const { verdict, judgement } = await rejudge(bad, (f) => {
      withExpiry(f, 50);
      lastTryAt(f, observed(f).afterKill!.receivedAt + 51);
    });
    expect(verdict).toBe('FAIL');
    expect(judgement.explanation).toMatch(/the lock outlived its TTL/);
  });

  it("offends with B's refusals when the lock kept an expiry in every reading but outlived it", async () => {
    const { verdict, judgement } = await rejudge(bad, (f) => {
      withExpiry(f, 50);
      for (const e of f.history) if (e.kind === 'store-observed' && e.detail.pttlMs === -1) e.detail.pttlMs = 50;
      lastTryAt(f, observed(f).afterKill!.receivedAt + 51);
    });
    expect(verdict).toBe('FAIL');
    expect(judgement.counts.observationsWithNoExpiry).toBe(0);
    expect(judgement.property.offending.length).toBeGreaterThan(0);
    expect(
      judgement.property.offending.every((e) => 'kind' in e && e.kind === 'acquire-denied' && e.holder === 'B'),
    ).toBe(true);
  });

  it("is INCONCLUSIVE when B's last try came before the key's expiry by its PTTL", async () => {
    const { verdict, judgement } = await rejudge(bad, (f) => {
      withExpiry(f, 50);
      lastTryAt(f, observed(f).afterKill!.receivedAt + 49);
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([LAST_TRY_LAPSED]);
  });

  it("is INCONCLUSIVE when the key was gone by the time B gave up: B's denial is its own", async () => {
    const { verdict, judgement } = await rejudge(bad, (f) => {
      withExpiry(f, 50);
      const o = observed(f);
      lastTryAt(f, o.afterKill!.receivedAt + 51);
      o.watch!.last = { ...o.watch!.last!, exists: false, value: null, pttlMs: -2 };
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([A_KEY_STILL_HELD]);
  });

  it('FAILs the recorded SET NX PX run had a read shown the key with no expiry', async () => {
    const { verdict } = await rejudge(good, (f) => {
      reads(f)[0]!.detail.pttlMs = -1;
    });
    expect(verdict).toBe('FAIL');
  });

  it('FAILs the recorded SET NX PX run had B been denied past its expiry to the patience bound, INCONCLUSIVE had it stopped short', async () => {
    const deniedTo = (reached: number) => (f: JudgeFixture) => {
      const o = observed(f);
      const lastTry = o.afterKill!.receivedAt + o.afterKill!.pttlMs + 1;
      const stillA = { where: o.atKill!.where, exists: true, value: o.atKill!.value, pttlMs: 10 };
      o.b = { ...o.b!, granted: false, lastAttemptAt: lastTry };
      o.stuck = stillA;
      const tries = [
        { holder: 'B', granted: false, attempts: 9, lastAttemptAt: lastTry, endedAt: o.heldSince! + reached },
      ];
      o.watch = { patienceMs: 2600, from: o.b.endedAt, tries, freed: null, reads: 9, last: stillA };
    };
    const { verdict, judgement } = await rejudge(good, deniedTo(2601));
    expect(verdict).toBe('FAIL');
    expect(judgement.explanation).toMatch(/still held after the 2600 ms patience bound/);
    const short = await rejudge(good, deniedTo(2599));
    expect(short.verdict).toBe('INCONCLUSIVE');
    expect(unmet(short.judgement)).toEqual([PATIENCE_WAITED]);
  });

  it('is INCONCLUSIVE when A did not die by SIGKILL', async () => {
    const { verdict, judgement } = await rejudge(good, (f) => {
      observed(f).exit = { signal: null, code: 0, t: observed(f).exit!.t };
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([KILLED]);
  });

  it('is INCONCLUSIVE when the key carried a longer TTL than the patience bound; a TTL longer than asked but within it is judged by the lifetime', async () => {
    const { verdict, judgement } = await rejudge(good, (f) => {
      observed(f).atKill!.pttlMs = 2601;
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([TTL_WITHIN_PATIENCE]);
    const within = await rejudge(good, (f) => {
      observed(f).atKill!.pttlMs = Number(f.params.ttl) + 1;
    });
    expect(within.verdict).toBe('PASS');
  });

  it('is INCONCLUSIVE when the key was not found where the target says it lives when A was killed', async () => {
    const { verdict, judgement } = await rejudge(good, (f) => {
      const o = observed(f);
      o.atKill = { ...o.atKill!, exists: false, value: null, pttlMs: -2 };
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([KEY_EXISTED]);
    expect(judgement.preconditions[0]!.detail).toBe(observed(good).atKill!.notFound);
  });

  it('FAILs the recorded SETNX-then-EXPIRE run, and is INCONCLUSIVE had A not reached the seam', async () => {
    expect((await rejudge(badBetween)).verdict).toBe('FAIL');
    const { verdict, judgement } = await rejudge(badBetween, (f) => {
      const o = observed(f);
      Object.assign(o, { stop: { ...o.stop!, outcome: 'finished' }, heldSince: null, atKill: null, exit: null });
      Object.assign(o, { afterKill: null, b: null, stuck: null });
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([STOPPED_BETWEEN]);
    expect(judgement.preconditions[0]!.detail).toMatch(/acquire:after-set/);
  });

  describe('with three contenders', () => {
    const tries = (f: JudgeFixture) => observed(f).contenders!;

    it("FAILs the recorded run where B and C both took the dead holder's lock, offending with both grants", async () => {
      const { verdict, judgement } = await rejudge(twoTakers);
      expect(verdict).toBe('FAIL');
      expect(judgement.counts.pairsHoldingAtOnce).toBe(1);
      expect(judgement.property.offending.map((e) => ('holder' in e ? e.holder : '')).sort()).toEqual(['B', 'C']);
      expect(judgement.explanation).toMatch(/two contenders took the dead holder's lock and held it at once/);
    });

    it('PASSes the same run had B been denied after C took the lock', async () => {
      const { verdict } = await rejudge(twoTakers, (f) => {
        tries(f).find((t) => t.holder === 'B')!.granted = false;
      });
      expect(verdict).toBe('PASS');
    });

    it("is INCONCLUSIVE, not FAIL, had B's grant come after the lease it began could have lapsed", async () => {
      const { verdict, judgement } = await rejudge(twoTakers, (f) => {
        const b = tries(f).find((t) => t.holder === 'B')!;
        b.lastAttemptAt = b.endedAt - Number(f.params.ttl) - 1;
      });
      expect(verdict).toBe('INCONCLUSIVE');
      expect(unmet(judgement)).toEqual([GRANTS_OVERLAPPED]);
    });

    it('is INCONCLUSIVE had B never reached the explored point in its takeover', async () => {
      const { verdict, judgement } = await rejudge(twoTakers, (f) => {
        const o = observed(f);
        Object.assign(o, { stop: { ...o.stop!, outcome: 'finished' }, b: null, contenders: null, stuck: null });
      });
      expect(verdict).toBe('INCONCLUSIVE');
      expect(unmet(judgement)).toEqual([STOPPED_AT_POINT]);
      expect(judgement.preconditions[0]!.detail).toMatch(/^at takeover#/);
    });

    it('FAILs the recorded lockSync run on a file store (the held contender unlinked the lock C had just taken); PASSes had it been denied', async () => {
      const { verdict, judgement } = await rejudge(lockSyncTwoTakers);
      expect(verdict).toBe('FAIL');
      expect(judgement.counts.pairsHoldingAtOnce).toBe(1);
      // Held after its stat saw the lock stale, or before its unlink: either way before it removed the lock.
      expect(observed(lockSyncTwoTakers).point!.boundary.text).toMatch(/^(stat|unlink) lock-oracles:V311\.lock$/);
      const denied = await rejudge(lockSyncTwoTakers, (f) => {
        tries(f).find((t) => t.holder === observed(f).point!.holder)!.granted = false;
      });
      expect(denied.verdict).toBe('PASS');
    });

    it('FAILs the recorded compare-and-swap run had a second contender been granted while the first held', async () => {
      expect((await rejudge(casThree)).verdict).toBe('PASS');
      const { verdict } = await rejudge(casThree, (f) => {
        const taker = tries(f).find((t) => t.granted)!;
        const other = tries(f).find((t) => !t.granted)!;
        Object.assign(other, { granted: true, lastAttemptAt: taker.lastAttemptAt, endedAt: taker.endedAt + 1 });
      });
      expect(verdict).toBe('FAIL');
    });
  });

  it("FAILs the recorded one-transaction lease-row run on A's lapsed row, and is INCONCLUSIVE had the store removed the row", async () => {
    const { verdict, judgement } = await rejudge(pgOneTransaction);
    expect(verdict).toBe('FAIL');
    expect(judgement.explanation).toMatch(/lapsed by the database's clock \d+ ms before B gave up, still A's/);
    const removed = await rejudge(pgOneTransaction, (f) => {
      delete observed(f).watch!.last!.lapsedRecord;
    });
    expect(removed.verdict).toBe('INCONCLUSIVE');
    expect(unmet(removed.judgement)).toEqual([A_KEY_STILL_HELD]);
  });

  it('PASSes the recorded fresh-transaction lease-row run', async () => {
    expect((await rejudge(pgFreshTransaction)).verdict).toBe('PASS');
  });
});

describe('V311 judge: late told from never (--patience, --strict-ttl)', () => {
  /** --store fs: mkdir-stale-margin.ts, a lock whose stale rule pads the TTL by a second, no stale time declared (PTTL -1). */
  const late = load(`${FIXTURES}/V311/good-late-mkdir-stale-margin.json`);
  const lateStrict = load(`${FIXTURES}/V311/bad-late-mkdir-stale-margin-strict-ttl.json`);
  /** --store fs: mkdir-no-stale.ts, no stale rule at all: denied to the patience bound. */
  const never = load(`${FIXTURES}/V311/bad-never-mkdir-no-stale.json`);
  /** --store fs: proper-lockfile2.ts with --ttl 300 --patience 700: its stale time (2000 ms at least) outlasts the bound. */
  const short = load(`${FIXTURES}/V311/inconclusive-patience-short-proper-lockfile2.json`);
  const watch = (f: JudgeFixture) => observed(f).watch!;

  it('PASSes the lock taken over late, with its lifetime against the TTL; FAILs the same run with --strict-ttl on', async () => {
    const { verdict, judgement } = await rejudge(late);
    expect(verdict).toBe('PASS');
    const life = judgement.counts.bWaitedMs!;
    expect(life).toBeGreaterThan(Number(late.params.ttl) + Number(late.params.grace));
    expect(life).toBeLessThan(watch(late).patienceMs);
    expect(judgement.counts.tookLate).toBe(1);
    expect(judgement.property.detail).toMatch(
      new RegExp(
        `^freed late: B took the lock ${life} ms after A took it, past TTL 300 \\+ grace 300 ms \\(lifetime ${life} ms against TTL 300 ms`,
      ),
    );
    const strict = await rejudge(late, (f) => {
      f.params.strictTtl = 'on';
    });
    expect(strict.verdict).toBe('FAIL');
    expect(strict.judgement.property.detail).toMatch(/^the lock frees, but not within its TTL: /);
  });

  it('PASSes the same run had a contender taken the lock within TTL + grace', async () => {
    const { verdict, judgement } = await rejudge(late, (f) => {
      const o = observed(f);
      o.b = { ...o.b!, granted: true, lastAttemptAt: o.heldSince! + 450, endedAt: o.heldSince! + 500 };
      o.contenders = [
        { holder: 'B', granted: true, attempts: o.b.attempts, lastAttemptAt: o.b.lastAttemptAt, endedAt: o.b.endedAt },
      ];
      o.watch = null;
    });
    expect(verdict).toBe('PASS');
    expect(judgement.counts.tookLate).toBe(0);
  });

  it('takes a grant in the race by a try begun past TTL + grace (an explored contender held until the lease lapsed) as late; with --strict-ttl on, only the store can show it live then', async () => {
    const lateInRace = (strictTtl: string) => (f: JudgeFixture) => {
      const o = observed(f);
      f.params.strictTtl = strictTtl;
      o.b = { ...o.b!, granted: true, lastAttemptAt: o.heldSince! + 700, endedAt: o.heldSince! + 720 };
      o.contenders = [
        { holder: 'B', granted: true, attempts: 1, lastAttemptAt: o.b.lastAttemptAt, endedAt: o.b.endedAt },
      ];
      o.watch = null;
    };
    const { verdict, judgement } = await rejudge(late, lateInRace('off'));
    expect(verdict).toBe('PASS');
    expect(judgement.property.detail).toMatch(/^freed late: B took the lock 720 ms after A took it/);
    const strict = await rejudge(late, lateInRace('on'));
    expect(strict.verdict).toBe('INCONCLUSIVE');
    expect(unmet(strict.judgement)).toEqual([LIVE_PAST_TTL]);
  });

  it('PASSes proper-lockfile2 with three contenders, late (its mtime stamped ahead); with --strict-ttl on FAILs it only while the store showed the lock live past TTL + grace', async () => {
    const three = load(`${FIXTURES}/V311/good-late-proper-lockfile2-ttl-2000-contenders-3.json`);
    const { verdict, judgement } = await rejudge(three);
    expect(verdict).toBe('PASS');
    expect(judgement.counts.tookLate).toBe(1);
    expect(judgement.counts.contendersAfterA).toBe(2);
    const strict = (lapsedAfterKillMs: number) => (f: JudgeFixture) => {
      f.params.strictTtl = 'on';
      observed(f).afterKill!.pttlMs = lapsedAfterKillMs;
    };
    // By the PTTL read after the kill the directory went stale ~2690 ms into the run, past A's take + 2300.
    expect((await rejudge(three, strict(observed(three).afterKill!.pttlMs))).verdict).toBe('FAIL');
    const inTime = await rejudge(three, strict(1000));
    expect(inTime.verdict).toBe('INCONCLUSIVE');
    expect(unmet(inTime.judgement)).toEqual([LIVE_PAST_TTL]);
  });

  it("FAILs the recorded --strict-ttl on run, and is INCONCLUSIVE had the lock been gone at TTL + grace (the contenders' denial their own)", async () => {
    const { verdict, judgement } = await rejudge(lateStrict);
    expect(verdict).toBe('FAIL');
    expect(judgement.explanation).toMatch(/The lock frees, but not within its TTL \(--strict-ttl on\)/);
    const gone = await rejudge(lateStrict, (f) => {
      const o = observed(f);
      o.stuck = { ...o.stuck!, exists: false, value: null, pttlMs: -2 };
    });
    expect(gone.verdict).toBe('INCONCLUSIVE');
    expect(unmet(gone.judgement)).toEqual([A_KEY_STILL_HELD]);
  });

  it('FAILs the lock still held at the patience bound, naming the bound; PASSes (late) had a contender taken it within the bound', async () => {
    const { verdict, judgement } = await rejudge(never);
    expect(verdict).toBe('FAIL');
    expect(judgement.counts.waitedToPatience).toBe(1);
    expect(judgement.property.detail).toMatch(
      /^still held after the 2600 ms patience bound: B was still denied \d+ ms after A took it/,
    );
    const taken = await rejudge(never, (f) => {
      const t = watch(f).tries[0]!;
      t.granted = true;
      t.endedAt = observed(f).heldSince! + 2000;
    });
    expect(taken.verdict).toBe('PASS');
    expect(taken.judgement.property.detail).toMatch(/^freed late: B took the lock 2000 ms after A took it/);
  });

  it('is INCONCLUSIVE, not FAIL, had the contenders stopped short of the patience bound, or at TTL + grace (a run recorded before --patience)', async () => {
    const stopped = await rejudge(never, (f) => {
      watch(f).tries[0]!.endedAt = observed(f).heldSince! + 2599;
    });
    expect(stopped.verdict).toBe('INCONCLUSIVE');
    expect(unmet(stopped.judgement)).toEqual([PATIENCE_WAITED]);
    const before = await rejudge(never, (f) => {
      delete observed(f).watch;
    });
    expect(before.verdict).toBe('INCONCLUSIVE');
    expect(unmet(before.judgement)).toEqual([PATIENCE_WAITED]);
    expect(before.judgement.explanation).not.toMatch(/never|can ever|no later holder/);
  });

  it('is INCONCLUSIVE when the patience bound closed before the lock could lapse by its own stale time; FAILs had its PTTL fit in the bound and the last try come after it', async () => {
    const { verdict, judgement } = await rejudge(short);
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([TTL_WITHIN_PATIENCE, LAST_TRY_LAPSED]);
    const fits = await rejudge(short, (f) => {
      const o = observed(f);
      o.atKill!.pttlMs = 600;
      o.afterKill!.pttlMs = 0;
      lastTryAt(f, o.afterKill!.receivedAt + 1);
    });
    expect(fits.verdict).toBe('FAIL');
  });
});

describe('V311 judge: a session advisory lock, read in pg_locks', () => {
  const own = load(`${FIXTURES}/V311/good-session-lock-own-connection.json`);
  const reset = load(`${FIXTURES}/V311/good-session-lock-pgbouncer-discard-all.json`);
  const noReset = load(`${FIXTURES}/V311/bad-session-lock-pgbouncer-no-reset.json`);
  const locks = (f: JudgeFixture) => observed(f).sessionLocks!;

  it("PASSes the holder's own session and a session-pooling PgBouncer that resets it: the lock freed, B took it", async () => {
    for (const f of [own, reset]) {
      const { verdict, judgement } = await rejudge(f);
      expect(verdict).toBe('PASS');
      expect(judgement.property.detail).toMatch(/^B took the lock \d+ ms after A took it/);
    }
  });

  it("FAILs the pooler with no reset: the session that held A's lock at the kill still held it at the patience bound", async () => {
    const { verdict, judgement } = await rejudge(noReset);
    expect(verdict).toBe('FAIL');
    const aSession = locks(noReset).atKill.find((l) => l.holder === 'A')!.session;
    expect(observed(noReset).watch!.lastSessions!.map((l) => l.session)).toContain(aSession);
    expect(judgement.property.detail).toMatch(/^still held after the \d+ ms patience bound/);
    expect(judgement.preconditions.find((c) => c.name === LOCK_ON_A_SESSION)?.held).toBe(true);
    expect(judgement.explanation).toMatch(/outlived A's process/);
  });

  it('is INCONCLUSIVE, not FAIL, had another session held the lock when B gave up (B denied on a lock A no longer held)', async () => {
    const { verdict, judgement } = await rejudge(noReset, (f) => {
      for (const l of observed(f).watch!.lastSessions!) l.session += 1;
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([LOCK_ON_A_SESSION]);
  });

  it("is INCONCLUSIVE had A's session held no advisory lock at the kill", async () => {
    const { verdict, judgement } = await rejudge(own, (f) => {
      locks(f).atKill = [];
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([A_SESSION_LOCKED]);
  });
});

describe("V311 judge: where the lock lives, inferred from A's own acquire", () => {
  const inferred = load(`${FIXTURES}/V311/good-lock-prefixed-undeclared-inferred.json`);

  it('PASSes the recorded run and says the location was inferred; had nothing been inferred it would not say so', async () => {
    const { verdict, judgement } = await rejudge(inferred);
    expect(verdict).toBe('PASS');
    const existed = (j: typeof judgement) => j.preconditions.find((c) => c.name === KEY_EXISTED)!.detail;
    expect(existed(judgement)).toMatch(/inferred from A's own acquire \(SET lock\.lock-oracles:V311 .*NX\)/);
    const declared = await rejudge(inferred, (f) => {
      observed(f).inferred = null;
    });
    expect(existed(declared.judgement)).not.toMatch(/inferred/);
  });
});

describe('V311 judge: a flock lock on --store fs (filelock), read in /proc/locks', () => {
  const flock = load(`${FIXTURES}/V311/good-python-filelock-flock.json`);

  it("PASSes the recorded run and says the kernel dropped the killed A's lock; had the read after the kill not been the kernel's, it would not say so", async () => {
    const { verdict, judgement } = await rejudge(flock);
    expect(verdict).toBe('PASS');
    expect(observed(flock).afterKill).toMatchObject({ exists: false, kernelLocks: [] });
    expect(judgement.explanation).toMatch(
      /kernel lock on its file \(flock\).*listed no lock on it right after the kill/,
    );

    const fileRead = structuredClone(flock);
    delete observed(fileRead).afterKill!.kernelLocks;
    const { verdict: same, judgement: plain } = await rejudge(fileRead);
    expect(same).toBe('PASS');
    expect(plain.explanation).not.toMatch(/flock/);
  });

  it("records A's pid in /proc/locks as A's while it held the lock", () => {
    const atKill = reads(flock).find((e) => e.detail.label === 'A acquired; about to kill A');
    expect(atKill?.detail).toMatchObject({
      exists: true,
      kernelLocks: [{ type: 'FLOCK', mode: 'WRITE', holder: 'A' }],
    });
  });
});
