/**
 * Every oracle FAILs on each of its bad reference targets and PASSes on each good one, against a
 * real store with real holder processes (src/run/reference-matrix.ts). The Valkey twin of each Redis
 * reference runs in `npm run test:valkey` instead (test/valkey/, test/reference-split.ts), which
 * .ci/run runs. The reference list lives in each oracle file, so a new oracle (V320) is covered by
 * adding its references there.
 *
 * The matrix runs once, through the same runner as `npm run oracle -- references` (src/run/references.ts:
 * a run that comes out INCONCLUSIVE among parallel runs is played again alone): one run per core at
 * least, and more, up to MATRIX_UP_TO, while the machine's CPU has room (a reference run mostly
 * waits on its TTLs and holds; src/run/cpu-slots.ts measures the whole machine, so vitest's other
 * worker counts); each entry is then its own test, failing with the
 * problems checkReference found (wrong verdict, a precondition not held, no fault, a FAIL without
 * offending events, another store or runtime).
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { loadAllOracles } from '../src/run/registry.ts';
import { referenceMatrix } from '../src/run/reference-matrix.ts';
import { runReferences, type ReferenceOutcome } from '../src/run/references.ts';
import { defaultJobs } from '../src/run/run-pool.ts';
import { isValkeyTwin } from './reference-split.ts';

const oracles = await loadAllOracles();
const entries = referenceMatrix(oracles).filter((entry) => !isValkeyTwin(entry));
let outcomes: ReferenceOutcome[] = [];
/**
 * The most matrix runs at once: four per core. 107 entries (V311, V312, V315, V316, V318) took
 * 87.7 s at 2 at once and 53.7 s under these slots, the same CPU-s, every verdict right
 * (docs/benchmarks.md, "suitewall").
 */
const MATRIX_UP_TO = 4 * defaultJobs();

beforeAll(async () => {
  outcomes = await runReferences(entries, { jobs: defaultJobs(), upTo: MATRIX_UP_TO, runtime: 'local' });
}, 30 * 60_000);

test('every entry left to npm run test:valkey is the Valkey twin of a Redis entry run here', () => {
  const twins = referenceMatrix(oracles).filter(isValkeyTwin);
  expect(twins.length + entries.length).toBe(referenceMatrix(oracles).length);
  for (const twin of twins)
    expect(
      entries.some((entry) => entry.reference === twin.reference && entry.store === 'redis'),
      twin.name,
    ).toBe(true);
});

describe.each(oracles.map((o) => [o.id, o] as const))('%s reference targets', (_id, oracle) => {
  test('ships at least one bad and one good reference target', () => {
    expect(oracle.references.some((r) => r.expect === 'FAIL')).toBe(true);
    expect(oracle.references.some((r) => r.expect === 'PASS')).toBe(true);
  });

  test.each(entries.flatMap((entry, index) => (entry.oracle === oracle ? [[entry.name, index] as const] : [])))(
    '%s',
    (_name, index) => {
      const outcome = outcomes[index];
      expect(outcome, 'the matrix ran this entry').toBeDefined();
      expect(outcome!.problems, outcome!.record.explanation).toEqual([]);
    },
  );
});
