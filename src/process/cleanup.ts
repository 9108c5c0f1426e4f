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

const interruptListeners = new Set<(signal: InterruptSignal) => void>();
let interruptedBy: InterruptSignal | undefined;

export type InterruptSignal = 'SIGINT' | 'SIGTERM';

/** The exit code for an interruption: 128 + the signal's number. */
export function interruptExitCode(signal: InterruptSignal): number {
  return signal === 'SIGINT' ? 130 : 143;
}

/** The signal that interrupted this process, if one did. */
export function interruption(): InterruptSignal | undefined {
  return interruptedBy;
}

/**
 * Let a running command end its own run on SIGINT/SIGTERM (stop everything, write an INTERRUPTED
 * record, exit 130/143) instead of the default: tear down and exit at once. Returns an unsubscribe.
 */
export function onInterrupt(listener: (signal: InterruptSignal) => void): () => void {
  installSignalHandlers();
  interruptListeners.add(listener);
  if (interruptedBy) listener(interruptedBy);
  return () => interruptListeners.delete(listener);
}

/**
 * From a command's first line: a SIGINT/SIGTERM before anything started exits 130/143 at once,
 * rather than killing the process by the signal (which `npm run` may then report as exit 1); once
 * something started, it is stopped in order first.
 */
export function handleInterrupts(): void {
  installSignalHandlers();
}

/** How long an orderly stop may take before everything left is killed outright. */
const HARD_STOP_MS = 20_000;

function installSignalHandlers(): void {
  if (signalsInstalled) return;
  signalsInstalled = true;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    // `on`, not `once`: the listener must stay, or a second signal (a second Ctrl-C, or a library's
    // exit hook re-raising the first one when it sees no listener left) kills the harness
    // mid-cleanup and leaves store dirs behind.
    process.on(signal, () => interrupt(signal, signal));
  }
  process.once('exit', runSyncTeardowns);
  watchParent();
}

/**
 * A harness whose parent died (`npm run oracle` killed, even by SIGKILL, or a wrapper that does not
 * pass signals on) is orphaned: nobody waits for its verdict. It stops as on SIGTERM.
 */
function watchParent(): void {
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) interrupt('SIGTERM', `the parent process (pid ${parent}) is gone`);
  }, 250).unref();
}

function interrupt(signal: InterruptSignal, cause: string): void {
  if (interruptedBy) {
    if (cause === signal)
      process.stderr.write(
        `\n${signal}: already stopping (since ${interruptedBy}); cleanup goes on, nothing will be left running\n`,
      );
    return;
  }
  interruptedBy = signal;
  // Nothing started and nobody to tell (a test worker being shut down, say): end without a word.
  if (!pending.size && !interruptListeners.size) process.exit(interruptExitCode(signal));
  process.stderr.write(`\n${cause}: stopping every store and holder this run started\n`);
  const hardStop = setTimeout(() => {
    runSyncTeardowns();
    process.exit(interruptExitCode(signal));
  }, HARD_STOP_MS);
  hardStop.unref();
  if (interruptListeners.size) {
    for (const listener of interruptListeners) listener(signal);
    return;
  }
  void cleanupAll().finally(() => process.exit(interruptExitCode(signal)));
}
