import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

// npm run test:explore: every explored reference npm test leaves out (test/explored/, test/explore-split.ts),
// kept out of `npm test` for its length; .ci/run runs them. Same rules: real stores, no retries.
export default defineConfig({
  test: { ...base.test, include: ['test/explored/**/*.test.ts'], exclude: ['**/node_modules/**'] },
});
