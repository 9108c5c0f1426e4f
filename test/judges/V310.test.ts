/**
 * V310's judge on recorded runs, with no store and no process: the same recorded histories with
 * one fact changed move the verdict the way the property and the preconditions say they must.
 */
import { describe, expect, it } from 'vitest';
import { FIXTURES, load, rejudge, type JudgeFixture } from './recorded.ts';
import { A_RELEASED, B_CHECKED_LIVE, B_LIVE, B_TOOK, HELD_IN_RELEASE, LOCATED } from '../../oracles/V310/judge.ts';
import type { V310Observations } from '../../oracles/V310/observations.ts';
import { LOST_IN_FAILOVER } from '../../src/judging/failover-loss.ts';

const bad = load(`${FIXTURES}/V310/bad-bare-del-pause.json`);
const good = load(`${FIXTURES}/V310/good-lock-correct-pause.json`);
const goodNarrow = load(`${FIXTURES}/V310/good-lock-correct-narrow.json`);
const marksDone = load(`${FIXTURES}/V310/bad-marks-done-pause.json`);
// Postgres lease rows, read with their owner column: deleted by key alone / owner-checked.
const pgNoOwnerCheck = load(`${FIXTURES}/V310/bad-postgres-lease-row-release-no-owner-check.json`);
const pgOwnerChecked = load(`${FIXTURES}/V310/good-postgres-lease-row-lock.json`);
const leaseFile = load(`${FIXTURES}/V310/fs-lease-file-pause.json`);
// A lock that renews itself on a connection of its own: cut off from its delete on (bare DEL / compare-and-delete),
// and its delete held alone while the watchdog renewed (nothing landed).
const watchdogBare = load(`${FIXTURES}/V310/bad-watchdog-bare-del-partition.json`);
const watchdogCad = load(`${FIXTURES}/V310/good-watchdog-cad-partition.json`);
const watchdogRenewed = load(`${FIXTURES}/V310/watchdog-cad-narrow-renewed.json`);
const observed = (f: JudgeFixture) => f.observations as V310Observations;
const unmet = (judgement: { preconditions: Array<{ name: string; held: boolean }> }) =>
  judgement.preconditions.filter((c) => !c.held).map((c) => c.name);

/** B's lease by the store's clock, as the read right after B acquired gave it (harness ms). */
const bLeaseEnd = (o: V310Observations) => o.seenB!.lock.sentAt + o.seenB!.lock.pttlMs;

