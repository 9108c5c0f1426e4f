/**
 * V315's judge on recorded runs, with no store and no process: the same recorded histories with
 * one fact changed move the verdict the way the property and the preconditions say they must.
 */
import { describe, expect, it } from 'vitest';
import type { EffectRecord } from '../../src/core/resource.ts';
import { FIXTURES, load, rejudge, type JudgeFixture } from './recorded.ts';
import { A_LED, B_LEASE_LIVE, B_LED_WHILE_CUT, HELD_AT_POINT, RENEWALS_STOPPED } from '../../oracles/V315/judge.ts';
import type { V315Observations } from '../../oracles/V315/observations.ts';
import { B_LED_INSIDE_A_LEASE } from '../../oracles/V315/failover-checks.ts';
import { LOST_IN_FAILOVER } from '../../src/judging/failover-loss.ts';

const fixture = (name: string) => load(`${FIXTURES}/V315/${name}.json`);
const bad = fixture('bad-cached-flag-blackhole');
const good = fixture('good-recheck-each-write-blackhole');
const goodKill = fixture('good-recheck-each-write-kill');
const lapsed = fixture('inconclusive-b-stops-renewing');
// A file store: A's filesystem calls held (no wire) while its lease file lapses.
const badFs = fixture('bad-fs-cached-flag');
const goodFs = fixture('good-fs-recheck-each-write');
const observed = (f: { observations: unknown }) => f.observations as V315Observations;
const held = (judgement: { preconditions: Array<{ name: string; held: boolean }> }, name: string) =>
  judgement.preconditions.find((c) => c.name === name)?.held;
/** A's writes that reached the resource after B's first. */
const aAfterB = (f: JudgeFixture): EffectRecord[] => {
  const bFirst = f.effects.find((e) => e.holder === 'B')!;
  return f.effects.filter((e) => e.holder === 'A' && e.seq > bFirst.seq);
};

