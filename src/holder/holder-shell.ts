/**
 * The holder shell the launcher started (bin/holder-shell.js): a node process that booted while
 * the CLI loaded, waiting to become the first holder of the first run. Where an earlier process
 * left the target compiled in the cache (src/build/compile-module.ts), the shell also loaded the
 * holder entry and the target meanwhile, as the holder would have at its start; it is still a
 * fresh process that serves one run. Taken once; a shell that already ended, one that loaded other
 * modules than the run compiled, or a process with none (the library, the tests) gives undefined,
 * and the holder is spawned as usual.
 */
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { compiledEarlier } from '../build/compile-module.ts';

/** Where the launcher leaves the shell, and what it loads ahead (the launcher is plain JavaScript: it cannot import this file). */
const SLOT = Symbol.for('lock-oracles.holder-shell');
const AHEAD_SLOT = Symbol.for('lock-oracles.holder-shell-ahead');

/** The compiled holder entry: what every Node holder process runs (compiled by compile-module.ts). */
export const HOLDER_ENTRY = fileURLToPath(new URL('./holder-entry.ts', import.meta.url));

/** The compiled modules a Node holder of `targetPath` (absolute) runs, when both are in the cache and current. */
export interface ModulesAhead {
  entry: string;
  target: string;
}

/** What the launcher's shell can load before the CLI has compiled anything: undefined unless both modules were compiled earlier. */
export function modulesAhead(targetPath: string): ModulesAhead | undefined {
  const entry = compiledEarlier(HOLDER_ENTRY);
  const target = entry === undefined ? undefined : compiledEarlier(targetPath);
  return entry !== undefined && target !== undefined ? { entry, target } : undefined;
}

export interface TakenShell {
  process: ChildProcess;
  /** It loaded the entry and the target before the run asked for it. */
  loadedAhead: boolean;
}

/** The shell, for a holder that runs `modules`; one that loaded other modules ahead is ended, not taken. */
export function takeHolderShell(modules: ModulesAhead): TakenShell | undefined {
  const slots = globalThis as unknown as Record<symbol, unknown>;
  const shell = slots[SLOT] as ChildProcess | undefined;
  const ahead = slots[AHEAD_SLOT] as ModulesAhead | undefined;
  slots[SLOT] = undefined;
  slots[AHEAD_SLOT] = undefined;
  const requests = shell?.stdio[3] as { writable?: boolean } | null | undefined;
  if (!shell || shell.exitCode !== null || shell.signalCode !== null || !requests?.writable) return undefined;
  if (ahead && (ahead.entry !== modules.entry || ahead.target !== modules.target)) {
    shell.kill('SIGKILL');
    return undefined;
  }
  // The launcher let it not keep the CLI alive while unused; as a holder it does, like any other.
  shell.ref();
  for (const stream of [shell.stderr, shell.stdio[3], shell.stdio[4]]) (stream as { ref?: () => void } | null)?.ref?.();
  return { process: shell, loadedAhead: ahead !== undefined };
}
