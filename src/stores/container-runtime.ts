/**
 * The container runtime: each store is a real server in a container started with testcontainers
 * from its image (docker/images.json), on Docker's host network bound to a free loopback port of
 * this machine, labelled with the run that started it and removed on every exit path
 * (src/process/cleanup.ts; after a SIGKILL, by the next run's reaper: src/run/reaper.ts; Ryuk is off, it
 * needs an image pull). The harness never pulls: the image must already be on the engine.
 *
 * Store faults: pause/resume are docker pause/unpause (the cgroup freezer), kill is docker kill
 * with SIGKILL, and a store clock offset is the clock-offset library bind-mounted into the
 * container and preloaded (src/stores/clock-offset/server-clock.ts).
 */
import { chmodSync } from 'node:fs';
import { CONTAINER_CLOCK_MOUNT, serverClockFor, type ServerClock } from './clock-offset/server-clock.ts';
import { makeRunDir } from '../process/run-dir.ts';
import { chooseImage, localEngine } from './container-engine.ts';
import { freePort } from './free-port.ts';
import { StoreContainer } from './store-container.ts';
import { type ContainerStartContext, type RecipeBook, type StartedStore, type StoreRequest } from './types.ts';
import { StoreUnavailableError } from '../core/errors.ts';

export async function startContainerStore(request: StoreRequest, recipeFor: RecipeBook): Promise<StartedStore> {
  const { kind } = request;
  const recipe = recipeFor(kind).container;
  if (!recipe) {
    throw new StoreUnavailableError(
      `the container runtime cannot start ${kind}: ${recipeFor(kind).noContainer ?? 'its recipe has no container facts (command, ready line, version probe)'}.`,
      `use --runtime local for ${kind}`,
    );
  }
  const began = performance.now();
  const client = await localEngine();
  const image = await chooseImage(client, kind);
  const backend = recipe.backend ? await startContainerStore(recipe.backend(request), recipeFor) : undefined;
  const port = await freePort();
  const ctx: ContainerStartContext = { request, secondPort: await freePort(), ...(backend ? { backend } : {}) };
  const label = `${kind} container (${image}) :${port}`;
  let remove: (() => Promise<void>) | undefined;
  let removeDir: (() => Promise<void>) | undefined;
  try {
    // A store clock: the library and a run dir with the offset file, bind-mounted read-only. A
    // proxy store's clock is its backend's (PgBouncer has no clock of its own that matters).
    let clock: ServerClock | null = null;
    let clockDir = '';
    if (request.clockOffsetMs !== undefined && !backend) {
      const runDir = makeRunDir(kind);
      removeDir = runDir.remove;
      clockDir = runDir.dir;
      chmodSync(clockDir, 0o755); // the server may run as another user (postgres)
      clock = await serverClockFor(request, clockDir, CONTAINER_CLOCK_MOUNT);
    }
    const server = {
      command: recipe.command(port, ctx),
      readyLog: recipe.readyLog,
      ...(recipe.env ? { env: recipe.env } : {}),
      ...(recipe.files ? { files: recipe.files(port, ctx) } : {}),
    };
    const builder = new StoreContainer(image, kind, server, port);
    if (clock) {
      builder.withEnvironment(clock.env).withBindMounts([
        { source: clock.library, target: CONTAINER_CLOCK_MOUNT.library, mode: 'ro' },
        { source: clockDir, target: CONTAINER_CLOCK_MOUNT.dir, mode: 'ro' },
      ]);
    }
    const { started, remove: removeContainer } = await builder.startRemovable(label);
    remove = removeContainer;
    const version = await answered(() => recipe.version(port, ctx), label);
    const backendClock = backend?.capabilities.clock;
    const storeClock = clock?.control ?? backendClock;
    return {
      kind,
      runtime: 'container',
      url: recipe.url(port),
      host: '127.0.0.1',
      port,
      version,
      startMs: performance.now() - began,
      ...(backend ? { backend } : {}),
      capabilities: {
        pause: () => started.pause(),
        resume: () => started.resume(),
        kill: () => started.kill(),
        ...(storeClock ? { clock: storeClock } : {}),
      },
      stop: async () => {
        await remove?.();
        await removeDir?.();
        await backend?.stop();
      },
    };
  } catch (error) {
    await remove?.().catch(() => undefined);
    await removeDir?.().catch(() => undefined);
    await backend?.stop().catch(() => undefined);
    throw error;
  }
}

/**
 * The server printed its ready line; it must now answer on 127.0.0.1 (else the engine is not
 * sharing this network). The official Postgres image prints the line once for its initialising
 * server too (socket only), so this waits for the real one.
 */
export async function answered(probe: () => Promise<string>, label: string, timeoutMs = 30_000): Promise<string> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    try {
      return await probe();
    } catch (error) {
      if (performance.now() > deadline) {
        throw new Error(
          `${label} is ready inside its container but does not answer on 127.0.0.1 within ${timeoutMs} ms (${(error as Error).message}). ` +
            'The engine must run on this machine and share its network namespace (a rootful dockerd on Linux); use --runtime local otherwise.',
        );
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}
