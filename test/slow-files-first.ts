/**
 * The order vitest starts the test files in: the slowest first (longest-processing-time
 * scheduling), so the suite does not end with one long file running alone. Vitest's own order
 * uses the durations it cached on an earlier run (node_modules/.vite); on a clean clone (CI) it has
 * none and starts the LARGEST files first — and the reference matrix, by far the longest file, is a
 * small one, so it started last. Files vitest has timed keep that time; the others take the
 * duration measured here (docs/benchmarks.md, "Test suite").
 */
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Each slow file's wall in seconds (vitest's duration of the file; the matrix's is its beforeAll),
 * the rest count as 0. Only the order matters: the longest start first, the first two (one per
 * worker) together, so the matrix and explore-V313 start at once and the rest pack around them.
 * From the last fresh-clone CI `npm test` (2026-12-03, quiet, 945 s), and, for the files whose
 * runs now take more at once while the CPU has room (test/explore-references.ts, the matrix's
 * MATRIX_UP_TO), measured alone after that change at load 2–10 (docs/benchmarks.md, "suitewall").
 */
const MEASURED_SECONDS: Record<string, number> = {
  // Its 296 s in the last quiet CI × 0.61, its wall under those slots on 107 of its entries.
  'test/reference-targets.test.ts': 180,
  'test/explored/explore-V313.test.ts': 182,
  'test/explored/explore-V310.test.ts': 92,
  'test/explored/explore-V311.test.ts': 66,
  'test/explored/explore-V315.test.ts': 56,
  'test/hints.test.ts': 56,
  'test/member-topology.test.ts': 46,
  'test/leftovers.test.ts': 46,
  'test/explore-replay.test.ts': 43,
  'test/fs-store.test.ts': 35,
  'test/fs-lease-explore.test.ts': 33,
  'test/topology.test.ts': 30,
  'test/fs-owner-explore.test.ts': 29,
  'test/cli.test.ts': 27,
  'test/package.test.ts': 26,
  'test/explored/explore-V317.test.ts': 24,
  'test/trust-stops.test.ts': 23,
  'test/trust-verdicts.test.ts': 21,
  'test/bindings.test.ts': 20,
  'test/member-leftovers.test.ts': 20,
};

export class SlowFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const vitestOrder = await super.sort(files);
    const root = this.ctx.config.root;
    const expectedMs = (file: TestSpecification) => {
      const path = relative(root, file.moduleId);
      return (
        this.ctx.cache.getFileTestResults(`${file.project.name}:${path}`)?.duration ??
        (MEASURED_SECONDS[path] ?? 0) * 1000
      );
    };
    const expected = new Map(vitestOrder.map((file) => [file, expectedMs(file)]));
    return vitestOrder
      .map((file, index) => ({ file, index }))
      .sort((a, b) => expected.get(b.file)! - expected.get(a.file)! || a.index - b.index)
      .map(({ file }) => file);
  }
}
