/**
 * One member of a coordination service's cluster (--topology etcd:N, zookeeper:N) as its family
 * describes it (types.ts: MemberSpec) and a runtime starts it: a local process (here) or a container
 * (container-member.ts). The family says what to run given the member's dir as the server sees it
 * (a dir in the run dir, or one inside the member's own container); the runtime writes the
 * member's files there, starts it, waits until it answers, and carries out the member faults in its
 * own way: SIGSTOP / SIGCONT / SIGKILL of the process, or docker pause / unpause / kill -s KILL.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { spawnServer, waitUntilReady } from './server-process.ts';
import type { LaunchedMember, MemberLauncher, MemberSpec } from './types.ts';

/** Members as local processes, each with its own dir `runDir`/<name> (removed with the run dir). */
export function localMemberLauncher(runDir: string): MemberLauncher {
  return async (spec) => {
    const dir = join(runDir, spec.name);
    mkdirSync(dir, { recursive: true });
    for (const file of spec.files?.(dir) ?? []) {
      mkdirSync(dirname(join(dir, file.path)), { recursive: true });
      writeFileSync(join(dir, file.path), file.content);
    }
    const [command, ...args] = spec.command(dir, false);
    const server = spawnServer({ label: spec.label, command: command!, args, cwd: dir });
    try {
      return { server, version: await waitUntilReady(server, spec.probe, spec.readyWithinMs) };
    } catch (error) {
      await server.stop(0);
      throw error;
    }
  };
}

/**
 * Every member launched side by side (peers must find each other to answer). The first failure is
 * thrown at once; every member that started, or starts later, is then stopped (each is registered
 * for cleanup on exit meanwhile, and a launch that fails stops its own server).
 */
export async function launchMembers(launch: MemberLauncher, specs: readonly MemberSpec[]): Promise<LaunchedMember[]> {
  const launches = specs.map((spec) => launch(spec));
  try {
    return await Promise.all(launches);
  } catch (error) {
    for (const launched of launches)
      void launched.then(
        ({ server }) => server.stop(0),
        () => undefined,
      );
    throw error;
  }
}
