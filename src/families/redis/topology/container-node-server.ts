/**
 * A topology node's server in a container, through testcontainers: the store's image
 * (docker/images.json, never pulled) on the host network, so the server binds 127.0.0.1:`port` of
 * this machine and reaches the harness's link relays there too — every byte stays on loopback and
 * every address a node or a Sentinel announces is one a client on this machine can reach. Its
 * dir is /data inside (the images' working dir, writable by the server in the local and the
 * official images), Sentinel's configuration copied there; a node's clock is the clock-offset
 * library and its offset file, bind-mounted read-only. A pause is docker pause (the cgroup
 * freezer), a kill docker kill -s KILL, a restart docker start of the same container; the
 * container is labelled with its owner run and removed on every exit path, or by the next run's
 * reaper after a SIGKILL of the harness.
 */
import { chmodSync } from 'node:fs';
import { posix } from 'node:path';
import { CONTAINER_CLOCK_MOUNT, serverClockFor } from '../../../stores/clock-offset/server-clock.ts';
import { chooseImage, localEngine } from '../../../stores/container-engine.ts';
import { answered } from '../../../stores/container-runtime.ts';
import { StoreContainer } from '../../../stores/store-container.ts';
import { SENTINEL_CONFIG, type LaunchedServer, type NodeServerSpec } from './node-server.ts';

const DIR = '/data';

export async function launchContainerNode(spec: NodeServerSpec): Promise<LaunchedServer> {
  const { kind, port, hostDir } = spec;
  const image = await chooseImage(await localEngine(), kind);
  const clock =
    spec.clockOffsetMs === undefined
      ? null
      : await serverClockFor({ kind, clockOffsetMs: spec.clockOffsetMs }, hostDir, CONTAINER_CLOCK_MOUNT);
  const server = {
    command: [`${kind}-server`, ...spec.args(DIR)],
    readyLog: spec.readyLog,
    files:
      spec.sentinelConfig === undefined
        ? []
        : [{ path: posix.join(DIR, SENTINEL_CONFIG), content: spec.sentinelConfig }],
  };
  const builder = new StoreContainer(image, kind, server, port);
  if (clock) {
    chmodSync(hostDir, 0o755); // the official images run the server as the redis user
    builder.withEnvironment(clock.env).withBindMounts([
      { source: clock.library, target: CONTAINER_CLOCK_MOUNT.library, mode: 'ro' },
      { source: hostDir, target: CONTAINER_CLOCK_MOUNT.dir, mode: 'ro' },
    ]);
  }
  const label = `${spec.label} (container ${image})`;
  const { started, remove } = await builder.startRemovable(label);
  try {
    const version = await answered(spec.probe, label);
    return {
      version,
      ...(clock ? { clock: clock.control } : {}),
      server: {
        pause: () => started.pause(),
        resume: () => started.resume(),
        kill: () => started.kill(),
        exited: (timeoutMs) => started.exited(timeoutMs),
        // docker start of the same container (testcontainers waits for its ready line again):
        // about half a second sooner than a new container on a loaded machine (docs/benchmarks.md).
        startAgain: async () => {
          await started.restart();
          await answered(spec.probe, label);
        },
        remove,
      },
    };
  } catch (error) {
    await remove();
    throw error;
  }
}