describe('V315 judge', () => {
  it("FAILs the recorded cached-flag run, offending with A's writes after B's first", async () => {
    const { verdict, judgement } = await rejudge(bad);
    expect(verdict).toBe('FAIL');
    expect(judgement.property.offending.length).toBeGreaterThan(0);
    expect(judgement.property.offending.every((e) => 'holder' in e && e.holder === 'A')).toBe(true);
    expect(judgement.counts.aWritesAcceptedAfterBFirstWrite).toBe(aAfterB(bad).length);
  });

  it("PASSes the same run had A's writes stopped before B's first", async () => {
    const { verdict, judgement } = await rejudge(bad, (f) => {
      const late = new Set(aAfterB(f).map((e) => e.seq));
      f.effects = f.effects.filter((e) => !late.has(e.seq));
    });
    expect(verdict).toBe('PASS');
    expect(judgement.counts.aWritesAfterBFirstWrite).toBe(0);
  });

  it("PASSes the same run had the resource rejected each of A's late writes (a fence)", async () => {
    const { verdict, judgement } = await rejudge(bad, (f) => {
      for (const e of aAfterB(f)) e.accepted = false;
    });
    expect(verdict).toBe('PASS');
    expect(judgement.explanation).toMatch(/the fence held/);
  });

  it("does not judge A's writes that reached the resource after play stopped watching", async () => {
    const { verdict } = await rejudge(bad, (f) => {
      observed(f).watchedUntil = aAfterB(f)[0]!.t - 0.001;
    });
    expect(verdict).toBe('PASS');
  });

  it("is INCONCLUSIVE, not FAIL, when B's lease was found gone before each of A's writes", async () => {
    const { verdict, judgement } = await rejudge(bad, (f) => {
      for (const { reading } of observed(f).bLease!.atAWrites) Object.assign(reading, { exists: false, pttlMs: -2 });
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(held(judgement, B_LEASE_LIVE)).toBe(false);
  });

  it("is INCONCLUSIVE, not FAIL, when B's lease cannot be read on the store", async () => {
    const { verdict, judgement } = await rejudge(bad, (f) => {
      for (const r of observed(f).bLease!.atAWrites) r.reading = { kind: 'unreadable', why: 'a lease in a table' };
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(held(judgement, B_LEASE_LIVE)).toBe(false);
  });

  it("FAILs the recorded run where B let its lease lapse, had B's lock been there at A's writes", async () => {
    expect((await rejudge(lapsed)).verdict).toBe('INCONCLUSIVE');
    const { verdict, judgement } = await rejudge(lapsed, (f) => {
      const first = observed(f).bLease!.atFirstWrite;
      observed(f).bLease!.atAWrites = aAfterB(f).map((e) => ({
        seq: e.seq,
        reading: { ...first, sentAt: e.t - 1, receivedAt: e.t - 0.5 } as typeof first,
      }));
    });
    expect(verdict).toBe('FAIL');
    expect(held(judgement, B_LEASE_LIVE)).toBe(true);
  });

  it("FAILs the recorded recheck run had one of A's writes been accepted after B's first, while B's lease lived", async () => {
    const { verdict, judgement } = await rejudge(good, (f) => {
      const bFirst = f.effects.find((e) => e.holder === 'B')!;
      const seq = Math.max(...f.effects.map((e) => e.seq)) + 1;
      f.effects.push({ ...bFirst, holder: 'A', seq, t: bFirst.t + 1 });
      const first = observed(f).bLease!.atFirstWrite;
      observed(f).bLease!.atAWrites.push({
        seq,
        reading: { ...first, sentAt: bFirst.t, receivedAt: bFirst.t + 0.5 } as typeof first,
      });
    });
    expect(verdict).toBe('FAIL');
    expect(judgement.property.offending).toHaveLength(1);
  });

  it('is INCONCLUSIVE when B wrote only once the cut was lifted', async () => {
    const { verdict, judgement } = await rejudge(good, (f) => {
      observed(f).bWroteWhileCut = false;
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(held(judgement, B_LED_WHILE_CUT)).toBe(false);
  });

  it('is INCONCLUSIVE when B never wrote', async () => {
    const { verdict, judgement } = await rejudge(good, (f) => {
      Object.assign(observed(f), { bWrote: false, bWroteWhileCut: false, bLease: null });
      f.effects = f.effects.filter((e) => e.holder !== 'B');
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(held(judgement, B_LED_WHILE_CUT)).toBe(false);
  });

  it("is INCONCLUSIVE when the cut stopped none of A's commands (A never tried to renew)", async () => {
    const { verdict, judgement } = await rejudge(good, (f) => {
      Object.assign(observed(f).cut!.stopped!, { commandsAffected: 0, refusedConnections: 0 });
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(held(judgement, RENEWALS_STOPPED)).toBe(false);
  });

  it("is INCONCLUSIVE when the store closed none of A's connections (--fault kill)", async () => {
    expect((await rejudge(goodKill)).verdict).toBe('PASS');
    const { verdict, judgement } = await rejudge(goodKill, (f) => {
      observed(f).cut!.killed = 0;
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(held(judgement, RENEWALS_STOPPED)).toBe(false);
  });

  it('is INCONCLUSIVE when A never led', async () => {
    const { verdict, judgement } = await rejudge(good, (f) => {
      Object.assign(observed(f), {
        aFirstWriteAt: null,
        cut: null,
        bWrote: false,
        bWroteWhileCut: false,
        bLease: null,
      });
      f.effects = [];
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(judgement.preconditions.map((c) => [c.name, c.held])).toEqual([[A_LED, false]]);
  });

  describe('on an explored point', () => {
    const point = {
      label: 'leader#2 EVAL lock-oracles:V315',
      inWords:
        "A's EVAL lock-oracles:V315 (leader#2 EVAL lock-oracles:V315) was held at its wire proxy before it reached the store",
      missed: "A's leader finished without reaching leader#2 EVAL lock-oracles:V315",
    };

    it('judges the point in place of the cut, naming it in the detail', async () => {
      const { verdict, judgement } = await rejudge(bad, (f) => {
        observed(f).point = { ...point, reached: 'held' };
      });
      expect(verdict).toBe('FAIL');
      const check = judgement.preconditions.find((c) => c.name === HELD_AT_POINT);
      expect(check?.held).toBe(true);
      expect(check?.detail).toContain(point.label);
      expect(held(judgement, RENEWALS_STOPPED)).toBeUndefined();
    });

    it("is INCONCLUSIVE when A's loop ended without reaching the point", async () => {
      const { verdict, judgement } = await rejudge(bad, (f) => {
        Object.assign(observed(f), { point: { ...point, reached: 'ended' }, cut: null });
      });
      expect(verdict).toBe('INCONCLUSIVE');
      expect(judgement.preconditions.find((c) => c.name === HELD_AT_POINT)).toMatchObject({
        held: false,
        detail: point.missed,
      });
    });
  });

  it("FAILs the recorded file-store cached-flag run, PASSes its twin, and is INCONCLUSIVE had the filesystem boundaries held none of A's calls", async () => {
    const { verdict, judgement } = await rejudge(badFs);
    expect(verdict).toBe('FAIL');
    expect(judgement.preconditions.find((c) => c.name === RENEWALS_STOPPED)!.detail).toMatch(
      /^A's filesystem boundaries held \d+ call\(s\) A made while cut off/,
    );
    expect((await rejudge(goodFs)).verdict).toBe('PASS');
    const nothingHeld = await rejudge(badFs, (f) => {
      observed(f).cut!.stopped!.commandsAffected = 0;
    });
    expect(nothingHeld.verdict).toBe('INCONCLUSIVE');
    expect(held(nothingHeld.judgement, RENEWALS_STOPPED)).toBe(false);
  });
});

describe("V315 judge: where the lock lives, inferred from A's own leader loop", () => {
  const inferred = fixture('bad-cached-flag-prefixed-undeclared-inferred');

  it('FAILs the recorded run and says the location was inferred; had nothing been inferred it would not say so', async () => {
    const { verdict, judgement } = await rejudge(inferred);
    expect(verdict).toBe('FAIL');
    expect(judgement.explanation).toMatch(/inferred from A's own leader loop \(SET lock\.lock-oracles:V315 .*NX\)/);
    const declared = await rejudge(inferred, (f) => {
      delete observed(f).inferred;
    });
    expect(declared.judgement.explanation).not.toMatch(/inferred/);
  });
});

describe('V315 judge: --fault failover (--topology replicated:1)', () => {
  const badFailover = fixture('bad-cached-flag-failover');
  const goodFailover = fixture('good-recheck-each-write-failover');
  const fencedFailover = fixture('bad-cached-flag-fenced-failover');

  it("FAILs the recorded cached-flag run after a failover and PASSes recheck-each-write's", async () => {
    const bad = await rejudge(badFailover);
    expect(bad.verdict).toBe('FAIL');
    expect(held(bad.judgement, LOST_IN_FAILOVER)).toBe(true);
    expect(held(bad.judgement, B_LED_INSIDE_A_LEASE)).toBe(true);
    // A failover loses A's key: no renewal of A's needs to have been stopped.
    expect(held(bad.judgement, RENEWALS_STOPPED)).toBeUndefined();
    expect((await rejudge(goodFailover)).verdict).toBe('PASS');
  });

  it('is INCONCLUSIVE had a replica held the leader key when the master died (the failover lost nothing)', async () => {
    const { verdict, judgement } = await rejudge(badFailover, (f) => {
      for (const node of observed(f).failover!.nodes) node.exists = true;
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(held(judgement, LOST_IN_FAILOVER)).toBe(false);
  });

  it("is INCONCLUSIVE had A's lease run out before B's first write (its lapse, not the failover, let B lead)", async () => {
    const { verdict, judgement } = await rejudge(badFailover, (f) => {
      const bFirst = f.effects.find((e) => e.holder === 'B')!;
      observed(f).failover!.aLeaseUntil = bFirst.t - 1;
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(held(judgement, B_LED_INSIDE_A_LEASE)).toBe(false);
  });

  it('judges an explored failover point (--explore --topology) with both the point and the failover; INCONCLUSIVE had A not reached it', async () => {
    const explored = fixture('bad-cached-flag-explored-failover');
    const { verdict, judgement } = await rejudge(explored);
    expect(verdict).toBe('FAIL');
    expect(held(judgement, HELD_AT_POINT)).toBe(true);
    expect(held(judgement, LOST_IN_FAILOVER)).toBe(true);
    expect(judgement.explanation).toMatch(/at leader#\d+ \w+ \(the command run on the master, its reply held/);
    const missed = await rejudge(explored, (f) => {
      observed(f).point!.reached = 'ended';
    });
    expect(missed.verdict).toBe('INCONCLUSIVE');
  });

  it("names the repeated fence of the INCR lost with the master; PASSes had the resource rejected A's writes after B's", async () => {
    const { verdict, judgement } = await rejudge(fencedFailover);
    expect(verdict).toBe('FAIL');
    const bFence = fencedFailover.effects.find((e) => e.holder === 'B')!.fence;
    expect(aAfterB(fencedFailover).every((e) => e.fence === bFence)).toBe(true);
    expect(judgement.explanation).toContain(`The fencing token repeated: B's first write carried fence ${bFence}`);
    const rejected = await rejudge(fencedFailover, (f) => {
      for (const e of aAfterB(f)) e.accepted = false;
    });
    expect(rejected.verdict).toBe('PASS');
  });
});
