/**
 * How a holder process is started, in one place for both kinds of holder: the ones a run spawns
 * (holder.ts) and the one the launcher boots beside the CLI (bin/holder-shell.js), which imports
 * the built copy of this file (src/build/build-dist.ts builds it as an entry of its own, so the launcher
 * loads it without the CLI). Plain node with source maps, dying with the harness
 * (src/process/die-with-harness.ts), with the harness's environment less what only slows node's start
 * (holder-env.ts); node's IPC channel in JSON mode, which holder-entry.ts speaks.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { dieWithHarness } from '../process/die-with-harness.ts';
import { holderEnv } from './holder-env.ts';

/** Starts `node <script> <args…>` as a holder process, with `env` on top of the harness's (a node's clock library). */
export function spawnHolderProcess(scriptAndArgs: string[], env: Record<string, string> = {}): ChildProcess {
  const [command, args] = dieWithHarness(process.execPath, ['--enable-source-maps', ...scriptAndArgs]);
  return spawn(command, args, {
    // The harness's stdout carries --json: what a target prints goes to stderr, never there.
    stdio: ['ignore', 2, 'pipe', 'ipc'],
    serialization: 'json',
    env: { ...holderEnv(), ...env },
  });
}
