/**
 * Independent oracle runs side by side (`--runs N --jobs J`, the reference matrix), each with its
 * own scratch store and holders. Parallelism must never weaken a verdict: a run that comes out
 * INCONCLUSIVE while other runs shared the machine may have been starved (a stopped holder's
 * pause outlasted by its own slow start, a window that closed while it waited for a core), so it
 * is played again alone, and the run played alone is the one that counts. So is a run that missed
 * its deadline among parallel runs (an ERROR that says nothing about the target but that the
 * machine was shared). Its first, crowded attempt is kept in the record's `crowdedAttempt` so
 * nothing is hidden.
 */
import type { EvidenceRecord } from '../report/evidence.ts';
import { cpuSlots } from './cpu-slots.ts';
import { runPool } from './run-pool.ts';

export interface BatchOptions {
  jobs: number;
  /**
   * More runs at once, up to this many, while the machine's CPU has room (src/run/cpu-slots.ts:
   * runs mostly wait on their TTLs and holds); `jobs` is then the floor. Default: exactly `jobs`.
   */
  upTo?: number;
  /** Told when a crowded INCONCLUSIVE (or a run that missed its deadline) is played again alone. */
  onReplay?: (index: number, crowded: EvidenceRecord) => void;
  /** Told as soon as a run's record is the one that counts (before the whole batch is done). */
  onFinal?: (index: number, record: EvidenceRecord) => void;
  /**
   * A crowded run that needs no replay: its verdict cannot depend on the machine being shared
   * (selfcheck's hang fixtures, whose expected verdict is the deadline's ERROR).
   */
  noReplay?: (index: number, crowded: EvidenceRecord) => boolean;
}

export async function runBatch<T>(
  items: readonly T[],
  options: BatchOptions,
  play: (item: T, index: number) => Promise<EvidenceRecord>,
): Promise<EvidenceRecord[]> {
  const jobs = Math.min(options.jobs, items.length);
  const slots = options.upTo === undefined ? undefined : cpuSlots(Math.max(1, jobs), Math.max(1, jobs, options.upTo));
  const crowded = (record: EvidenceRecord, index: number) =>
    Math.min(slots?.size ?? jobs, items.length) > 1 &&
    (record.verdict === 'INCONCLUSIVE' || record.stoppedBy === 'deadline') &&
    !options.noReplay?.(index, record);
  const playOne = async (item: T, index: number) => {
    const record = await play(item, index);
    if (!crowded(record, index)) options.onFinal?.(index, record);
    return record;
  };
  // Under CPU-sized slots every run asks for its slot at once, in order, and starts first come, first
  // served; as in runPool, none starts after one threw (runPool rejects with that first error).
  let threw = false;
  const playInSlot = (item: T, index: number) =>
    slots!(async () => {
      if (threw) throw new Error('not started: an earlier run of the batch threw');
      try {
        return await playOne(item, index);
      } catch (error) {
        threw = true;
        throw error;
      }
    });
  const records = slots
    ? await runPool(items, Math.max(1, items.length), playInSlot)
    : await runPool(items, jobs, playOne);
  for (const [index, first] of records.entries()) {
    if (!crowded(first, index)) continue;
    options.onReplay?.(index, first);
    const alone = await play(items[index]!, index);
    records[index] = {
      ...alone,
      crowdedAttempt: { verdict: first.verdict, explanation: first.explanation, jobs: slots?.peak ?? jobs },
    };
    options.onFinal?.(index, records[index]!);
  }
  return records;
}
