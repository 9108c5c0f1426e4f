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
 * Each slow file's wall in seconds (vitest's duration of the file, or the whole command's for the
 * matrix, whose beforeAll is most of it), the rest count as 0. Measured 2026-12-03, one file at a
 * time at load 5-35 (docs/benchmarks.md, "Test suite: pack once, each check once"). Only the order
 * matters: the longest start first, the first two (one per worker) together.
 */
const MEASURED_SECONDS: Record<string, number> = {
  'test/explore-V313.test.ts': 1016,
  'test/reference-targets.test.ts': 405,
  'test/leftovers.test.ts': 275,
  'test/explore-V310.test.ts': 214,
  'test/cli.test.ts': 106,
  'test/package.test.ts': 70,
  'test/bindings.test.ts': 46,
  'test/explore-replay.test.ts': 40,
  'test/sdk-java-go.test.ts': 34,
  'test/postgres-store.test.ts': 31,
  'test/settle.test.ts': 21,
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
