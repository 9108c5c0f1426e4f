import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { SlowFilesFirst } from './test/slow-files-first.ts';

// Oracle tests start real stores and real holder processes: a few files at a time on 2 cores.
// No retries: a flaky verdict is exactly what this project reports, so it must show.
export default defineConfig({
  // This package's own files import it by name, as a user's project does (docs/examples, the README's
  // example test): the sources here (tsconfig.json "paths" says the same to the typecheck).
  resolve: {
    alias: [
      { find: /^lock-oracles$/, replacement: fileURLToPath(new URL('./src/index.ts', import.meta.url)) },
      { find: /^lock-oracles\/vitest$/, replacement: fileURLToPath(new URL('./src/vitest.ts', import.meta.url)) },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    // Run on their own (.ci/run runs them all): the container parity suite, npm run test:containers
    // (vitest.containers.config.ts), the matrix's Valkey twins, npm run test:valkey (test/reference-split.ts),
    // and the explored references beyond each oracle's first bad and good one, npm run test:explore (test/explore-split.ts).
    exclude: ['test/parity/**', 'test/valkey/**', 'test/explored/**', '**/node_modules/**'],
    // The stores' check; one `npm pack` shared by package.test.ts and tarball.test.ts (test/package-tarball.ts).
    globalSetup: ['test/global-setup.ts', 'test/package-tarball.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    maxWorkers: 2,
    // The slowest files start first (test/slow-files-first.ts), so the suite does not end on one.
    sequence: { sequencer: SlowFilesFirst },
    retry: 0,
    reporters: ['default'],
  },
});
