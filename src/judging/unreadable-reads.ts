/**
 * A read of the lock the harness could not judge (LockState.unreadable: an app's expiry field that
 * holds no instant) is a precondition not held, for every oracle alike: the judgement of a run with
 * such a read in its history is INCONCLUSIVE, naming the read, the field and what it held, never an
 * ERROR of the run and never a verdict built on a guess at that read. Pure: a function of the history.
 */
import { nothingProven, type Check, type Judgement } from '../core/judgement.ts';
import type { HistoryEvent } from '../core/history.ts';

export const READS_JUDGEABLE = 'every read of the lock could be judged';

export const READS_JUDGEABLE_CHECKS =
  'no read of the lock found an expiry field holding something that is no instant (ms since the epoch or ISO 8601); a blank or absent owner or expiry is the app\'s "free", and judged';

/** The judgement with READS_JUDGEABLE not held when a recorded read of the lock was unreadable; unchanged otherwise. */
export function withUnreadableReads(judgement: Judgement, history: readonly HistoryEvent[]): Judgement {
  // The reads by why each could not be judged (the same field holding the same value, read again and again).
  const reads = new Map<string, string[]>();
  for (const e of history)
    if (e.kind === 'store-observed' && typeof e.detail.unreadable === 'string')
      reads.set(e.detail.unreadable, [
        ...(reads.get(e.detail.unreadable) ?? []),
        `"${String(e.detail.label)}" at ${e.t.toFixed(0)} ms`,
      ]);
  if (!reads.size) return judgement;
  const check: Check = {
    name: READS_JUDGEABLE,
    held: false,
    detail: [...reads]
      .map(
        ([why, labels]) =>
          `${labels.length === 1 ? 'the read' : `${labels.length} reads,`} ${labels.join(', ')}: ${why}`,
      )
      .join('; '),
  };
  const { notApplicable: _, ...judged } = judgement;
  return {
    ...judged,
    preconditions: [...judgement.preconditions, check],
    explanation: `${nothingProven([check])} The scenario's own reading, which took that read as held with no end known: ${judgement.explanation}`,
  };
}
