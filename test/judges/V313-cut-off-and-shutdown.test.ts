/**
 * V313's judge on recorded partition, delayed-write and shutdown runs (redis-semaphore's Mutex and
 * workers, lease-no-renewal), with no store and no process: each recorded verdict, and one fact
 * changed at a time moving it the way the property and the preconditions say.
 */
import { describe, expect, it } from 'vitest';
import { FIXTURES, load, rejudge } from './recorded.ts';
import { aAfterB, effects, observed, unmet } from './v313-facts.ts';
import {
  A_LEASE_AT_SHUTDOWN,
  B_DENIED_PAST_LEASE,
  B_TOOK_DURING_SHUTDOWN,
  CUT_OFF,
  SHUTDOWN_LANDED,
} from '../../oracles/V313/judge.ts';
import type { V313Observations } from '../../oracles/V313/observations.ts';

const fixture = (name: string) => load(`${FIXTURES}/V313/${name}.json`);
const badPartition = fixture('bad-mutex-partition');
const goodPartition = fixture('good-mutex-fenced-partition');
const badDelay = fixture('bad-no-renewal-delay-write');
const badShutdown = fixture('bad-worker-close-stops-renewal-shutdown');
const goodShutdown = fixture('good-worker-close-waits-shutdown');
// A real run PASSed wrongly before A's lease at the shutdown was judged (test/fixtures/wrong-verdicts/README.md).
const lapsedFirst = load(`${FIXTURES}/../wrong-verdicts/V313-shutdown-sigterm-lease-lapsed-first.json`);

type LockRead = Extract<NonNullable<NonNullable<V313Observations['shutdown']>['aLockAtStart']>, { sentAt: number }>;

