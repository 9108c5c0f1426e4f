/**
 * The holder shell the launcher started (bin/holder-shell.js): a node process that booted while
 * the CLI loaded, waiting to become the first holder of the first run. Taken once; a shell that
 * already ended (or a process with none: the library, the tests) gives undefined, and the holder
 * is spawned as usual.
 */
import type { ChildProcess } from 'node:child_process';

/** Where the launcher leaves it (the launcher is plain JavaScript: it cannot import this file). */
const SLOT = Symbol.for('lock-oracles.holder-shell');

export function takeHolderShell(): ChildProcess | undefined {
  const slots = globalThis as unknown as Record<symbol, ChildProcess | undefined>;
  const shell = slots[SLOT];
  slots[SLOT] = undefined;
  const requests = shell?.stdio[3] as { writable?: boolean } | null | undefined;
  if (!shell || shell.exitCode !== null || shell.signalCode !== null || !requests?.writable) return undefined;
  // The launcher let it not keep the CLI alive while unused; as a holder it does, like any other.
  shell.ref();
  for (const stream of [shell.stderr, shell.stdio[3], shell.stdio[4]]) (stream as { ref?: () => void } | null)?.ref?.();
  return shell;
}
