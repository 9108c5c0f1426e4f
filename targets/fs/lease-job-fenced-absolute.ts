// GOOD for V313 on --store fs: lease-job-fenced.ts with its storeKey's lease file absolute, as its users write it (join(env.dir!, env.key + '.lease')): the same lease as the relative one, the same PASS.
import { join } from 'node:path';
import { defineTarget } from '../contract.ts';
import leaseJobFenced from './lease-job-fenced.ts';
import { leaseLocation } from './lease-record.ts';

export default defineTarget({
  ...leaseJobFenced,
  description: `${leaseJobFenced.description}; storeKey an absolute path under env.dir`,
  storeKey: (env) => ({ ...leaseLocation(env), path: join(env.dir!, env.key + '.lease') }),
});
