// BAD for V313 on --store fs: lease-job.ts with its storeKey's lease file absolute, as its users write it (join(env.dir!, env.key + '.lease')): the same lease as the relative one, the same FAIL, plain and explored.
import { join } from 'node:path';
import { defineTarget } from '../contract.ts';
import leaseJob from './lease-job.ts';
import { leaseLocation } from './lease-record.ts';

export default defineTarget({
  ...leaseJob,
  description: `${leaseJob.description}; storeKey an absolute path under env.dir`,
  storeKey: (env) => ({ ...leaseLocation(env), path: join(env.dir!, env.key + '.lease') }),
});
