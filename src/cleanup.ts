/**
 * One place that knows everything the harness started (store servers, holder processes, temp
 * dirs) and tears it down on every exit path: normal return, error, SIGINT / SIGTERM.
 */
import { rmSync } from 'node:fs';

type Teardown = { label: string; run: () => Promise<void> | void; sync?: () => void };

const pending = new Set<Teardown>();
let signalsInstalled = false;

/** Register a teardown; returns a function that runs it once and unregisters it. */
export function onCleanup(label: string, run: () => Promise<void> | void, sync?: () => void): () => Promise<void> {
  installSignalHandlers();
  const entry: Teardown = { label, run, ...(sync ? { sync } : {}) };
  pending.add(entry);
  return async () => {
    if (!pending.delete(entry)) return;
    await entry.run();
  };
}

/** A temp dir removed on every exit path. */
export function cleanupDir(dir: string): () => Promise<void> {
  const remove = () => rmSync(dir, { recursive: true, force: true });
  return onCleanup(`remove ${dir}`, remove, remove);
}

/** A process killed (SIGKILL) on every exit path. */
export function cleanupProcess(label: string, pid: number | undefined, stop: () => Promise<void>): () => Promise<void> {
  const killNow = () => {
    if (pid === undefined) return;
    try {
      process.kill(pid, 'SIGCONT');
      process.kill(pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  };
  return onCleanup(label, stop, killNow);
}

/** Run every registered teardown, newest first. */
export async function cleanupAll(): Promise<void> {
  // Each entry leaves the list only once its teardown has finished, so if the process dies
  // meanwhile the exit hook still runs the synchronous fallback of everything not yet torn down.
  for (const entry of [...pending].reverse()) {
    try {
      await entry.run();
    } catch (error) {
      process.stderr.write(`cleanup: ${entry.label} failed: ${(error as Error).message}\n`);
    }
    pending.delete(entry);
  }
}

function runSyncTeardowns(): void {
  for (const entry of [...pending].reverse()) {
    try {
      entry.sync?.();
    } catch {
      /* best effort on the way out */
    }
  }
  pending.clear();
}

function installSignalHandlers(): void {
  if (signalsInstalled) return;
  signalsInstalled = true;
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    // `on`, not `once`: execa's signal-exit re-raises the signal (killing this process before its
    // cleanup is done) when it finds no other listener left; a second signal changes nothing.
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      if (pending.size) process.stderr.write(`\n${signal}: stopping every store and holder this run started\n`);
      const hardStop = setTimeout(() => {
        runSyncTeardowns();
        process.exit(signal === 'SIGINT' ? 130 : 143);
      }, 3000);
      hardStop.unref();
      void cleanupAll().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
    });
  }
  process.once('exit', runSyncTeardowns);
}
