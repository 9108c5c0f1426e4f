/**
 * The container runtime: each store is a real server in a container started with testcontainers
 * from its recipe's image, on Docker's host network bound to a free loopback port of this
 * machine, and removed on every exit path (src/cleanup.ts; Ryuk is off, it needs an image pull).
 * The harness never pulls: the image must already be on the engine.
 */
import { spawnSync } from 'node:child_process';
import { getContainerRuntimeClient, ImageName, type ContainerRuntimeClient } from 'testcontainers';
import { recipeFor } from '../../docker/index.ts';
import { onCleanup } from '../cleanup.ts';
import { freePort } from './free-port.ts';
import { isLoopbackHost } from './loopback.ts';
import { StoreContainer } from './store-container.ts';
import { StoreUnavailableError, type StartedStore, type StoreRecipe, type StoreRequest } from './types.ts';

const ENGINE_REMEDY = 'bash scripts/container-engine.sh (installs and starts a local dockerd), or use --runtime local';

export async function startContainerStore(request: StoreRequest): Promise<StartedStore> {
  const { kind } = request;
  const recipe = recipeFor(kind);
  if (!recipe.container) {
    throw new StoreUnavailableError(
      `the container runtime cannot start ${kind}: its recipe (docker/${kind}.ts) has no container facts (command, ready line, version probe).`,
      `use --runtime local for ${kind}`,
    );
  }
  if (request.clockOffsetMs !== undefined) {
    throw new StoreUnavailableError(
      `the container runtime cannot offset ${kind}'s clock: the clock-offset library is preloaded into local server processes only.`,
      'use --runtime local for oracles that skew a store clock',
    );
  }
  const began = performance.now();
  const client = await localEngine();
  const image = imageFor(recipe);
  if (!(await client.image.exists(ImageName.fromString(image)))) {
    throw new StoreUnavailableError(
      `the image ${image} for ${kind} is not on the container engine, and the harness does not pull images.`,
      `docker pull ${image}; or build a local one (bash scripts/container-engine.sh) and set LOCK_ORACLES_${kind.toUpperCase()}_IMAGE to its tag`,
    );
  }

  const port = await freePort();
  const label = `${kind} container (${image}) :${port}`;
  let remove: (() => Promise<void>) | undefined;
  const builder = new StoreContainer(image, kind, recipe.container, port).withOnCreated((id) => {
    // One force-remove request (kill + remove, paused or not): the engine finishes it even if this
    // process dies right after sending it, where stop-then-remove could leave an exited container.
    remove = onCleanup(
      `remove ${label}`,
      () => client.container.getById(id).remove({ force: true, v: true }),
      () => void spawnSync('docker', ['rm', '--force', id], { stdio: 'ignore', timeout: 5000 }),
    );
  });
  try {
    const started = await builder.start();
    const version = await answered(() => recipe.container!.version(port), label);
    const store: StartedStore = {
      kind,
      runtime: 'container',
      url: recipe.container.url(port),
      host: '127.0.0.1',
      port,
      version,
      startMs: performance.now() - began,
      capabilities: {
        pause: () => started.pause(),
        resume: () => started.resume(),
        kill: () => started.kill(),
      },
      stop: async () => {
        await remove?.();
      },
    };
    return store;
  } catch (error) {
    await remove?.().catch(() => undefined);
    throw error;
  }
}

/** The image for a recipe: LOCK_ORACLES_<KIND>_IMAGE, else the recipe's own. */
function imageFor(recipe: StoreRecipe): string {
  return process.env[`LOCK_ORACLES_${recipe.kind.toUpperCase()}_IMAGE`] || recipe.image;
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
    throw new StoreUnavailableError(`no container engine answered (testcontainers: ${(error as Error).message}).`, ENGINE_REMEDY);
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

/** The server printed its ready line; it must now answer on 127.0.0.1 (else the engine is not sharing this network). */
async function answered(probe: () => Promise<string>, label: string, timeoutMs = 5000): Promise<string> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    try {
      return await probe();
    } catch (error) {
      if (performance.now() > deadline) {
        throw new Error(
          `${label} is ready inside its container but does not answer on 127.0.0.1 (${(error as Error).message}). ` +
            'The engine must run on this machine and share its network namespace (a rootful dockerd on Linux); use --runtime local otherwise.',
        );
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}
