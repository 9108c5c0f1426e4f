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
 * Each slow file's wall in seconds (vitest's duration of the file), the rest count as 0. Measured
 * 2026-12-03 one file at a time at load 13-35 (docs/benchmarks.md, "Test suite: pack once, each
 * check once"), except: the reference matrix, estimated as the sum of its entries' last walls on
 * this machine (src/run/reference-order.ts's cache) over its 2 jobs; the explored files, from the
 * whole run of 2026-12-01 (load 25-33). Only the order matters: the longest start first.
 */
const MEASURED_SECONDS: Record<string, number> = {
  'test/reference-targets.test.ts': 600,
  'test/leftovers.test.ts': 275,
  'test/explore-V310.test.ts': 159,
  'test/explore-V313.test.ts': 158,
  'test/explore-replay.test.ts': 138,
  'test/cli.test.ts': 106,
  'test/package.test.ts': 70,
  'test/bindings.test.ts': 46,
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
