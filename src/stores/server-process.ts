/**
 * A store server run as a local child process: started with node's child_process (execa's module
 * graph, the largest in a run's start, is left to the commands that need its conveniences),
 * registered for cleanup on every exit path, and able to be paused (SIGSTOP), resumed and killed
 * for store faults.
 */
import { spawn } from 'node:child_process';
import { dieWithHarness } from '../process/die-with-harness.ts';
import { cleanupProcess } from '../process/cleanup.ts';
import { waitUntilStopped } from '../process/process-tree.ts';

export interface ServerProcessOptions {
  label: string;
  command: string;
  args: string[];
  env?: Record<string, string>;
  /** Run as this uid/gid (Postgres and PgBouncer refuse to run as root). */
  uid?: number;
  gid?: number;
  cwd?: string;
}

export interface ServerProcess {
  readonly pid: number;
  readonly label: string;
  /** Everything the server printed so far (for error messages). */
  output(): string;
  /**
   * The first match of `pattern` in what the server printed, as soon as it is printed; undefined
   * if the server exits or `withinMs` pass first.
   */
  printed(pattern: RegExp, withinMs: number): Promise<RegExpExecArray | undefined>;
  /** Resolves when the process has exited, with a description. */
  readonly exited: Promise<string>;
  pause(): Promise<void>;
  resume(): Promise<void>;
  kill(): Promise<void>;
  /** SIGTERM, then SIGKILL after `graceMs` (0: SIGKILL at once); resolves when the process is gone. */
  stop(graceMs?: number): Promise<void>;
}

export function spawnServer(options: ServerProcessOptions): ServerProcess {
  const [command, args] = dieWithHarness(options.command, options.args);
  const child = spawn(command, args, {
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.uid !== undefined ? { uid: options.uid } : {}),
    ...(options.gid !== undefined ? { gid: options.gid } : {}),
    ...(options.cwd ? { cwd: options.cwd } : {}),
  });
  // A spawn that failed (no such command) says so by pid below; its 'error' event must not end the harness.
  let spawnError: Error | undefined;
  child.on('error', (error) => (spawnError = error));
  let log = '';
  const onOutput = new Set<() => void>();
  // stdout and stderr in one log, in the order they arrived.
  for (const stream of [child.stdout, child.stderr])
    stream.on('data', (chunk: Buffer) => {
      if (log.length < 64_000) log += chunk.toString();
      for (const look of onOutput) look();
    });
  const pid = child.pid;
  if (pid === undefined) throw new Error(`${options.label}: could not start "${options.command}"`);
  // After the exit and the end of its output ('close'), so that a log read then is whole.
  const exited = new Promise<string>((resolve) =>
    child.once('close', (exitCode, signal) => {
      const how = signal ? `signal ${signal}` : spawnError ? spawnError.message : `exit code ${exitCode}`;
      resolve(`${options.label} (pid ${pid}) exited with ${how}`);
    }),
  );
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  const signal = (name: NodeJS.Signals) => {
    if (gone) return;
    try {
      process.kill(pid, name);
    } catch {
      /* raced with exit */
    }
  };
  const stop = async (graceMs = 2000) => {
    if (gone) return;
    if (graceMs === 0) {
      signal('SIGKILL');
      await exited;
      return;
    }
    signal('SIGCONT');
    signal('SIGTERM');
    const timer = setTimeout(() => signal('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  };
  const unregister = cleanupProcess(options.label, pid, () => stop());
  return {
    pid,
    label: options.label,
    output: () => log,
    printed: (pattern, withinMs) =>
      new Promise((resolve) => {
        const done = (match: RegExpExecArray | undefined) => {
          onOutput.delete(look);
          clearTimeout(timer);
          resolve(match);
        };
        const look = () => {
          const match = pattern.exec(log);
          if (match) done(match);
        };
        const timer = setTimeout(() => done(undefined), withinMs);
        void exited.then(() => done(pattern.exec(log) ?? undefined));
        onOutput.add(look);
        look();
      }),
    exited,
    pause: async () => {
      signal('SIGSTOP');
      await waitUntilStopped([pid]);
    },
    resume: async () => signal('SIGCONT'),
    kill: async () => {
      signal('SIGKILL');
      await exited;
    },
    stop: async (graceMs?: number) => {
      await stop(graceMs);
      await unregister();
    },
  };
}

/** Poll `probe` until it resolves, or fail with what the server printed. */
export async function waitUntilReady<T>(
  server: ServerProcess,
  probe: () => Promise<T>,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  let exitedWith: string | undefined;
  void server.exited.then((how) => (exitedWith = how));
  let lastError: unknown;
  while (performance.now() < deadline) {
    if (exitedWith) break;
    try {
      return await probe();
    } catch (error) {
      lastError = error;
      await new Promise((r) => setTimeout(r, 5));
    }
  }
  const why = exitedWith ?? `did not answer within ${timeoutMs} ms (last error: ${(lastError as Error)?.message})`;
  throw new Error(`${server.label} ${why}.\n--- its output ---\n${server.output().slice(-4000)}`);
}
