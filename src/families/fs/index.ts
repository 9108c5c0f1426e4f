/**
 * The fs family: file locks in a scratch directory of this machine (a run dir, removed after the
 * run). A lock lives at a path under it (a `mkdir` lock's directory, a `wx`-created lease file),
 * named by the target's storeKey (a path, or { path, owner, staleMs }) or by env.key itself, taken
 * in relative to the directory (lock-path.ts) as the holders' calls name it. The harness reads it
 * with lstat and readFile (view.ts), a flock lock in /proc/locks (kernel-locks.ts). No container, no server, no session
 * locks; its clock is the kernel's, read as the mtime it stamps; a holder's filesystem calls are
 * its boundaries (docs/store-families.md).
 */
import { fileURLToPath } from 'node:url';
import type { StoreLocation } from '../../../targets/contract.ts';
import { keyOf } from '../../stores/store-location.ts';
import type { StoreFamily } from '../family.ts';
import { asFileLock, fileLockIn, onLockPath, unreadableFileLock } from './lock-path.ts';
import { fsRecipe } from './recipe.ts';
import { kernelClockMs, readFileLock, whereOf } from './view.ts';

function describe(location: StoreLocation): string {
  const lock = asFileLock(location);
  return lock ? whereOf(lock) : `the lock ${JSON.stringify(keyOf(location))}, which a directory does not have`;
}

export const fsFamily: StoreFamily = {
  name: 'fs',
  recipes: [fsRecipe],
  describe,
  unreadable: unreadableFileLock,
  located(declared, store) {
    const dir = fileURLToPath(store.url);
    const location = fileLockIn(dir, declared);
    if (JSON.stringify(location) === JSON.stringify(declared)) return { location };
    const [was, is] = [asFileLock(declared)!, asFileLock(location)!];
    const owner = was.owner === is.owner ? '' : `, its owner file ${was.owner} is ${is.owner} inside it`;
    return {
      location,
      note: `storeKey(env) names the lock ${was.path}: that is ${is.path} under env.dir (${dir})${owner}, the path the holders' calls are reported with and the evidence names`,
    };
  },
  view(store) {
    const dir = fileURLToPath(store.url);
    return {
      lock: (location) => readFileLock(dir, asFileLock(location)!),
      clockMs: () => kernelClockMs(dir),
      close: async () => undefined,
    };
  },
  commands: {
    // A call as the boundaries name it, "rm k.lock" ("rename a -> b"): on the lock when its path is the lock's or inside it.
    touches: ({ text }, location) => onLockPath(text.slice(text.indexOf(' ') + 1), keyOf(location)),
  },
  holderUrl: (url) => url,
  clients: {
    node: ['proper-lockfile', '@bybrave/proper-lockfile2', 'lockfile'],
    python: ['filelock', 'fasteners', 'portalocker'],
    java: [],
    go: ['github.com/gofrs/flock'],
  },
  holderDir: (store) => fileURLToPath(store.url),
  boundaryKinds: ['fs', 'seam', 'effect'],
  // A lock file has no expiry in the store: a contender ages it on its own clock from when it saw it.
  expiryClock: 'contender',
};
