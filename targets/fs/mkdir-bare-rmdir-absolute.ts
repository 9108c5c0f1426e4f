// BAD for V310 on --store fs: mkdir-bare-rmdir.ts with its storeKey's path absolute, as its users write it (join(env.dir!, env.key + '.lock')): the same lock as the relative one, the same FAIL, plain and explored.
import { join } from 'node:path';
import { defineTarget } from '../contract.ts';
import bareRmdir from './mkdir-bare-rmdir.ts';

export default defineTarget({
  ...bareRmdir,
  description: `${bareRmdir.description}; storeKey an absolute path under env.dir`,
  storeKey: (env) => ({ path: join(env.dir!, env.key + '.lock'), owner: 'owner', staleMs: env.ttlMs }),
});
