/**
 * The local-process runtime: each store is a real server process on a free loopback port with a
 * temp dir (marked with its owner, src/process/run-dir.ts), started from the store's recipe in docker/ and
 * removed on every exit path.
 */
import { makeRunDir } from '../process/run-dir.ts';
import { freePort } from './free-port.ts';
import type { RecipeBook, StartedStore, StoreRequest } from './types.ts';

export async function startLocalStore(request: StoreRequest, recipeFor: RecipeBook): Promise<StartedStore> {
  const recipe = recipeFor(request.kind);
  const missing = await recipe.missing();
  if (missing) throw missing;
  const began = performance.now();
  const { dir, remove: removeDir } = makeRunDir(request.kind);
  try {
    const started = await recipe.startLocal({
      port: await freePort(),
      dir,
      request,
      freePort,
      startStore: (backend) => startLocalStore(backend, recipeFor),
    });
    const startMs = performance.now() - began;
    return {
      ...started,
      runtime: 'local-process',
      startMs,
      stop: async () => {
        await started.stop();
        await removeDir();
      },
    };
  } catch (error) {
    await removeDir();
    throw error;
  }
}
