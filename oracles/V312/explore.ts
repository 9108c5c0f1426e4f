/**
 * V312 under --explore: every command of A's job on the lock before its first write (its acquire)
 * becomes a point, held at A's wire proxy (a file store: A's filesystem call on the lock's path,
 * held before it runs) while P takes the lock and is held at its first write.
 */
import type { ExploreSpec } from '../../src/oracle/explore-spec.ts';
import type { v312Params } from './params.ts';

export const v312Explore: ExploreSpec<typeof v312Params> = {
  part: 'job',
  // Only a hold before the command lets P in: once A's acquire ran, P is denied (the fault cannot
  // land), and a killed A makes no write at all. A hold before a command A sends once it holds the
  // lock (an EXPIRE after its SETNX) is not applicable: the store shows A's lock there (judge.ts).
  faults: ['hold-before'],
  params: {},
  doc: "every command of A's job on the lock before its first write (its acquire): held at A's wire proxy while P takes the lock and is held at its first write; then A's command and job go on",
  references: {
    safe: [
      'targets/redis/ioredis/job-checks-acquire.ts',
      'targets/redis/ioredis/job-get-setnx-expire-checked.ts',
      'targets/redis/node-redis/job-checks-acquire.ts',
      { target: 'targets/postgres/job-checks-try-lock.ts', store: 'postgres' },
      { target: 'targets/fs/job-checks-create.ts', store: 'fs' },
    ],
    alsoBad: ['targets/redis/ioredis/job-get-then-set.ts'],
  },
  async trace(s, tracer) {
    const a = await tracer.holder(s);
    await tracer.part('job', () => a.call('job'));
  },
  select: (boundaries) => {
    const firstWrite = boundaries.find((b) => b.kind === 'effect')?.index ?? Infinity;
    return boundaries.filter(
      (b) => (b.kind === 'command' || b.kind === 'fs') && b.onKey === true && b.index < firstWrite,
    );
  },
};
