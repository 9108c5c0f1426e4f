/**
 * V313's judge on recorded runs, with no store and no process: the same recorded histories with
 * one fact changed move the verdict the way the property and the preconditions say they must —
 * A's accepted writes after B's first FAIL only inside B's lease, a fence's rejections PASS, and a
 * stop, a contender or a lease that did not land makes the run INCONCLUSIVE.
 */
import { describe, expect, it } from 'vitest';
import { FIXTURES, load, rejudge, type JudgeFixture } from './recorded.ts';
import { aAfterB, bFirst, effects, observed, unmet } from './v313-facts.ts';
import {
  A_LEASE_LAPSED,
  A_ON_OLD_LEASE,
  A_RAN_ON,
  A_REACHED,
  A_STOPPED_AT_POINT,
  B_CAME_AND_WENT,
  B_LEASE_LIVE,
  B_TOOK_AFTER_LIFT,
  B_TOOK_WHILE_STOPPED,
  RENEWAL_HELD,
  STAGED_HELD,
  WRITES_LEFT,
} from '../../oracles/V313/judge.ts';
import type { V313Observations } from '../../oracles/V313/observations.ts';
import { B_INSIDE_A_LEASE, B_TOOK_PROMOTED, LOCK_NOT_REPLICATED } from '../../oracles/V313/failover-checks.ts';

const fixture = (name: string) => load(`${FIXTURES}/V313/${name}.json`);
const badPause = fixture('bad-no-renewal-pause');
const goodPause = fixture('good-renew-checked-pause');
const goodWire = fixture('good-renew-checked-renewal-wire');
const badComeAndGo = fixture('bad-renew-resurrects-come-and-go');
const badAfterLift = fixture('bad-no-renewal-after-lift');
const goodAfterLift = fixture('good-renew-checked-after-lift');
const retakes = fixture('inconclusive-retakes-free-lock');

describe('V313 judge: the property', () => {
  it("FAILs the recorded no-renewal run, offending with A's accepted writes after B's first", async () => {
    const { verdict, judgement } = await rejudge(badPause);
    expect(verdict).toBe('FAIL');
    expect(judgement.property.offending.map((e) => ('seq' in e ? e.seq : -1))).toEqual(
      aAfterB(badPause).map((e) => e.seq),
    );
    expect(judgement.counts.aWritesAcceptedAfterBFirstWrite).toBe(aAfterB(badPause).length);
  });

  it("PASSes the same run had A made no write after B's first", async () => {
    const { verdict, judgement } = await rejudge(badPause, (f) => {
      const late = new Set(aAfterB(f).map((e) => e.seq));
      f.effects = effects(f).filter((e) => !late.has(e.seq));
    });
    expect(verdict).toBe('PASS');
    expect(judgement.property.detail).toBe("A made no write after B's first");
  });

  it("PASSes the same run had the resource rejected each of A's writes after B's first (a fence)", async () => {
    const { verdict, judgement } = await rejudge(badPause, (f) => {
      for (const e of aAfterB(f)) e.accepted = false;
    });
    expect(verdict).toBe('PASS');
    expect(judgement.counts.aWritesRejectedByFence).toBe(aAfterB(badPause).length);
    expect(judgement.explanation).toMatch(/the resource rejected it: the fence held/);
  });

  it("FAILs the recorded renew-checked run had one of A's writes been accepted after B's first, B's lock read live before it", async () => {
    const { verdict } = await rejudge(goodPause, (f) => {
      const b = bFirst(f);
      const seq = Math.max(...effects(f).map((e) => e.seq)) + 1;
      effects(f).push({ ...b, seq, t: b.t + 1, holder: 'A' });
      const first = observed(f).bLease!.atFirstWrite;
      observed(f).bLease!.atAWrites.push({
        seq,
        reading: { ...first, sentAt: b.t, receivedAt: b.t + 0.5 } as typeof first,
      });
    });
    expect(verdict).toBe('FAIL');
  });
});

