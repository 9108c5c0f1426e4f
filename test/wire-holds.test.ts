/**
 * A command held at the wire forces the narrow race on every run, with no seam in the target, and
 * the evidence shows the wire fault: which holder and connection, which command, from when to when.
 */
import { describe, expect, test } from 'vitest';
import type { EvidenceRecord } from '../src/report/evidence.ts';
import { runOracle } from '../src/run/run-oracle.ts';

// 10 runs keep this file near the time budget; scripts/bench-wire-holds.ts runs 20 and records the rate in docs/benchmarks.md.
const RUNS = 10;

function wireFaults(record: EvidenceRecord) {
  return record.faults.filter((fault) => fault.kind === 'wire');
}

describe('wire holds', () => {
  test(`V310 narrow, DEL held at A's wire proxy: the GET→compare→DEL release deletes B's lock on ${RUNS}/${RUNS} runs`, async () => {
    const verdicts: string[] = [];
    for (let run = 0; run < RUNS; run++) {
      const record = await runOracle({
        oracle: 'V310',
        target: 'test/fixtures/targets/release-get-compare-del-no-seams.ts',
        params: { variant: 'narrow', hold: 'wire' },
      });
      verdicts.push(record.verdict);
      const [held] = wireFaults(record);
      expect(held, record.explanation).toMatchObject({ holder: 'A', action: 'held DEL lock-oracles:V310 at the wire' });
      expect(held!.detail.connections).toHaveLength(1);
      expect(held!.liftedAt).toBeGreaterThan(held!.appliedAt);
      const bGranted = record.history.find((e) => e.kind === 'acquire-ok' && e.holder === 'B');
      expect(bGranted!.t).toBeGreaterThan(held!.appliedAt);
      expect(bGranted!.t).toBeLessThan(held!.liftedAt!);
    }
    expect(verdicts).toEqual(Array(RUNS).fill('FAIL'));
  });

  test("V315: the blackhole's record names A's connection and the renewals it stopped", async () => {
    const record = await runOracle({ oracle: 'V315', target: 'targets/redis/leader/cached-flag.ts' });
    expect(record.verdict, record.explanation).toBe('FAIL');
    const [cut] = wireFaults(record);
    expect(cut).toMatchObject({ holder: 'A', action: 'blackhole: deliver nothing either way until lifted' });
    expect(cut!.detail.connections).toHaveLength(1);
    expect(cut!.detail.commandsAffected).toBeGreaterThan(0);
    expect(String((cut!.detail.sampleCommands as string[])[0])).toMatch(/SET lock-oracles:V315 \S+ PX 300 NX|EVAL/);
    const bFirst = record.effects.find((e) => e.holder === 'B')!;
    expect(bFirst.t).toBeGreaterThan(cut!.appliedAt);
    expect(bFirst.t).toBeLessThan(cut!.liftedAt!);
    expect(record.history.some((e) => e.kind === 'wire' && e.detail.fate === 'blackholed')).toBe(true);
  });
});
