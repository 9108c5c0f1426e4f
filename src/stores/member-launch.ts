/**
 * One member of a coordination service's cluster (--topology etcd:N, zookeeper:N) as its family
 * describes it and a runtime starts it: a local process (here) or a container
 * (container-member.ts). The family says what to run given the member's dir as the server sees it
 * (a dir in the run dir, or one inside the member's own container); the runtime writes the
 * member's files there, starts it, waits until it answers, and carries out the member faults in its
 * own way: SIGSTOP / SIGCONT / SIGKILL of the process, or docker pause / unpause / kill -s KILL.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { spawnServer, waitUntilReady } from './server-process.ts';
import type { StartedStore, StoreKind, StoreRequest } from './types.ts';

export interface MemberSpec {
  kind: StoreKind;
  /** "m1", "m2", …: its dir's name in the run dir. */
  name: string;
  /** e.g. "etcd m2 :23791", for messages and cleanup. */
  label: string;
  /** Its client port on 127.0.0.1 (its peer ports are in its command line). */
  port: number;
  /** The command line, binary first, given the member's dir as the server sees it; `inContainer`: run in the store's image. */
  command(dir: string, inContainer: boolean): string[];
  /** Files it needs before it starts (zoo.cfg, myid), by path relative to its dir. */
  files?(dir: string): Array<{ path: string; content: string }>;
  /** A line the server prints as it starts (a container is waited for on it, then probed). */
  readyLog: RegExp;
  /** Asks the member its version on its client port; throws until it answers. */
  probe(): Promise<string>;
  /** How long it may take to answer (a JVM on a loaded machine takes seconds). */
  readyWithinMs: number;
}

/** A started member's server: what LocalMembers (src/stores/local-members.ts) pauses, resumes and kills. */
export interface MemberServer {
  /** Every instruction of the server stopped while its sockets stay open; resume lets it go on. */
  pause(): Promise<void>;
  resume(): Promise<void>;
  /** SIGKILL (a container is then removed); resolves once it is gone. Safe to call twice. */
  stop(graceMs?: number): Promise<void>;
}

export interface LaunchedMember {
  server: MemberServer;
  version: string;
}

export type MemberLauncher = (spec: MemberSpec) => Promise<LaunchedMember>;

/** What a family gets to start its members, whatever runs them. */
export interface MembersStartContext {
  request: StoreRequest;
  /** m1's client port (the store's port). */
  port: number;
  freePort(): Promise<number>;
  launch: MemberLauncher;
}

export type StartMembers = (
  ctx: MembersStartContext,
  size: number,
) => Promise<Omit<StartedStore, 'runtime' | 'startMs'>>;

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

/** Every member launched side by side (peers must find each other to answer); if one fails, the others are stopped. */
export async function launchMembers(launch: MemberLauncher, specs: readonly MemberSpec[]): Promise<LaunchedMember[]> {
  const outcomes = await Promise.allSettled(specs.map((spec) => launch(spec)));
  const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
  if (!failed) return outcomes.map((o) => (o as PromiseFulfilledResult<LaunchedMember>).value);
  await Promise.all(outcomes.map((o) => (o.status === 'fulfilled' ? o.value.server.stop(0) : undefined)));
  throw failed.reason;
}
