/**
 * A coordination service's member (src/stores/member-launch.ts) in its own container: the store's
 * image (docker/images.json, never pulled) on Docker's host network, so the member binds its client
 * and peer ports on 127.0.0.1 of this machine and finds its peers there — every byte of a cluster's
 * traffic stays on loopback, as with local processes. Its dir is MEMBER_DIR inside the container,
 * its files copied there before it starts. A pause is docker pause (the cgroup freezer, as for one
 * server in a container), a kill docker kill -s KILL and then removal; the container carries the
 * run's labels (src/stores/labels.ts) and is removed on every exit path, or by the next run's reaper
 * (or `clean`) after a SIGKILL of the harness.
 */
import { posix } from 'node:path';
import { chooseImage, localEngine } from './container-engine.ts';
import { answered } from './container-runtime.ts';
import type { LaunchedMember, MemberSpec } from './types.ts';
import { StoreContainer } from './store-container.ts';

/** The member's dir inside its container (/tmp is in the local images and the official ones). */
const MEMBER_DIR = '/tmp/member';

export async function launchContainerMember(spec: MemberSpec): Promise<LaunchedMember> {
  const image = await chooseImage(await localEngine(), spec.kind);
  const server = {
    command: spec.command(MEMBER_DIR, true),
    files: (spec.files?.(MEMBER_DIR) ?? []).map((f) => ({ ...f, path: posix.join(MEMBER_DIR, f.path) })),
    readyLog: spec.readyLog,
  };
  const builder = new StoreContainer(image, spec.kind, server, spec.port);
  builder.withStartupTimeout(spec.readyWithinMs);
  const label = `${spec.label} (container ${image})`;
  const { started, remove } = await builder.startRemovable(label);
  try {
    const version = await answered(spec.probe, label, spec.readyWithinMs);
    return {
      version,
      server: {
        pause: () => started.pause(),
        resume: () => started.resume(),
        stop: async () => {
          await started.kill().catch(() => undefined); // removed already: nothing left to kill
          await remove();
        },
      },
    };
  } catch (error) {
    await remove();
    throw error;
  }
}
