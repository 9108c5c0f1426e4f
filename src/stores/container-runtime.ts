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
import { spawnSync } from 'node:child_process';
import { getContainerRuntimeClient, ImageName, type ContainerRuntimeClient } from 'testcontainers';
import { imageCandidates, imagePins } from './images.ts';
import { serverClockFor, type ServerClock } from './clock-offset/server-clock.ts';
import { onCleanup } from '../process/cleanup.ts';
import { makeRunDir } from '../process/run-dir.ts';
import { freePort } from './free-port.ts';
import { isLoopbackHost } from './loopback.ts';
import { StoreContainer } from './store-container.ts';
import {
  type ContainerStartContext,
  type RecipeBook,
  type StartedStore,
  type StoreKind,
  type StoreRequest,
} from './types.ts';
import { StoreUnavailableError } from '../core/errors.ts';

const ENGINE_REMEDY = 'bash scripts/container-engine.sh (installs and starts a local dockerd), or use --runtime local';
/** Where a container sees the clock-offset library and the dir holding its offset file. */
const CLOCK_MOUNT = { library: '/lock-oracles/clock-offset.so', dir: '/lock-oracles/clock' };

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
  const ctx: ContainerStartContext = { request, ...(backend ? { backend } : {}) };
  const port = await freePort();
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
      clock = await serverClockFor(request, clockDir, CLOCK_MOUNT);
    }
    const builder = new StoreContainer(image, kind, recipe, port, ctx).withOnCreated((id) => {
      // One force-remove request (kill + remove, paused or not): the engine finishes it even if this
      // process dies right after sending it, where stop-then-remove could leave an exited container.
      remove = onCleanup(
        `remove ${label}`,
        () => client.container.getById(id).remove({ force: true, v: true }),
        () => void spawnSync('docker', ['rm', '--force', id], { stdio: 'ignore', timeout: 5000 }),
      );
    });
    if (clock) {
      builder.withEnvironment(clock.env).withBindMounts([
        { source: clock.library, target: CLOCK_MOUNT.library, mode: 'ro' },
        { source: clockDir, target: CLOCK_MOUNT.dir, mode: 'ro' },
      ]);
    }
    const started = await builder.start();
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

/** The first image present on the engine: LOCK_ORACLES_<KIND>_IMAGE alone, else the local build, then the official one. */
async function chooseImage(client: ContainerRuntimeClient, kind: StoreKind): Promise<string> {
  const candidates = imageCandidates(kind);
  for (const image of candidates) {
    if (await client.image.exists(ImageName.fromString(image))) return image;
  }
  const pins = imagePins(kind);
  throw new StoreUnavailableError(
    `no image for ${kind} is on the container engine (looked for ${candidates.join(', ')}), and the harness does not pull images.`,
    `bash scripts/container-engine.sh (builds ${pins.local} from this machine's Debian packages, no registry), or docker pull ${pins.official}`,
  );
}

/**
 * testcontainers' client for an engine on this machine. The store runs on the host network, so
 * its host is 127.0.0.1 by construction (the override also keeps testcontainers from looking for
 * a bridge gateway when this process seems to run in a container); an engine reached over TCP
 * must be on loopback too.
 */
async function localEngine(): Promise<ContainerRuntimeClient> {
  refuseRemoteEngine(process.env);
  process.env.TESTCONTAINERS_RYUK_DISABLED ??= 'true';
  process.env.TESTCONTAINERS_HOST_OVERRIDE ??= '127.0.0.1';
  let client: ContainerRuntimeClient;
  try {
    client = await getContainerRuntimeClient();
  } catch (error) {
    throw new StoreUnavailableError(
      `no container engine answered (testcontainers: ${(error as Error).message}).`,
      ENGINE_REMEDY,
    );
  }
  // An engine named in ~/.testcontainers.properties rather than the environment.
  const modem = client.container.dockerode.modem as { socketPath?: string; host?: string };
  refuseHost(modem.socketPath ? undefined : modem.host, 'the container engine');
  refuseHost(client.info.containerRuntime.host, "testcontainers' container host");
  return client;
}

/** Before any request: an engine or container host named in the environment must be on loopback. */
export function refuseRemoteEngine(env: NodeJS.ProcessEnv): void {
  const dockerHost = env.DOCKER_HOST;
  if (dockerHost && !/^(unix|npipe):/.test(dockerHost)) refuseHost(hostOf(dockerHost), `DOCKER_HOST (${dockerHost})`);
  refuseHost(env.TESTCONTAINERS_HOST_OVERRIDE, 'TESTCONTAINERS_HOST_OVERRIDE');
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return url;
  }
}

function refuseHost(host: string | undefined, what: string): void {
  if (host === undefined || isLoopbackHost(host)) return;
  throw new StoreUnavailableError(
    `${what} is "${host}", not this machine's loopback: the harness only starts and touches stores on loopback.`,
    'use a local engine (unset DOCKER_HOST for unix:///var/run/docker.sock, or a tcp://127.0.0.1 one), or --runtime local',
  );
}

/**
 * The server printed its ready line; it must now answer on 127.0.0.1 (else the engine is not
 * sharing this network). The official Postgres image prints the line once for its initialising
 * server too (socket only), so this waits for the real one.
 */
async function answered(probe: () => Promise<string>, label: string, timeoutMs = 30_000): Promise<string> {
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
