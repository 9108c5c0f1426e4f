// BAD for V310 on --store fs: mkdir-bare-rmdir.ts with its storeKey as users write it, absolute (join(env.dir, env.key + '.lock')): the same lock, the same FAIL.
import { defineTarget } from '../contract.ts';
import bareRmdir from './mkdir-bare-rmdir.ts';
import { lockDir, OWNER } from './lock-dir.ts';

export default defineTarget({
  ...bareRmdir,
  description: `${bareRmdir.description}; storeKey an absolute path under env.dir`,
  storeKey: (env) => ({ path: lockDir(env).path, owner: OWNER, staleMs: env.ttlMs }),
});
