/**
 * V310's judge on recorded runs of a Redis job claim cleared as queue libraries clear it, by
 * emptying its fields (HSET job:k lockId '' lockExpiresAt ''): an emptied owner or expiry is the
 * app's "free" and the evidence says what the field held; an expiry that is no instant makes the
 * run INCONCLUSIVE, naming the field and the value, never an ERROR. Each case changes one fact of
 * a recorded run, the changed read made by the harness's own reading of the fields (byAppClock).
 */
import { describe, expect, it } from 'vitest';
import { FIXTURES, load, rejudge, type JudgeFixture } from './recorded.ts';
import type { V310Observations } from '../../oracles/V310/observations.ts';
import { byAppClock } from '../../src/families/lease-fields.ts';
import { READS_JUDGEABLE } from '../../src/judging/unreadable-reads.ts';
import { HELD_IN_RELEASE } from '../../oracles/V310/judge.ts';

const bad = load(`${FIXTURES}/V310/bad-job-claim-complete-empties-unchecked.json`);
const good = load(`${FIXTURES}/V310/good-job-claim-complete-empties-checked.json`);
// --variant narrow: A held at its wire proxy just before the HSET (or the script) that empties the claim.
const badNarrow = load(`${FIXTURES}/V310/bad-job-claim-empties-get-compare-narrow.json`);
const goodNarrow = load(`${FIXTURES}/V310/good-job-claim-complete-empties-checked-narrow.json`);
const observed = (f: JudgeFixture) => f.observations as V310Observations;
const unmet = (judgement: { preconditions: Array<{ name: string; held: boolean }> }) =>
  judgement.preconditions.filter((c) => !c.held).map((c) => c.name);

/**
 * The read after A's release replaced by the harness's reading of these fields (the hash still
 * there, PTTL -1), in the observations and in the history alike.
 */
function readAfterRelease(f: JudgeFixture, owner: string | null, expiry: string | null): void {
  const o = observed(f);
  const [key] = o.after!.where.split(' ').slice(1);
  const state = byAppClock(
    owner,
    expiry,
    -1,
    { key: key!, owner: 'lockId', field: 'lockExpiresAt' },
    o.after!.expiry!.comparedWithMs,
  );
  o.after = { ...o.after!, ...state };
  for (const e of f.history)
    if (e.kind === 'store-observed' && e.detail.label === "after A's release") e.detail = { ...e.detail, ...state };
}

const bToken = (f: JudgeFixture) => observed(f).b!.lease!.token!;
const inAnHour = (f: JudgeFixture) => new Date(observed(f).after!.expiry!.comparedWithMs + 3_600_000).toISOString();

describe('V310 judge: a job claim cleared by emptying its fields', () => {
  it("FAILs the recorded unchecked complete, saying the field held '' (not that nothing was found)", async () => {
    const { verdict, judgement } = await rejudge(bad);
    expect(verdict).toBe('FAIL');
    expect(judgement.counts).toMatchObject({ keyGoneAfterRelease: 1, cAcquired: 1 });
    expect(judgement.explanation).toContain('found lockId "": the app\'s way of saying free');
    expect(judgement.explanation).not.toContain('found nothing');
  });

  it("PASSes the recorded owner-checked complete: B's claim still there", async () => {
    const { verdict, judgement } = await rejudge(good);
    expect(verdict).toBe('PASS');
    expect(judgement.explanation).toMatch(/still gave B's token/);
  });

  it("FAILs the good run had the read after A's release found lockId '' (an empty owner: free)", async () => {
    const { verdict, judgement } = await rejudge(good, (f) => readAfterRelease(f, '', ''));
    expect(verdict).toBe('FAIL');
    expect(judgement.property.detail).toContain('found lockId "": the app\'s way of saying free');
  });

  it("FAILs the good run had A's release emptied only lockExpiresAt, B's lockId left (an empty expiry: free)", async () => {
    const { verdict, judgement } = await rejudge(good, (f) => readAfterRelease(f, bToken(f), ''));
    expect(verdict).toBe('FAIL');
    expect(judgement.property.detail).toContain(`found lockExpiresAt "" (its owner "${bToken(good)}")`);
  });

  it("still PASSes the good run had the read found B's lockId with its expiry still ahead", async () => {
    const { verdict } = await rejudge(good, (f) => readAfterRelease(f, bToken(f), inAnHour(f)));
    expect(verdict).toBe('PASS');
  });

  it('is INCONCLUSIVE, naming the field and the value, had lockExpiresAt held something that is no instant', async () => {
    for (const fixture of [good, bad]) {
      const { verdict, judgement } = await rejudge(fixture, (f) => readAfterRelease(f, bToken(f), 'soon'));
      expect(verdict).toBe('INCONCLUSIVE');
      expect(unmet(judgement)).toEqual([READS_JUDGEABLE]);
      const detail = judgement.preconditions.find((c) => c.name === READS_JUDGEABLE)!.detail;
      expect(detail).toMatch(
        /^the read "after A's release" at \d+ ms: job:lock-oracles:V310: its expiry field lockExpiresAt holds "soon", neither ms since the epoch nor an ISO 8601 instant/,
      );
      expect(judgement.explanation).toMatch(/^Nothing was proven\. every read of the lock could be judged: /);
    }
  });

  it("FAILs the recorded narrow run: A held before its emptying HSET, B's claim emptied; PASSes the script's", async () => {
    const held = badNarrow.history.filter((e) => e.kind === 'wire' && e.detail.fate === 'held');
    expect(held.map((e) => e.detail.command)).toEqual([
      expect.stringMatching(/^HSET job:\S+ lockId {2}lockExpiresAt $/),
    ]);
    const { verdict, judgement } = await rejudge(badNarrow);
    expect(verdict).toBe('FAIL');
    expect(judgement.explanation).toContain('found lockId "": the app\'s way of saying free');
    expect((await rejudge(goodNarrow)).verdict).toBe('PASS');
  });

  it('is INCONCLUSIVE on the narrow run had A never been held before its clear (a release the wire proxy did not recognise)', async () => {
    const { verdict, judgement } = await rejudge(badNarrow, (f) => {
      observed(f).hold = { ...observed(f).hold!, outcome: 'finished' };
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toContain(HELD_IN_RELEASE);
  });

  it('FAILs the recorded Postgres claim row cleared by its key alone, saying the holder was NULL; PASSes it had the row still named B', async () => {
    const cleared = load(`${FIXTURES}/V310/bad-postgres-claim-row-clear-unchecked.json`);
    const { verdict, judgement } = await rejudge(cleared);
    expect(verdict).toBe('FAIL');
    expect(judgement.property.detail).toContain("found no holder: the app's way of saying free");
    const { verdict: had } = await rejudge(cleared, (f) => {
      const o = observed(f);
      const { free: _, ...rest } = o.after!;
      o.after = { ...rest, exists: true, value: bToken(f), pttlMs: 500 };
      o.bSide = { ...o.bSide!, ok: true };
      o.c = { ...o.c!, lease: null };
    });
    expect(had).toBe('PASS');
  });
});
