/**
 * V313's judge on recorded Redlock runs (--topology redlock:5), with no store and no process: a
 * master restarted empty (FAIL), a delayed restart (PASS), a pause inside the acquire (FAIL on a
 * helper acting on what acquire returned, PASS on one checking the lock's validity); an explored
 * point (--explore --topology redlock:5: a master restarted empty at A's first write) FAIL on the
 * unfenced helper, PASS on its fenced twin; the explored pause inside the acquire FAIL on the fenced
 * helper (its token, taken after the spent acquire, newer than B's); one recorded fact changed at a
 * time moves the verdict the way the preconditions and the window say.
 */
import { describe, expect, it } from 'vitest';
import type { EffectRecord } from '../../src/core/resource.ts';
import { FIXTURES, load, rejudge, type JudgeFixture } from './recorded.ts';
import type { V313Observations } from '../../oracles/V313/observations.ts';
import { A_STOPPED_AT_POINT } from '../../oracles/V313/preconditions.ts';
import {
  B_TRIED_IN_A_LEASE,
  B_WON_IN_A_LEASE,
  B_WON_WHILE_A_IN_ACQUIRE,
  BARE_MAJORITY,
  NODE_FAULT_LANDED,
  REPLIES_IN_FLIGHT,
  TWO_LOCKS_AT_A_WRITES,
} from '../../oracles/V313/quorum-checks.ts';

const fixture = (name: string) => load(`${FIXTURES}/V313/${name}.json`);
const restart = fixture('bad-redlock-quorum-restart');
const restartLate = fixture('good-redlock-quorum-restart-late');
const inAcquire = fixture('bad-redlock-pause-in-acquire');
const checked = fixture('good-redlock-checked-pause-in-acquire');
const explored = fixture('bad-redlock-explored-node-restart');
const exploredFenced = fixture('good-redlock-fenced-explored');
const fencedInAcquire = fixture('bad-redlock-fenced-explored-in-acquire');

const observed = (f: JudgeFixture) => f.observations as V313Observations;
const quorum = (f: JudgeFixture) => observed(f).quorum!;
const acquireStop = (f: JudgeFixture) => observed(f).acquireStop!;
const unmet = (j: { preconditions: Array<{ name: string; held: boolean }> }) =>
  j.preconditions.filter((c) => !c.held).map((c) => c.name);

