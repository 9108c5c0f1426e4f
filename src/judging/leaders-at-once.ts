/**
 * Two holders acting at once among several (V315 with --contenders 3 or more): for every pair of
 * holders that wrote, the earlier (its first write arrived first at the resource) and the later,
 * the earlier one's accepted writes after the later one's first, each judged by the lock read in
 * the store just before the harness accepted it (./lease-at-write.ts): a write counts while the
 * later holder's lease was live there. With one contender this is A and B, as V313 and V315 judge.
 * Pure: a function of the effects and the readings play recorded.
 */
import type { EffectRecord } from '../core/resource.ts';
import { leaseAtWrites, leaseAtWritesInWords, type LeaseReading, type WriteInLease } from './lease-at-write.ts';
import { writesAfterTakeover, type Takeover } from './takeover.ts';

/** The lock read just before the write `writer` made (resource #seq) was accepted. */
export interface ReadingBeforeWrite {
  writer: string;
  seq: number;
  reading: LeaseReading;
}

/** One ordered pair: `earlier` wrote first; its accepted writes after `later`'s first, each judged by `later`'s lease. */
export interface PairOfWriters {
  earlier: string;
  later: string;
  takeover: Takeover;
  judged: WriteInLease[];
}

/** Every ordered pair of holders that wrote, by their first writes' arrival order. */
export function pairsOfWriters(
  effects: readonly EffectRecord[],
  readings: readonly ReadingBeforeWrite[],
): PairOfWriters[] {
  const order = [...new Set(effects.map((e) => e.holder))];
  return order.flatMap((earlier, i) =>
    order.slice(i + 1).map((later) => {
      const takeover = writesAfterTakeover(effects, earlier, later);
      const first = takeover.takerFirst;
      const atFirst = readings.find((r) => r.writer === later && r.seq === first?.seq)?.reading ?? {
        kind: 'unreadable' as const,
        why: `the lock was not read before ${later}'s first write was accepted`,
      };
      const ofEarlier = readings.filter((r) => r.writer === earlier);
      const judged = leaseAtWrites(takeover.staleAcceptedAfter, ofEarlier, atFirst, { stale: earlier, taker: later });
      return { earlier, later, takeover, judged };
    }),
  );
}

/** The pairs with an accepted write of the earlier holder inside the later one's live lease: two acting at once. */
export function actingAtOnce(pairs: readonly PairOfWriters[]): PairOfWriters[] {
  return pairs.filter((pair) => pair.judged.some((w) => w.live));
}

/** One pair in words: the later holder's lease at each of the earlier one's writes after its first. */
export function pairInWords(pair: PairOfWriters): string {
  return `${pair.earlier} after ${pair.later}'s first write: ${leaseAtWritesInWords(pair.judged, { stale: pair.earlier, taker: pair.later })}`;
}
