import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

// npm run test:valkey: the Valkey twins of the reference matrix (test/valkey/, test/reference-split.ts),
// kept out of `npm test` for their length; .ci/run runs them. Same rules: real stores, no retries.
export default defineConfig({
  test: { ...base.test, include: ['test/valkey/**/*.test.ts'], exclude: ['**/node_modules/**'] },
});