describe('V310 judge', () => {
  it("FAILs the recorded bare-DEL run, naming A's release, the empty key and C's grant", async () => {
    const { verdict, judgement } = await rejudge(bad);
    expect(verdict).toBe('FAIL');
    expect(judgement.counts).toMatchObject({ keyGoneAfterRelease: 1, cAcquired: 1 });
    const kinds = judgement.property.offending.map((e) => ('kind' in e ? `${e.kind} ${e.holder ?? ''}` : ''));
    expect(kinds).toEqual(expect.arrayContaining(['release A', 'acquire-ok C', 'store-observed ']));
  });

  it("PASSes the same run had the key still held B's token, B's extend succeeded and C been denied", async () => {
    const { verdict } = await rejudge(bad, (f) => {
      const o = observed(f);
      o.after = { ...o.after!, exists: true, value: o.b!.lease!.token!, pttlMs: 150 };
      o.bSide = { ...o.bSide!, ok: true };
      o.c = { ...o.c!, lease: null };
    });
    expect(verdict).toBe('PASS');
  });

  it("FAILs on C's grant alone, answered inside B's lease: the key still B's and B's extend fine", async () => {
    const { verdict } = await rejudge(bad, (f) => {
      const o = observed(f);
      o.after = { ...o.after!, exists: true, value: o.b!.lease!.token!, pttlMs: 150 };
      o.bSide = { ...o.bSide!, ok: true };
      o.c!.answeredAt = o.after.receivedAt + 1;
    });
    expect(verdict).toBe('FAIL');
  });

  it("is INCONCLUSIVE on C's grant alone when C was answered after B's lease ran out", async () => {
    const { verdict, judgement } = await rejudge(bad, (f) => {
      const o = observed(f);
      o.after = { ...o.after!, exists: true, value: o.b!.lease!.token!, pttlMs: 150 };
      o.bSide = { ...o.bSide!, ok: true };
      o.c!.answeredAt = bLeaseEnd(o) + 1;
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([B_LIVE]);
  });

  it("is INCONCLUSIVE, not FAIL, when the key gone and C's grant were both seen after B's lease ran out", async () => {
    const { verdict, judgement } = await rejudge(bad, (f) => {
      const o = observed(f);
      const late = bLeaseEnd(o) + 1;
      o.after = { ...o.after!, sentAt: late, receivedAt: late + 1 };
      o.c = { ...o.c!, answeredAt: late + 2 };
      o.bSide = { ...o.bSide!, endedAt: o.b!.startedAt + Number(f.params.ttl) + 1, ok: true };
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([B_LIVE]);
  });

  it("is INCONCLUSIVE when B's lease was already gone by the read right after B acquired", async () => {
    const { verdict, judgement } = await rejudge(bad, (f) => {
      const o = observed(f);
      o.seenB!.lock = { ...o.seenB!.lock, exists: false, value: null, pttlMs: -2 };
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([B_LIVE]);
  });

  it('is INCONCLUSIVE when A had resumed before B took the lock (the fault did not land)', async () => {
    const { verdict, judgement } = await rejudge(bad, (f) => {
      observed(f).b!.aStillStopped = false;
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([B_TOOK]);
  });

  it("is INCONCLUSIVE when A's release threw: it may never have reached the store", async () => {
    const { verdict, judgement } = await rejudge(bad, (f) => {
      observed(f).aRelease!.error = 'Error: not the owner';
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([A_RELEASED]);
  });

  it("is INCONCLUSIVE when the read while A held the lock found another value than A's token", async () => {
    const { verdict, judgement } = await rejudge(good, (f) => {
      observed(f).atA!.lock.value = 'not-A';
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([LOCATED]);
  });

  it('FAILs the recorded compare-and-delete run had C been granted the lock', async () => {
    const { verdict } = await rejudge(good, (f) => {
      observed(f).c!.lease = { leaseId: 3, token: 'C' };
    });
    expect(verdict).toBe('FAIL');
  });

  it("PASSes a refusal of B's the store contradicts (B's token still in the key): the target's own, said so", async () => {
    const { verdict, judgement } = await rejudge(good, (f) => {
      observed(f).bSide!.ok = false;
    });
    expect(verdict).toBe('PASS');
    expect(judgement.explanation).toMatch(/the refusal is the target's own .* not counted/);
  });

  it("FAILs the recorded marks-done run on B's refused extend, C denied: the lock destroyed, not freed", async () => {
    const { verdict, judgement } = await rejudge(marksDone);
    expect(verdict).toBe('FAIL');
    expect(judgement.counts.bRefusedOnItsOwnLease).toBe(1);
    expect(judgement.explanation).toMatch(/destroyed B's lock without freeing it/);
  });

  it("PASSes the marks-done run had B's extend succeeded", async () => {
    const { verdict } = await rejudge(marksDone, (f) => {
      observed(f).bSide!.ok = true;
    });
    expect(verdict).toBe('PASS');
  });

  it("is INCONCLUSIVE when B's refused extend, the only damage seen, came after B's lease could have lapsed", async () => {
    const { verdict, judgement } = await rejudge(marksDone, (f) => {
      const o = observed(f);
      o.bSide!.endedAt = Math.max(bLeaseEnd(o), o.b!.startedAt + Number(f.params.ttl)) + 1;
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toContain(B_CHECKED_LIVE);
  });

  it("is INCONCLUSIVE when A's narrow release finished without reaching its delete (the hold never landed)", async () => {
    const { verdict, judgement } = await rejudge(goodNarrow, (f) => {
      const o = observed(f);
      Object.assign(o, { hold: { ...o.hold!, outcome: 'finished' }, b: null, seenB: null, aRelease: null });
      Object.assign(o, { bSide: null, after: null, c: null });
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([HELD_IN_RELEASE]);
    expect(judgement.preconditions.find((c) => c.name === HELD_IN_RELEASE)?.detail).toBe(
      observed(goodNarrow).hold!.missed,
    );
  });

  it("is INCONCLUSIVE when A's release returned while its delete was still held: its client finished it another way (a ZooKeeper client on a new session did)", async () => {
    const held = (f: JudgeFixture, releaseEndedAfterLiftMs: number) => {
      const o = observed(f);
      const liftedAt = o.b!.startedAt + 5;
      o.hold = { ...o.hold!, liftedAt };
      o.aRelease = { ...o.aRelease!, endedAt: liftedAt + releaseEndedAfterLiftMs };
    };
    const early = await rejudge(goodNarrow, (f) => held(f, -25));
    expect(early.verdict).toBe('INCONCLUSIVE');
    expect(unmet(early.judgement)).toEqual([A_RELEASED]);
    expect(early.judgement.preconditions.find((c) => c.name === A_RELEASED)?.detail).toMatch(
      /^A's release returned at [\d.]+ ms, while A was still held inside its release, before its delete \(let go at [\d.]+ ms\): it did not wait for the held command/,
    );
    // The same bad run's FAIL is not judged either: its delete may have come before B's lock.
    const badHeld = load(`${FIXTURES}/V310/bad-get-compare-del-narrow.json`);
    expect((await rejudge(badHeld)).verdict).toBe('FAIL');
    expect((await rejudge(badHeld, (f) => held(f, -25))).verdict).toBe('INCONCLUSIVE');
    // Returned once A was let go: judged as before.
    expect((await rejudge(goodNarrow, (f) => held(f, 3))).verdict).toBe('PASS');
    expect((await rejudge(badHeld, (f) => held(f, 3))).verdict).toBe('FAIL');
  });

  it("explored, its reply dropped: a release that threw once its reply was lost is judged on the store, and the store's runs are counted", async () => {
    const dropped = (f: JudgeFixture) => {
      const o = observed(f);
      o.point = {
        boundary: {
          part: 'release',
          index: 2,
          kind: 'command',
          name: 'EVAL',
          nth: 1,
          text: 'EVAL …',
          onKey: true,
          keyNth: 1,
        },
        fault: 'reply-dropped',
      };
      o.aRelease = { finished: true, error: 'Error: read ECONNRESET' };
      o.storeRan = [{ command: 'EVAL … lock-oracles:V310 a-token', times: 2 }];
    };
    const judged = await rejudge(goodNarrow, dropped);
    expect(judged.verdict).toBe('PASS');
    expect(judged.judgement.counts).toMatchObject({ aReleaseCommandsStoreRan: 2, aReleaseCommandsRunMoreThanOnce: 1 });
    expect(judged.judgement.property.detail).toContain("the store ran A's EVAL … lock-oracles:V310 a-token 2 times");
    // A plain hold of the reply: a release that threw may never have reached the store.
    const held = await rejudge(goodNarrow, (f) => {
      dropped(f);
      observed(f).point!.fault = 'hold-reply';
    });
    expect(held.verdict).toBe('INCONCLUSIVE');
    expect(unmet(held.judgement)).toEqual([A_RELEASED]);
  });

  it("FAILs the recorded lease-row release by key alone, and PASSes the owner-checked one; that one FAILs had the row after A's release held another owner", async () => {
    expect((await rejudge(pgNoOwnerCheck)).verdict).toBe('FAIL');
    expect((await rejudge(pgOwnerChecked)).verdict).toBe('PASS');
    expect(observed(pgOwnerChecked).after!.value).toBe(observed(pgOwnerChecked).b!.lease!.token);
    const { verdict } = await rejudge(pgOwnerChecked, (f) => {
      observed(f).after!.value = 'someone-else';
    });
    expect(verdict).toBe('FAIL');
  });

  it("FAILs the recorded lease-file run (--store fs) had A's late write left A's record in the lock: B refused, C denied", async () => {
    const { verdict, judgement } = await rejudge(leaseFile, (f) => {
      const o = observed(f);
      o.after = { ...o.after!, value: o.leaseA!.token! };
      o.bSide = { ...o.bSide!, ok: false };
    });
    expect(verdict).toBe('FAIL');
    expect(judgement.counts).toMatchObject({ keyHeldBsTokenAfterRelease: 0, cAcquired: 0, bRefusedOnItsOwnLease: 1 });
  });

  it("FAILs a self-renewing lock's bare DEL cut off from its delete on, PASSes its compare-and-delete twin", async () => {
    expect((await rejudge(watchdogBare)).verdict).toBe('FAIL');
    expect((await rejudge(watchdogCad)).verdict).toBe('PASS');
  });

  it("is INCONCLUSIVE when A's own renewals kept its lease while its delete was held; an explored point there is not applicable, a partition point is", async () => {
    const plain = await rejudge(watchdogRenewed);
    expect(plain.verdict).toBe('INCONCLUSIVE');
    expect(unmet(plain.judgement)).toEqual([B_TOOK]);
    expect(observed(watchdogRenewed).renewalsWhileHeld).toBeGreaterThan(0);
    expect(plain.judgement.preconditions.find((c) => c.name === B_TOOK)!.detail).toContain('--hold partition');
    expect(plain.judgement.notApplicable).toBeUndefined();
    const boundary = {
      part: 'release',
      index: 2,
      kind: 'command' as const,
      name: 'EVAL',
      nth: 1,
      text: 'EVAL … lock-oracles:V310',
      onKey: true,
      keyNth: 1,
    };
    const held = await rejudge(watchdogRenewed, (f) => {
      observed(f).point = { boundary, fault: 'hold-before' };
    });
    expect(held.verdict).toBe('INCONCLUSIVE');
    expect(held.judgement.notApplicable).toMatch(
      /A's own renewals kept its lease alive.*the partition point at this boundary/,
    );
    const cut = await rejudge(watchdogRenewed, (f) => {
      observed(f).point = { boundary, fault: 'partition' };
    });
    expect(cut.judgement.notApplicable).toBeUndefined();
    const none = await rejudge(watchdogRenewed, (f) => {
      observed(f).point = { boundary, fault: 'hold-before' };
      observed(f).renewalsWhileHeld = 0;
    });
    expect(none.judgement.notApplicable).toBeUndefined();
  });
});

describe('V310 judge: --variant failover (--topology replicated:1)', () => {
  const badFailover = load(`${FIXTURES}/V310/bad-bare-del-failover.json`);
  const goodFailover = load(`${FIXTURES}/V310/good-lock-correct-failover.json`);

  it("FAILs the recorded bare-DEL run after a failover and PASSes compare-and-delete's", async () => {
    expect((await rejudge(badFailover)).verdict).toBe('FAIL');
    const { verdict, judgement } = await rejudge(goodFailover);
    expect(verdict).toBe('PASS');
    expect(judgement.explanation).toMatch(/SIGKILLed with the lock on it alone/);
  });

  it('is INCONCLUSIVE had a replica held the lock when the master died (the failover lost nothing)', async () => {
    const { verdict, judgement } = await rejudge(badFailover, (f) => {
      for (const node of observed(f).failover!.nodes) node.exists = true;
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([LOST_IN_FAILOVER]);
  });

  it("is INCONCLUSIVE had B taken the lock only after A's lease ran out by the master's PTTL", async () => {
    const { verdict, judgement } = await rejudge(badFailover, (f) => {
      observed(f).b!.aStillStopped = false;
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([B_TOOK]);
    expect(judgement.preconditions.find((c) => c.name === B_TOOK)!.detail).toMatch(/before A's lease ran out/);
  });
});