describe('V313 judge: a partition and a delayed write', () => {
  it("FAILs the unfenced Mutex job cut off at its next write: that write arrived after B's", async () => {
    const { verdict, judgement } = await rejudge(badPartition);
    expect(verdict).toBe('FAIL');
    expect(aAfterB(badPartition).length).toBeGreaterThan(0);
    expect(judgement.explanation).toContain('only a fencing token the resource checks');
  });

  it('is INCONCLUSIVE, naming the cut, when A made no other write to hold', async () => {
    const { verdict, judgement } = await rejudge(badPartition, (f) => {
      const stop = observed(f).stop as { landed: string };
      stop.landed = 'ended';
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toContain(CUT_OFF);
  });

  it('PASSes the fenced twin, and FAILs it had the resource accepted its stale writes', async () => {
    expect((await rejudge(goodPartition)).verdict).toBe('PASS');
    const { verdict } = await rejudge(goodPartition, (f) => {
      for (const e of aAfterB(f)) {
        e.accepted = true;
        delete e.reason;
      }
    });
    expect(verdict).toBe('FAIL');
  });

  it("FAILs a delayed write of a job with no renewal, and PASSes it had the write not come after B's", async () => {
    expect((await rejudge(badDelay)).verdict).toBe('FAIL');
    const { verdict } = await rejudge(badDelay, (f) => {
      const late = new Set(aAfterB(f).map((e) => e.seq));
      f.effects = effects(f).filter((e) => !late.has(e.seq));
    });
    expect(verdict).toBe('PASS');
  });
});

describe('V313 judge: graceful shutdown', () => {
  it('FAILs a worker whose close() stopped renewing while its job ran', async () => {
    const { verdict, judgement } = await rejudge(badShutdown);
    expect(verdict).toBe('FAIL');
    expect(judgement.explanation).toContain('stopped renewing the lock before the running job ended');
  });

  it('PASSes a worker whose close() waited for the job', async () => {
    const { verdict, judgement } = await rejudge(goodShutdown);
    expect(verdict).toBe('PASS');
    expect(judgement.preconditions.find((c) => c.name === B_DENIED_PAST_LEASE)?.held).toBe(true);
  });

  it("is INCONCLUSIVE when B's last denied try came before a lease not renewed since the shutdown could have lapsed", async () => {
    const { verdict, judgement } = await rejudge(goodShutdown, (f) => {
      const sd = observed(f).shutdown!;
      sd.bWhileHeld!.lastDeniedAt = sd.heldAt! + Number(f.params.ttl) / 2;
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([B_DENIED_PAST_LEASE]);
  });

  // Under load the harness, the signal or A itself can lag a lease behind the shutdown's start: A's
  // last renewal then comes after it, and B is denied more than --ttl into the shutdown by a lease
  // the shutdown did stop renewing. The window is measured from when A was held at its next write.
  it('is INCONCLUSIVE when B was denied past --ttl after the shutdown began but not after A was held at its next write', async () => {
    const { verdict, judgement } = await rejudge(goodShutdown, (f) => {
      const sd = observed(f).shutdown!;
      const ttl = Number(f.params.ttl);
      sd.heldAt = sd.bWhileHeld!.lastDeniedAt! - ttl + 5;
      expect(sd.bWhileHeld!.lastDeniedAt! - sd.at).toBeGreaterThan(ttl);
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([B_DENIED_PAST_LEASE]);
  });

  it("is INCONCLUSIVE when the lock read after B's denials was gone: B's denials say nothing of A's renewals", async () => {
    const { verdict, judgement } = await rejudge(goodShutdown, (f) => {
      const after = observed(f).shutdown!.aLockAfter!;
      Object.assign(after, { exists: false, value: null, pttlMs: -2 });
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([B_DENIED_PAST_LEASE]);
  });

  it("is INCONCLUSIVE when A's lease, read as its shutdown began, could have lapsed before A was held at its next write", async () => {
    const { verdict, judgement } = await rejudge(goodShutdown, (f) => {
      const sd = observed(f).shutdown!;
      const read = sd.aLockAtStart as LockRead;
      read.pttlMs = Math.floor(sd.heldAt! - read.sentAt) - 1;
      read.liveUntil = read.sentAt + read.pttlMs;
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([A_LEASE_AT_SHUTDOWN]);
  });

  // Recorded at load ~20: A, starved at its first write, lost its lease before the SIGTERM (the read
  // just before found nothing); a late refresh found it gone and onLockLost stopped the job with no
  // other write, so B's writes came after A's and the run PASSed the BAD worker.
  it('is INCONCLUSIVE, not PASS, for the BAD worker whose lease lapsed under load before its SIGTERM', async () => {
    expect(lapsedFirst.target).toBe('targets/redis/semaphore/worker-close-stops-renewal.ts');
    expect(lapsedFirst.verdict).toBe('PASS');
    const { verdict, judgement } = await rejudge(lapsedFirst);
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([A_LEASE_AT_SHUTDOWN]);
    expect(judgement.explanation).toContain('the fault did not land inside the window');
  });

  it("PASSes the same run had A's lock been read live past the end of A's job", async () => {
    const { verdict } = await rejudge(lapsedFirst, (f) => {
      const o = observed(f);
      const read = o.shutdown!.aLockAtStart as LockRead;
      read.exists = true;
      read.value = 'A';
      read.pttlMs = Math.ceil(o.aResumed!.job!.endedAt - read.sentAt) + 1;
      read.liveUntil = read.sentAt + read.pttlMs;
    });
    expect(verdict).toBe('PASS');
  });

  it("proves nothing from a run recorded with no reading of A's lock as its shutdown began", async () => {
    const { verdict, judgement } = await rejudge(goodShutdown, (f) => {
      delete observed(f).shutdown!.aLockAtStart;
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([A_LEASE_AT_SHUTDOWN]);
  });

  it('is INCONCLUSIVE when A died of SIGTERM mid-job: a kill, not a shutdown', async () => {
    const { verdict, judgement } = await rejudge(goodShutdown, (f) => {
      const o = observed(f);
      o.shutdown!.by = 'sigterm';
      o.shutdown!.outcome = { by: 'sigterm', exited: 'SIGTERM' };
      o.aResumed = {
        job: { ...o.aResumed!.job!, ok: false, error: 'holder A exited (SIGTERM) before answering' },
      };
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toContain(SHUTDOWN_LANDED);
  });

  it('is INCONCLUSIVE when B never wrote', async () => {
    const { verdict, judgement } = await rejudge(goodShutdown, (f) => {
      const o = observed(f);
      o.shutdown!.bAfter = { wrote: false, attempts: 40, lastDeniedAt: null };
      f.effects = effects(f).filter((e) => e.holder !== 'B' || e.seq <= o.solo.lastSeq);
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([B_TOOK_DURING_SHUTDOWN]);
  });
});
