/**
 * A batch under CPU-sized slots (runBatch's `upTo`, the reference matrix in npm test): at least
 * `jobs` runs at once, the records in input order, a run INCONCLUSIVE among others played again
 * alone after the batch (the alone run counts, the crowded one kept), and no run started after one
 * threw. The runs are real promises on real timers; how many more start while the CPU is idle is
 * test/cpu-slots.test.ts's.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, test } from 'vitest';
import type { Verdict } from '../src/core/judgement.ts';
import type { EvidenceRecord } from '../src/report/evidence.ts';
import { runBatch } from '../src/run/run-batch.ts';

const record = (verdict: Verdict, explanation: string) => ({ verdict, explanation }) as EvidenceRecord;

test('the floor runs at once, records come in input order, and a crowded INCONCLUSIVE is played again alone', async () => {
  let inFlight = 0;
  let most = 0;
  const plays: Array<{ index: number; alongside: number }> = [];
  const records = await runBatch([0, 1, 2, 3, 4, 5], { jobs: 2, upTo: 4 }, async (_, index) => {
    most = Math.max(most, ++inFlight);
    plays.push({ index, alongside: inFlight - 1 });
    await sleep(20 * (6 - index));
    inFlight--;
    const crowdedFirst = index === 3 && plays.filter((p) => p.index === 3).length === 1;
    return crowdedFirst ? record('INCONCLUSIVE', 'B never acquired') : record('PASS', `run ${index}`);
  });
  expect(records.map((r) => r.explanation)).toEqual(['run 0', 'run 1', 'run 2', 'run 3', 'run 4', 'run 5']);
  expect(most).toBeGreaterThanOrEqual(2);
  expect(most).toBeLessThanOrEqual(4);
  expect(records[3]!.crowdedAttempt).toEqual({ verdict: 'INCONCLUSIVE', explanation: 'B never acquired', jobs: most });
  expect(plays.at(-1)).toEqual({ index: 3, alongside: 0 });
});

test('no run starts after one threw, and the batch rejects with that error', async () => {
  const started: number[] = [];
  const batch = runBatch([0, 1, 2, 3, 4, 5], { jobs: 1, upTo: 1 }, async (_, index) => {
    started.push(index);
    await sleep(5);
    if (index === 1) throw new Error('the harness broke on run 1');
    return record('PASS', `run ${index}`);
  });
  await expect(batch).rejects.toThrow('the harness broke on run 1');
  expect(started).toEqual([0, 1]);
});
