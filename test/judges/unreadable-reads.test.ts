/**
 * A read of the lock that could not be judged (an expiry field holding no instant) makes any
 * oracle's judgement INCONCLUSIVE, naming each such read once per reason; a run with none keeps
 * its judgement as it was. Pure: a function of the history.
 */
import { describe, expect, it } from 'vitest';
import type { HistoryEvent } from '../../src/core/history.ts';
import { decideVerdict, type Judgement } from '../../src/core/judgement.ts';
import { READS_JUDGEABLE, withUnreadableReads } from '../../src/judging/unreadable-reads.ts';

const failing: Judgement = {
  preconditions: [{ name: 'A held the lock', held: true, detail: 'A acquired' }],
  counts: {},
  property: { name: "B's lock survives A's release", held: false, detail: 'C was granted', offending: [] },
  explanation: "A's release removed B's lock.",
};
const read = (i: number, label: string, unreadable?: string): HistoryEvent => ({
  i,
  t: i * 100,
  kind: 'store-observed',
  detail: { label, exists: true, ...(unreadable ? { unreadable } : {}) },
});

describe('reads that could not be judged', () => {
  it('leave a judgement with none as it was', () => {
    expect(withUnreadableReads(failing, [read(1, 'after A acquired')])).toBe(failing);
  });

  it("turn a FAIL into INCONCLUSIVE, naming the reads once per reason, and keep the scenario's own reading", () => {
    const why = 'job:k: its expiry field ttl holds "PT0.2S"';
    const judged = withUnreadableReads(failing, [
      read(1, 'after A acquired', why),
      read(2, 'after B acquired'),
      read(3, "after A's release", why),
      read(4, 'after C', 'job:k: its expiry field ttl holds "soon"'),
    ]);
    expect(decideVerdict(failing)).toBe('FAIL');
    expect(decideVerdict(judged)).toBe('INCONCLUSIVE');
    expect(judged.preconditions.at(-1)).toEqual({
      name: READS_JUDGEABLE,
      held: false,
      detail: `2 reads, "after A acquired" at 100 ms, "after A's release" at 300 ms: ${why}; the read "after C" at 400 ms: job:k: its expiry field ttl holds "soon"`,
    });
    expect(judged.explanation).toMatch(
      /^Nothing was proven\. .*The scenario's own reading, .*: A's release removed B's lock\.$/,
    );
  });
});
