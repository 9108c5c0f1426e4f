/** summary.md's probe table: the harness's reads of the lock, one row each, file-lock columns on a file store. */
import { describe, expect, test } from 'vitest';
import type { EvidenceRecord } from '../src/report/evidence.ts';
import { probesMarkdown } from '../src/report/probes-md.ts';

const probe = (t: number, detail: Record<string, unknown>) => ({ i: t, t, kind: 'store-observed', detail });
const recordOf = (history: unknown[]) => ({ history }) as unknown as EvidenceRecord;

describe('probesMarkdown', () => {
  test("a file lock's probes show where, kind, value, PTTL and age; the label's pipe is escaped", () => {
    const lines = probesMarkdown(
      recordOf([
        probe(10, {
          label: 'after A acquired',
          key: 'k.lock',
          exists: true,
          kind: 'dir',
          value: 'A-1',
          pttlMs: 190,
          ageMs: 10,
        }),
        { i: 11, t: 11, kind: 'fs', holder: 'A', detail: { call: 'rm k.lock' } },
        probe(20, {
          label: "after A's | release",
          key: 'k.lock',
          exists: false,
          kind: 'none',
          value: null,
          pttlMs: -2,
          ageMs: null,
        }),
      ]),
    );
    expect(lines.filter((l) => l.startsWith('| 1') || l.startsWith('| 2'))).toEqual([
      '| 10 | after A acquired | k.lock | yes | dir | A-1 | 190 | 10 |',
      "| 20 | after A's \\| release | k.lock | no | none | — | -2 | — |",
    ]);
  });

  test('a Redis probe has no file columns; a run with no probe adds no section', () => {
    const lines = probesMarkdown(
      recordOf([probe(5, { label: 'after B acquired', key: 'k', exists: true, value: 'B', pttlMs: 150 })]),
    );
    expect(lines).toContain('| 5 | after B acquired | k | yes | B | 150 |');
    expect(probesMarkdown(recordOf([]))).toEqual([]);
  });

  test('a record the app marks free says what its field held; a read that could not be judged says why', () => {
    const lines = probesMarkdown(
      recordOf([
        probe(8, {
          label: "after A's release",
          key: 'job:k',
          exists: false,
          value: '',
          pttlMs: -2,
          free: 'found lockId ""',
        }),
        probe(9, {
          label: 'after B acquired',
          key: 'job:k',
          exists: true,
          value: 'B',
          pttlMs: -1,
          unreadable: 'ttl holds "PT0.2S"',
        }),
      ]),
    );
    expect(lines).toContain(`| 8 | after A's release | job:k | no: found lockId "" |  | -2 |`);
    expect(lines).toContain('| 9 | after B acquired | job:k | unreadable: ttl holds "PT0.2S" | B | -1 |');
  });

  test("a topology's probe shows the key on each node: its value, its PTTL, or none, or the node down", () => {
    const nodes = [
      { node: 'm1', role: 'master', exists: true, value: 'a1b2c3d4e5', pttlMs: 1834 },
      { node: 'm2', role: 'master', exists: false, value: null, pttlMs: -2 },
      { node: 'm3', role: 'down', exists: false, value: null, pttlMs: -2 },
    ];
    const lines = probesMarkdown(
      recordOf([
        probe(7, { label: 'B at its first write', key: 'k', exists: true, value: 'a1b2c3d4e5', pttlMs: 1834, nodes }),
      ]),
    );
    expect(lines).toContain(
      '| 7 | B at its first write | k | yes | a1b2c3d4e5 | 1834 | m1 a1b2c3d4 1834 ms, m2 —, m3 down |',
    );
  });
});