describe("V313 judge: B's lease (--contender hold), read before each of A's writes was accepted", () => {
  /** The reading kept for A's write `seq` (the one taken before the harness accepted it). */
  const readingAt = (f: JudgeFixture, seq: number) => observed(f).bLease!.atAWrites.find((r) => r.seq === seq)!.reading;
  const storeReadingAt = (f: JudgeFixture, seq: number) => {
    const reading = readingAt(f, seq);
    if (reading.kind !== 'store') throw new Error('the fixture reads a Redis key');
    return reading;
  };

  it("keeps one reading per write of A's after B's first, each showing B's lock live", async () => {
    const { judgement } = await rejudge(badPause);
    expect(aAfterB(badPause).every((e) => storeReadingAt(badPause, e.seq).exists)).toBe(true);
    expect(judgement.preconditions.find((c) => c.name === B_LEASE_LIVE)?.detail).toMatch(
      /read in the store before it was accepted/,
    );
  });

  it("is INCONCLUSIVE, not FAIL, when every reading before A's writes found B's key gone", async () => {
    const { verdict, judgement } = await rejudge(badPause, (f) => {
      for (const e of aAfterB(f)) Object.assign(storeReadingAt(f, e.seq), { exists: false, pttlMs: -2 });
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([B_LEASE_LIVE]);
  });

  it("is INCONCLUSIVE when the key held another token than B's at A's writes (A re-took a free lock)", async () => {
    const { verdict } = await rejudge(badPause, (f) => {
      for (const e of aAfterB(f)) storeReadingAt(f, e.seq).value = 'A-again';
    });
    expect(verdict).toBe('INCONCLUSIVE');
  });

  it("is INCONCLUSIVE when B's PTTL, as read, ran out before the write was accepted", async () => {
    const { verdict } = await rejudge(badPause, (f) => {
      for (const e of aAfterB(f)) {
        const reading = storeReadingAt(f, e.seq);
        reading.pttlMs = Math.max(0, Math.floor(e.t - reading.sentAt) - 1);
      }
    });
    expect(verdict).toBe('INCONCLUSIVE');
  });

  it('still FAILs when only one of the writes came inside the lease', async () => {
    const { verdict } = await rejudge(badPause, (f) => {
      for (const e of aAfterB(f).slice(1)) Object.assign(storeReadingAt(f, e.seq), { exists: false, pttlMs: -2 });
    });
    expect(verdict).toBe('FAIL');
  });

  it("FAILs when B's key had no expiry (PTTL -1) and held B's token as read: live as read, said so", async () => {
    const { verdict, judgement } = await rejudge(badPause, (f) => {
      for (const e of aAfterB(f)) storeReadingAt(f, e.seq).pttlMs = -1;
    });
    expect(verdict).toBe('FAIL');
    expect(judgement.preconditions.find((c) => c.name === B_LEASE_LIVE)?.detail).toMatch(/no expiry in the store/);
  });

  it("is INCONCLUSIVE when a write has no reading (B's lock not read before it was accepted)", async () => {
    const { verdict } = await rejudge(badPause, (f) => {
      observed(f).bLease!.atAWrites = [];
    });
    expect(verdict).toBe('INCONCLUSIVE');
  });

  it("is INCONCLUSIVE when B's lease could not be read at all", async () => {
    const { verdict, judgement } = await rejudge(badPause, (f) => {
      for (const r of observed(f).bLease!.atAWrites) r.reading = { kind: 'unreadable', why: 'a lease in a table' };
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(judgement.preconditions.find((c) => c.name === B_LEASE_LIVE)?.detail).toMatch(/a lease in a table/);
  });

  it("FAILs the recorded re-take run (INCONCLUSIVE) had B's lock been there at A's writes", async () => {
    expect((await rejudge(retakes)).verdict).toBe('INCONCLUSIVE');
    const { verdict } = await rejudge(retakes, (f) => {
      const first = observed(f).bLease!.atFirstWrite;
      observed(f).bLease!.atAWrites = aAfterB(f).map((e) => ({
        seq: e.seq,
        reading: { ...first, sentAt: e.t - 1, receivedAt: e.t - 0.5 } as typeof first,
      }));
    });
    expect(verdict).toBe('FAIL');
  });
});

describe('V313 judge: the preconditions', () => {
  it('is INCONCLUSIVE when the job, run alone, made a single write', async () => {
    const { verdict, judgement } = await rejudge(goodPause, (f) => {
      f.effects = effects(f).filter((e) => e.seq === 1 || e.seq > observed(f).solo.lastSeq);
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([WRITES_LEFT]);
  });

  it('is INCONCLUSIVE when A never reached its first write', async () => {
    const { verdict, judgement } = await rejudge(goodPause, (f) => {
      const { solo, aFirstWrite } = observed(f);
      f.observations = { solo, aFirstWrite: { ...aFirstWrite!, at: null } } satisfies V313Observations;
      f.effects = effects(f).filter((e) => e.seq <= solo.lastSeq);
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(judgement.preconditions.map((c) => c.name)).toEqual([WRITES_LEFT, A_REACHED]);
    expect(unmet(judgement)).toEqual([A_REACHED]);
  });

  it("is INCONCLUSIVE when A was no longer stopped as B wrote (A's stop did not outlast its lease)", async () => {
    const { verdict, judgement } = await rejudge(goodPause, (f) => {
      observed(f).bWhileStopped!.aStopped = false;
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([B_TOOK_WHILE_STOPPED]);
  });

  it("is INCONCLUSIVE when A's job did not finish after resuming", async () => {
    const { verdict, judgement } = await rejudge(goodPause, (f) => {
      observed(f).aResumed = { job: null };
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([A_RAN_ON]);
  });

  it("is INCONCLUSIVE when A's job ended without a renewal to hold (--variant renewal-wire)", async () => {
    const { verdict, judgement } = await rejudge(goodWire, (f) => {
      const { solo, aFirstWrite, stop } = observed(f);
      if (stop?.kind !== 'renewal-wire') throw new Error('the fixture holds a renewal');
      f.observations = {
        solo,
        aFirstWrite,
        stop: { ...stop, landed: 'ended', held: null },
      } satisfies V313Observations;
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([RENEWAL_HELD]);
  });

  it('names the explored point in the detail, under one fixed name, when A never reached it', async () => {
    const { verdict, judgement } = await rejudge(goodPause, (f) => {
      const { solo, aFirstWrite } = observed(f);
      f.observations = {
        solo,
        aFirstWrite,
        stop: {
          kind: 'point',
          landed: 'ended',
          label: 'job#5 EVAL',
          words: '…',
          missed: 'A took another path',
          since: 0,
        },
      } satisfies V313Observations;
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(judgement.preconditions.find((c) => c.name === A_STOPPED_AT_POINT)).toMatchObject({
      held: false,
      detail: 'A took another path',
    });
  });

  it('PASSes the recorded renew-checked run had A been stopped at an explored point instead, saying where', async () => {
    const { verdict, judgement } = await rejudge(goodPause, (f) => {
      observed(f).stop = {
        kind: 'point',
        landed: 'held',
        label: 'job#5 EVAL',
        words: 'A was held',
        missed: '',
        since: 0,
      };
    });
    expect(verdict).toBe('PASS');
    expect(judgement.explanation).toContain('was held at job#5 EVAL (A was held)');
  });
});

describe('V313 judge: --contender come-and-go', () => {
  it('FAILs the recorded resurrecting run, saying the third holder C was denied', async () => {
    const { verdict, judgement } = await rejudge(badComeAndGo);
    expect(verdict).toBe('FAIL');
    expect(judgement.counts.cTookLock).toBe(0);
    expect(judgement.explanation).toMatch(/a third holder C arriving after was denied/);
  });

  it("is INCONCLUSIVE when the key at A's next write held a token not A's (a new lease)", async () => {
    const { verdict, judgement } = await rejudge(badComeAndGo, (f) => {
      observed(f).aNextWrite!.value = 'a-new-token';
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([A_ON_OLD_LEASE]);
  });

  it("is INCONCLUSIVE when B's key was still there after B's job ended (B did not go)", async () => {
    const { verdict, judgement } = await rejudge(badComeAndGo, (f) => {
      observed(f).bCameAndWent!.after = { exists: true, pttlMs: 120 };
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([B_CAME_AND_WENT]);
  });
});

describe('V313 judge: --contender after-lift', () => {
  it('FAILs the recorded no-renewal run, and PASSes it without A writing after B', async () => {
    expect((await rejudge(badAfterLift)).verdict).toBe('FAIL');
    const { verdict } = await rejudge(badAfterLift, (f) => {
      const late = new Set(aAfterB(f).map((e) => e.seq));
      f.effects = effects(f).filter((e) => !late.has(e.seq));
    });
    expect(verdict).toBe('PASS');
  });

  it("is INCONCLUSIVE when A's key was still there while A was stopped", async () => {
    const { verdict, judgement } = await rejudge(goodAfterLift, (f) => {
      observed(f).aLeaseLapsed = { ...observed(f).aLeaseLapsed!, lapsed: false, seen: { exists: true, pttlMs: 80 } };
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([A_LEASE_LAPSED]);
  });

  it("is INCONCLUSIVE, not PASS, when B never wrote after A's fault lifted", async () => {
    const { verdict, judgement } = await rejudge(goodAfterLift, (f) => {
      const lastSeq = observed(f).solo.lastSeq;
      f.effects = effects(f).filter((e) => e.holder !== 'B' || e.seq <= lastSeq);
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([B_TOOK_AFTER_LIFT]);
  });
});

describe("V313 judge: a cluster of the target's own nodes (--store cluster, --variant renewal-wire)", () => {
  const badCluster = fixture('bad-cluster-anchor-at-arrival-renewal-wire');
  const goodCluster = fixture('good-cluster-anchor-at-send-renewal-wire');

  it('FAILs the recorded arrival-anchored run, naming where the grant was held, and PASSes its send-anchored twin', async () => {
    const bad = await rejudge(badCluster);
    expect(bad.verdict).toBe('FAIL');
    expect(bad.judgement.property.offending.length).toBe(aAfterB(badCluster).length);
    expect(bad.judgement.explanation).toMatch(/its renewal's grant kept on the link to A's node n\d/);
    expect(bad.judgement.preconditions.find((c) => c.name === RENEWAL_HELD)?.detail).toMatch(
      /was held at the link to A's node n\d from/,
    );
    expect((await rejudge(goodCluster)).verdict).toBe('PASS');
  });

  it("is INCONCLUSIVE, not FAIL, when the home's report of B's grant, read before each of A's late writes, showed it gone", async () => {
    const { verdict, judgement } = await rejudge(badCluster, (f) => {
      for (const { reading } of observed(f).bLease!.atAWrites) Object.assign(reading, { exists: false, pttlMs: -2 });
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([B_LEASE_LIVE]);
  });

  it('is INCONCLUSIVE when no grant reached the link to be held', async () => {
    const { verdict, judgement } = await rejudge(badCluster, (f) => {
      const { solo, aFirstWrite, stop } = observed(f);
      if (stop?.kind !== 'renewal-wire') throw new Error('the fixture holds a grant');
      f.observations = {
        solo,
        aFirstWrite,
        stop: { ...stop, landed: 'timeout', held: null },
      } satisfies V313Observations;
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([RENEWAL_HELD]);
    expect(judgement.preconditions.find((c) => c.name === RENEWAL_HELD)?.detail).toMatch(
      /sent no renewal held at the link to A's node/,
    );
  });
});

describe("V313 judge: explored on a cluster of the target's own nodes (--store cluster --explore)", () => {
  const badArrival = fixture('bad-cluster-anchor-at-arrival-explored');
  const goodSend = fixture('good-cluster-anchor-at-send-explored');
  const badDrain = fixture('bad-cluster-drain-admissions-explored');
  const goodDrain = fixture('good-cluster-drain-revoke-explored');

  it("FAILs the arrival-anchored run at a message on A's node's link, and the admission-count drain at the staged write's seam", async () => {
    const arrival = await rejudge(badArrival);
    expect(arrival.verdict).toBe('FAIL');
    expect(arrival.judgement.property.offending.length).toBe(aAfterB(badArrival).length);
    expect(observed(badArrival).stop).toMatchObject({ kind: 'point', label: expect.stringMatching(/ n\d→n\d #\d /) });
    const drain = await rejudge(badDrain);
    expect(drain.verdict).toBe('FAIL');
    expect(observed(badDrain).stop).toMatchObject({ label: expect.stringMatching(/seam write:staged-before-commit$/) });
  });

  it('PASSes their twins: the send-anchored deadline and the revoking drain', async () => {
    expect((await rejudge(goodSend)).verdict).toBe('PASS');
    expect((await rejudge(goodDrain)).verdict).toBe('PASS');
  });

  it("is INCONCLUSIVE, not FAIL, when the message the point waits for never crossed A's node's link", async () => {
    const { verdict, judgement } = await rejudge(badArrival, (f) => {
      const { solo, aFirstWrite, stop } = observed(f);
      if (stop?.kind !== 'point') throw new Error('the fixture is an explored point');
      f.observations = { solo, aFirstWrite, stop: { ...stop, landed: 'ended' } } satisfies V313Observations;
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([A_STOPPED_AT_POINT]);
  });

  it("is INCONCLUSIVE, not FAIL, when the staged write's drain run had B's grant gone before each of A's late writes", async () => {
    const { verdict, judgement } = await rejudge(badDrain, (f) => {
      for (const { reading } of observed(f).bLease!.atAWrites) Object.assign(reading, { exists: false, pttlMs: -2 });
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([B_LEASE_LIVE]);
  });
});

describe('V313 judge: --variant staged (a recall while a write is staged, on the cluster record lock)', () => {
  const badStaged = fixture('bad-cluster-drain-admissions-staged');
  const goodStaged = fixture('good-cluster-drain-revoke-staged');

  it('FAILs the admission-count drain, whose staged write committed after B wrote, and PASSes the revoking drain', async () => {
    const bad = await rejudge(badStaged);
    expect(bad.verdict).toBe('FAIL');
    expect(bad.judgement.explanation).toMatch(/held between a staged write and its commit/);
    expect((await rejudge(goodStaged)).verdict).toBe('PASS');
  });

  it('is INCONCLUSIVE when A never reached the staged write seam', async () => {
    const { verdict, judgement } = await rejudge(badStaged, (f) => {
      const { solo, aFirstWrite, stop } = observed(f);
      if (stop?.kind !== 'staged') throw new Error('the fixture holds A at its staged write');
      f.observations = { solo, aFirstWrite, stop: { ...stop, landed: 'ended' } } satisfies V313Observations;
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([STAGED_HELD]);
  });
});

describe('V313 judge: --variant failover', () => {
  const badFenced = fixture('bad-fenced-failover');
  const goodWait = fixture('good-wait-checked-failover');
  const failover = (f: JudgeFixture) => observed(f).failover!;

  it('FAILs the recorded fenced run and names the repeated token', async () => {
    const { verdict, judgement } = await rejudge(badFenced);
    expect(verdict).toBe('FAIL');
    expect(judgement.explanation).toMatch(
      /The fencing token repeated: B's first write carried fence (\d+), and so did A's/,
    );
  });

  it('is INCONCLUSIVE had a replica held the lock when the master died (the loss did not land)', async () => {
    const { verdict, judgement } = await rejudge(badFenced, (f) => {
      for (const node of failover(f).nodes) if (node.role !== 'master') node.exists = true;
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([LOCK_NOT_REPLICATED]);
  });

  it("is INCONCLUSIVE had B written only after A's lease ran out by the master's PTTL (a slow failover)", async () => {
    const { verdict, judgement } = await rejudge(badFenced, (f) => {
      failover(f).aLeaseUntil = failover(f).promotedAt - 1;
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([B_INSIDE_A_LEASE]);
  });

  it('PASSes the recorded WAIT-checked run, and is INCONCLUSIVE had B not taken the lock on the promoted node', async () => {
    expect((await rejudge(goodWait)).verdict).toBe('PASS');
    const { verdict, judgement } = await rejudge(goodWait, (f) => {
      failover(f).bWrote = false;
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([B_TOOK_PROMOTED]);
  });
});

describe('V313 judge: an explored failover point (--explore --topology replicated:2)', () => {
  const explored = fixture('bad-no-renewal-explored-failover');
  const fencedBySequence = fixture('good-fenced-sequence-failover');
  const stop = (f: JudgeFixture) => observed(f).stop as Extract<V313Observations['stop'], { kind: 'point' }>;

  it('FAILs the recorded point, with A held at its boundary named in the explanation', async () => {
    const { verdict, judgement } = await rejudge(explored);
    expect(verdict).toBe('FAIL');
    expect(stop(explored).fault).toBe('failover');
    expect(judgement.explanation).toContain(`A took the lock and was held at ${stop(explored).label}`);
  });

  it('is not applicable had A ended its job before the boundary with no write (it refused its lock)', async () => {
    const { verdict, judgement } = await rejudge(explored, (f) => {
      const o = observed(f);
      stop(f).landed = 'ended';
      delete o.failover;
      f.effects = effects(f).filter((e) => e.holder !== 'A');
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(judgement.notApplicable).toMatch(/ended before .* without a write/);
    expect(unmet(judgement)).toContain(A_STOPPED_AT_POINT);
  });

  it('is not applicable had the master held no key at the failover (A had released it)', async () => {
    const { judgement } = await rejudge(explored, (f) => {
      for (const node of observed(f).failover!.nodes) node.exists = false;
    });
    expect(judgement.notApplicable).toMatch(/the master held no lock at .* \(A had released it\)/);
  });

  it("FAILs lease-wait-checked's recorded point at its WAIT, and PASSes it had A refused the lock there", async () => {
    const atWait = fixture('bad-wait-checked-explored-failover-at-wait');
    expect(stop(atWait).label).toMatch(/WAIT$/);
    expect((await rejudge(atWait)).verdict).toBe('FAIL');
    const { verdict } = await rejudge(atWait, (f) => {
      f.effects = effects(f).filter((e) => e.holder !== 'A' || e.seq < bFirst(f).seq);
    });
    expect(verdict).toBe('PASS');
  });

  it("PASSes the recorded sequence-fenced failover, naming the fences A's and B's writes carried", async () => {
    const { verdict, judgement } = await rejudge(fencedBySequence);
    expect(verdict).toBe('PASS');
    const aFence = aAfterB(fencedBySequence)[0]!.fence;
    expect(aFence).toBeLessThan(bFirst(fencedBySequence).fence!);
    expect(judgement.explanation).toContain(
      `A's carried fence ${aFence}, B's first fence ${bFirst(fencedBySequence).fence}`,
    );
  });

  it("FAILs the same run had the resource taken A's fence as not older (a counter that failed over)", async () => {
    const { verdict } = await rejudge(fencedBySequence, (f) => {
      for (const e of aAfterB(f)) {
        e.fence = bFirst(f).fence;
        e.accepted = true;
      }
    });
    expect(verdict).toBe('FAIL');
  });
});

describe("V313 judge: a claim whose end is an app-clock field (storeKey's expiresField)", () => {
  const claim = fixture('bad-job-claim-app-clock-no-renewal');
  const readingsAt = (f: JudgeFixture) =>
    aAfterB(f).map((e) => {
      const reading = observed(f).bLease!.atAWrites.find((r) => r.seq === e.seq)!.reading;
      if (reading.kind !== 'store' || !reading.expiry) throw new Error('the fixture reads lockExpiresAt');
      return reading;
    });

  it("FAILs the recorded run, judged by lockExpiresAt against the harness's own clock", async () => {
    const { verdict, judgement } = await rejudge(claim);
    expect(verdict).toBe('FAIL');
    expect(readingsAt(claim).every((r) => r.expiry!.field === 'lockExpiresAt' && r.pttlMs > 0)).toBe(true);
    expect(judgement.preconditions.find((c) => c.name === B_LEASE_LIVE)?.detail).toMatch(
      /lockExpiresAt field "[^"]+", on the app's clock, was \d+ ms ahead of the harness's own \(unskewed\) clock/,
    );
  });

  it("is INCONCLUSIVE, not FAIL, when B's claim had lapsed by that field before A wrote", async () => {
    const { verdict, judgement } = await rejudge(claim, (f) => {
      for (const r of readingsAt(f)) {
        const lapsedAt = r.expiry!.comparedWithMs - 5;
        Object.assign(r, { exists: false, pttlMs: -2 });
        Object.assign(r.expiry!, { atMs: lapsedAt, raw: new Date(lapsedAt).toISOString() });
      }
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([B_LEASE_LIVE]);
    expect(judgement.preconditions.find((c) => c.name === B_LEASE_LIVE)?.detail).toMatch(
      /B's claim had lapsed by its lockExpiresAt field/,
    );
  });
});

describe('V313 judge: redlock 5 using(), whose own timer renews B', () => {
  it("FAILs the recorded pause run of a routine ignoring its signal: B's lock read live before each late write", async () => {
    const f = fixture('bad-redlock5-using-ignores-signal-pause');
    const { verdict, judgement } = await rejudge(f);
    expect(verdict).toBe('FAIL');
    const late = aAfterB(f).filter((e) => e.accepted);
    expect(late.length).toBeGreaterThan(0);
    expect(late.every((e) => observed(f).bLease!.atAWrites.some((r) => r.seq === e.seq))).toBe(true);
    expect(judgement.preconditions.find((c) => c.name === B_LEASE_LIVE)?.held).toBe(true);
  });

  it('PASSes the recorded pause run of the routine that checks its signal and fences its writes', async () => {
    expect((await rejudge(fixture('good-redlock5-using-checks-signal-fenced-pause'))).verdict).toBe('PASS');
  });

  it("FAILs the recorded partition run of the routine ignoring its signal: A's held writes landed after B's", async () => {
    const f = fixture('bad-redlock5-using-ignores-signal-partition');
    const { verdict, judgement } = await rejudge(f);
    expect(verdict).toBe('FAIL');
    expect(judgement.counts.aWritesAcceptedAfterBFirstWrite).toBe(aAfterB(f).filter((e) => e.accepted).length);
  });

  it("PASSes the fenced partition run by the fence alone, and FAILs it had the resource accepted A's late writes", async () => {
    const f = fixture('good-redlock5-using-checks-signal-fenced-partition');
    const late = aAfterB(f);
    expect(late.length).toBeGreaterThan(0);
    expect(late.every((e) => !e.accepted)).toBe(true);
    const fenced = await rejudge(f);
    expect(fenced.verdict).toBe('PASS');
    expect(fenced.judgement.counts.aWritesRejectedByFence).toBe(late.length);
    const unfenced = await rejudge(f, (g) => {
      for (const e of aAfterB(g)) e.accepted = true;
    });
    expect(unfenced.verdict).toBe('FAIL');
  });
});

describe("V313 judge: where the lock lives, inferred from A's own job", () => {
  const inferred = fixture('bad-no-renewal-prefixed-undeclared-inferred');

  it("FAILs the recorded run, B's lease read where A's job took the lock, and says the location was inferred", async () => {
    const { verdict, judgement } = await rejudge(inferred);
    expect(verdict).toBe('FAIL');
    expect(observed(inferred).bLease!.atAWrites.every((r) => r.reading.kind === 'store')).toBe(true);
    expect(judgement.explanation).toMatch(
      /Where the lock lives was inferred from A's own job \(SET lock\.lock-oracles:V313 .*NX\)/,
    );
    const declared = await rejudge(inferred, (f) => {
      delete observed(f).inferred;
    });
    expect(declared.judgement.explanation).not.toMatch(/inferred/);
  });
});
