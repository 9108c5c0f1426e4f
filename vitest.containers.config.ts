import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

// npm run test:containers: the container parity suite (test/parity/), kept out of `npm test` for
// its length. Same rules as the main suite: real stores, no retries.
export default defineConfig({
  test: { ...base.test, include: ['test/parity/**/*.test.ts'], exclude: ['**/node_modules/**'] },
});