describe('V313 judge: --variant quorum', () => {
  it('FAILs the recorded restart run: B won another majority inside A lease, and A wrote after', async () => {
    const { verdict, judgement } = await rejudge(restart);
    expect(verdict).toBe('FAIL');
    expect(judgement.explanation).toMatch(/came back empty, having forgotten A's key, so B won m3 and m4, m5/);
  });

  it("is INCONCLUSIVE had A's lock reached a cut-off master (not a bare majority)", async () => {
    const { verdict, judgement } = await rejudge(restart, (f) => {
      const m4 = quorum(f).atAFirstWrite.nodes.find((n) => n.node === 'm4')!;
      const m1 = quorum(f).atAFirstWrite.nodes.find((n) => n.node === 'm1')!;
      Object.assign(m4, { exists: true, value: m1.value, pttlMs: m1.pttlMs });
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toContain(BARE_MAJORITY);
  });

  it("is INCONCLUSIVE had the restarted master still held A's key", async () => {
    const { verdict, judgement } = await rejudge(restart, (f) => {
      const before = quorum(f).atAFirstWrite.nodes.find((n) => n.node === 'm3')!;
      Object.assign(
        quorum(f).afterFault!.nodes.find((n) => n.node === 'm3')!,
        { ...before },
      );
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([NODE_FAULT_LANDED]);
  });

  it("is INCONCLUSIVE had B's first write come after A's lease ran out", async () => {
    const { verdict, judgement } = await rejudge(restart, (f) => {
      const bFirst = (f.effects as EffectRecord[]).find((e) => e.holder === 'B' && e.seq > observed(f).solo.lastSeq)!;
      quorum(f).aLeaseUntil = bFirst.t - 1;
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([B_WON_IN_A_LEASE]);
  });

  it("does not count A's writes read with B's token on a minority (INCONCLUSIVE, never FAIL)", async () => {
    const { verdict, judgement } = await rejudge(restart, (f) => {
      for (const { reading } of quorum(f).atAWrites)
        for (const node of reading.nodes) if (node.node === 'm5') Object.assign(node, { exists: false, value: null });
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([TWO_LOCKS_AT_A_WRITES]);
  });

  it('PASSes the recorded delayed restart, and is INCONCLUSIVE had B never got in once the master was back', async () => {
    expect((await rejudge(restartLate)).verdict).toBe('PASS');
    const { verdict, judgement } = await rejudge(restartLate, (f) => {
      quorum(f).bLater = { wrote: false, attempts: 3 };
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([B_TRIED_IN_A_LEASE]);
  });

  it('is INCONCLUSIVE had the delayed master come back within the TTL', async () => {
    const { verdict, judgement } = await rejudge(restartLate, (f) => {
      const outcome = quorum(f).outcome!;
      outcome.startedAt = outcome.stoppedAt! + 10;
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([NODE_FAULT_LANDED]);
  });
});

describe('V313 judge: --variant pause-in-acquire', () => {
  it("FAILs the recorded run of a helper acting on what acquire returned, and says to check the lock's validity", async () => {
    const { verdict, judgement } = await rejudge(inAcquire);
    expect(verdict).toBe('FAIL');
    expect(judgement.explanation).toMatch(/check lock\.expiration > Date\.now\(\) before acting/);
  });

  it("is INCONCLUSIVE had one master's reply not been in flight when A was stopped", async () => {
    const { verdict, judgement } = await rejudge(inAcquire, (f) => {
      acquireStop(f).repliesKept.m2 = 0;
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([REPLIES_IN_FLIGHT]);
  });

  it('is INCONCLUSIVE had A been let go before B wrote', async () => {
    const { verdict, judgement } = await rejudge(inAcquire, (f) => {
      acquireStop(f).bWhileStopped!.aStopped = false;
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([B_WON_WHILE_A_IN_ACQUIRE]);
  });

  it('PASSes the recorded validity-checking run', async () => {
    const { verdict, judgement } = await rejudge(checked);
    expect(verdict).toBe('PASS');
    expect(judgement.explanation).toMatch(/checked the lock's validity before acting/);
  });
});

describe("V313 judge: an explored point on redlock:5 (a master restarted empty at A's first write)", () => {
  const effects = (f: JudgeFixture) => f.effects as EffectRecord[];
  const stop = (f: JudgeFixture) => observed(f).stop as Extract<V313Observations['stop'], { kind: 'point' }>;
  const bFirst = (f: JudgeFixture) => effects(f).find((e) => e.holder === 'B' && e.seq > observed(f).solo.lastSeq)!.seq;

  it('FAILs the recorded point on the unfenced helper: B won another majority inside A lease', async () => {
    expect(stop(explored).fault).toBe('node-restart');
    const { verdict, judgement } = await rejudge(explored);
    expect(verdict).toBe('FAIL');
    expect(judgement.explanation).toMatch(/came back empty, having forgotten A's key/);
  });

  it("is INCONCLUSIVE had A's job ended before the point's write (the fault never landed there)", async () => {
    const { verdict, judgement } = await rejudge(explored, (f) => {
      stop(f).landed = 'ended';
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toContain(A_STOPPED_AT_POINT);
  });

  it("PASSes the fenced twin's recorded point, and FAILs it had the resource accepted A's stale writes", async () => {
    expect(stop(exploredFenced).fault).toBe('node-restart');
    expect((await rejudge(exploredFenced)).verdict).toBe('PASS');
    const { verdict } = await rejudge(exploredFenced, (f) => {
      for (const e of effects(f).filter((e) => e.holder === 'A' && e.seq > bFirst(f))) e.accepted = true;
    });
    expect(verdict).toBe('FAIL');
  });
});

describe('V313 judge: the explored pause inside the acquire on the fenced helper (no validity check)', () => {
  const effects = (f: JudgeFixture) => f.effects as EffectRecord[];
  const aAfterB = (f: JudgeFixture) => {
    const bFirst = effects(f).find((e) => e.holder === 'B' && e.seq > observed(f).solo.lastSeq)!.seq;
    return effects(f).filter((e) => e.holder === 'A' && e.seq > bFirst);
  };

  it("FAILs the recorded point: A's token, taken after its spent acquire returned, is newer than B's, so the resource took A's writes", async () => {
    const bFence = effects(fencedInAcquire).find(
      (e) => e.holder === 'B' && e.seq > observed(fencedInAcquire).solo.lastSeq,
    )!.fence!;
    expect(aAfterB(fencedInAcquire).every((e) => e.accepted && e.fence! > bFence)).toBe(true);
    const { verdict, judgement } = await rejudge(fencedInAcquire);
    expect(verdict).toBe('FAIL');
    expect(judgement.explanation).toMatch(/check lock\.expiration > Date\.now\(\) before acting/);
  });

  it("PASSes it had the resource rejected A's writes after B's (an older token)", async () => {
    const { verdict } = await rejudge(fencedInAcquire, (f) => {
      for (const e of aAfterB(f)) e.accepted = false;
    });
    expect(verdict).toBe('PASS');
  });
});
