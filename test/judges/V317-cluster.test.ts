/**
 * V317's judge on recorded cluster runs (--store cluster: the key's home node's clocks skewed), with
 * no node and no process: one fact changed at a time moves the verdict the way the property and
 * the preconditions say.
 */
import { describe, expect, it } from 'vitest';
import { FIXTURES, load, rejudge, type JudgeFixture } from './recorded.ts';
import {
  CLUSTER_A_LOCKED,
  CLUSTER_AGAIN_IN_B_GRANT,
  CLUSTER_CLOCKS_HELD,
  CLUSTER_READABLE,
  CLUSTER_STEP_LANDED,
} from '../../oracles/V317/cluster-judge.ts';
import type { ClusterObservation, V317Observations } from '../../oracles/V317/observations.ts';

const bad = load(`${FIXTURES}/V317/cluster-bad-remote-wall.json`);
const badBehind = load(`${FIXTURES}/V317/cluster-bad-remote-wall-home-behind.json`);
const good = load(`${FIXTURES}/V317/cluster-good-own-monotonic.json`);
// Explored (--explore): a node's wall clock stepped while a message of A's first lock was held.
const badExplored = load(`${FIXTURES}/V317/cluster-bad-remote-wall-explored.json`);
const goodExplored = load(`${FIXTURES}/V317/cluster-good-own-monotonic-explored.json`);
const cluster = (f: JudgeFixture) => (f.observations as V317Observations).cluster!;
const check = (judgement: { preconditions: Array<{ name: string; held: boolean }> }, name: string) =>
  judgement.preconditions.find((c) => c.name === name)?.held;

describe('V317 judge on a cluster', () => {
  it("FAILs the recorded remote-wall run: A's node granted the lock again while the home's grant was B's, A named", async () => {
    const { verdict, judgement } = await rejudge(bad);
    expect(verdict).toBe('FAIL');
    expect(judgement.counts).toMatchObject({ doubleGrants: 1, skippedTakeovers: 0 });
    expect(check(judgement, CLUSTER_AGAIN_IN_B_GRANT)).toBe(true);
    expect(judgement.property.offending.every((e) => 'holder' in e && e.holder === 'A')).toBe(true);
  });

  it('PASSes the same run had A been denied while B held', async () => {
    const { verdict, judgement } = await rejudge(bad, (f) => {
      cluster(f).aAgain!.token = null;
    });
    expect(verdict).toBe('PASS');
    expect(judgement.counts.doubleGrants).toBe(0);
  });

  it("is INCONCLUSIVE, not FAIL, when the home's grant to B's node had lapsed by the read after A's second lock", async () => {
    const { verdict, judgement } = await rejudge(bad, (f) => {
      cluster(f).aAgain!.homeAfter = { exists: false, value: null, pttlMs: -2 };
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(check(judgement, CLUSTER_AGAIN_IN_B_GRANT)).toBe(false);
  });

  it("is INCONCLUSIVE when a node's clock did not read as asked (the skew did not land)", async () => {
    const { verdict, judgement } = await rejudge(bad, (f) => {
      const o: ClusterObservation = cluster(f);
      o.measuredAfter[o.home!]!.monotonicMs = 0;
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(check(judgement, CLUSTER_CLOCKS_HELD)).toBe(false);
  });

  it('is INCONCLUSIVE, saying why, when the target has no inspect member', async () => {
    const { verdict, judgement } = await rejudge(good, (f) => {
      cluster(f).unreadable = 'the target has no inspect member';
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(judgement.preconditions.find((c) => c.name === CLUSTER_READABLE)?.detail).toMatch(/no inspect member/);
  });

  it('FAILs the recorded own-monotonic run had B been denied after A’s delegation lapsed (a skipped takeover)', async () => {
    expect((await rejudge(good)).verdict).toBe('PASS');
    const { verdict, judgement } = await rejudge(good, (f) => {
      cluster(f).bLate!.token = null;
    });
    expect(verdict).toBe('FAIL');
    expect(judgement.counts.skippedTakeovers).toBe(1);
  });

  it("FAILs the recorded home-behind run: A's node threw away the home's grant; INCONCLUSIVE had the home held none", async () => {
    const { verdict, judgement } = await rejudge(badBehind);
    expect(verdict).toBe('FAIL');
    expect(judgement.property.detail).toMatch(/denied the free lock/);
    const noGrant = await rejudge(badBehind, (f) => {
      cluster(f).aFirst.homeAfter = { exists: false, value: null, pttlMs: -2 };
    });
    expect(noGrant.verdict).toBe('INCONCLUSIVE');
    expect(check(noGrant.judgement, CLUSTER_A_LOCKED)).toBe(false);
  });

  it("FAILs the recorded explored remote-wall point (a node's clock stepped at a message of A's lock); PASSes it had A been denied while B held", async () => {
    const { verdict, judgement } = await rejudge(badExplored);
    expect(verdict).toBe('FAIL');
    expect(check(judgement, CLUSTER_STEP_LANDED)).toBe(true);
    expect(judgement.counts.doubleGrants).toBe(1);
    const denied = await rejudge(badExplored, (f) => {
      cluster(f).aAgain!.token = null;
    });
    expect(denied.verdict, denied.judgement.property.detail).toBe('PASS');
  });

  it("is INCONCLUSIVE, not FAIL, when the explored point's clock step never landed at its message", async () => {
    const { verdict, judgement } = await rejudge(badExplored, (f) => {
      cluster(f).point!.landed = false;
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(check(judgement, CLUSTER_STEP_LANDED)).toBe(false);
  });

  it("reads a point's clocks after its step against the stepped offsets: INCONCLUSIVE read against the ones before", async () => {
    expect((await rejudge(goodExplored)).verdict).toBe('PASS');
    const { verdict, judgement } = await rejudge(goodExplored, (f) => {
      delete cluster(f).askedAfter;
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(check(judgement, CLUSTER_CLOCKS_HELD)).toBe(false);
  });
});
