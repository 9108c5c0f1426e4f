/**
 * A topology node's server as a local child process: the scratch server's binary on this machine
 * (killed with the harness: setpriv --pdeathsig), its dir the node's run dir; a pause is SIGSTOP,
 * and starting it again is a new process with the same arguments.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { serverClockFor } from '../../../stores/clock-offset/server-clock.ts';
import { spawnServer, waitUntilReady } from '../../../stores/server-process.ts';
import { serverBinary } from '../recipe.ts';
import { SENTINEL_CONFIG, type LaunchedServer, type NodeServerSpec } from './node-server.ts';

export async function launchLocalNode(spec: NodeServerSpec): Promise<LaunchedServer> {
  const { kind, hostDir } = spec;
  const clock =
    spec.clockOffsetMs === undefined
      ? null
      : await serverClockFor({ kind, clockOffsetMs: spec.clockOffsetMs }, hostDir);
  if (spec.sentinelConfig !== undefined) writeFileSync(join(hostDir, SENTINEL_CONFIG), spec.sentinelConfig);
  const start = async () => {
    const server = spawnServer({
      label: spec.label,
      command: serverBinary(kind),
      args: spec.args(hostDir),
      env: clock?.env ?? {},
    });
    try {
      return { server, version: await waitUntilReady(server, spec.probe) };
    } catch (error) {
      await server.stop(0);
      throw error;
    }
  };
  let { server, version } = await start();
  return {
    version,
    ...(clock ? { clock: clock.control } : {}),
    server: {
      pause: () => server.pause(),
      resume: () => server.resume(),
      kill: () => server.stop(0),
      exited: async (timeoutMs) => {
        await Promise.race([server.exited, new Promise((resolve) => setTimeout(resolve, timeoutMs))]);
      },
      startAgain: async () => {
        await server.stop(0);
        ({ server } = await start());
      },
      remove: () => server.stop(0),
    },
  };
}
