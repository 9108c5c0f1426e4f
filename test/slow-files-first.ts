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
 * Seconds each slow file took in one whole `npm test` (2026-12-01, 2 cores, load 27-32: the
 * reference matrix's beforeAll included; docs/benchmarks.md "Test suite"); the rest count as 0.
 */
const MEASURED_SECONDS: Record<string, number> = {
  'test/package.test.ts': 651,
  'test/reference-targets.test.ts': 605,
  'test/explore-V310.test.ts': 159,
  'test/explore-V313.test.ts': 158,
  'test/explore-replay.test.ts': 138,
  'test/bindings.test.ts': 115,
  'test/cli.test.ts': 88,
  'test/settle.test.ts': 84,
  'test/postgres-store.test.ts': 82,
  'test/leftovers.test.ts': 81,
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
