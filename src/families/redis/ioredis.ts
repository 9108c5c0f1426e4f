/**
 * The harness's own Redis client library (ioredis), required on first use rather than when the
 * family's code loads: ~20 ms of CPU that a run on another store never needs, and that a Redis run
 * spends while its server starts (recipe.ts) instead of before the run begins.
 */
import { createRequire } from 'node:module';

type IoredisModule = typeof import('ioredis');
let loaded: IoredisModule | undefined;

export function ioredis(): IoredisModule {
  return (loaded ??= createRequire(import.meta.url)('ioredis') as IoredisModule);
}
