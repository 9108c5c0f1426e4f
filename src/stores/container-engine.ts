/**
 * The container engine on this machine, through testcontainers' client: refused when it (or the
 * container host testcontainers would use) is off loopback, and the image to run for a store
 * (docker/images.json; the harness never pulls). Shared by the one-store container runtime and a
 * topology's nodes in containers.
 */
import type { ContainerRuntimeClient } from 'testcontainers';
import { getContainerRuntimeClient, ImageName } from './testcontainers.ts';
import { imageCandidates, imagePins } from './images.ts';
import { isLoopbackHost } from './loopback.ts';
import type { StoreKind } from './types.ts';
import { StoreUnavailableError } from '../core/errors.ts';

const ENGINE_REMEDY = 'bash scripts/container-engine.sh (installs and starts a local dockerd), or use --runtime local';

/**
 * testcontainers' client for an engine on this machine. The store runs on the host network, so
 * its host is 127.0.0.1 by construction (the override also keeps testcontainers from looking for
 * a bridge gateway when this process seems to run in a container); an engine reached over TCP
 * must be on loopback too.
 */
export async function localEngine(): Promise<ContainerRuntimeClient> {
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

/** The first image present on the engine: LOCK_ORACLES_<KIND>_IMAGE alone, else the local build, then the official one. */
export async function chooseImage(client: ContainerRuntimeClient, kind: StoreKind): Promise<string> {
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
