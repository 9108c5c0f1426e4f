// The hand-written comparison tests of `npm run bench` (not part of `npm test`).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { include: ['scripts/handwritten/*.test.ts'], testTimeout: 120_000, hookTimeout: 120_000, retry: 0 },
});
