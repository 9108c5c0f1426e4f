/**
 * How a holder process is started, in one place for both kinds of holder: the ones a run spawns
 * (holder.ts) and the one the launcher boots beside the CLI (bin/holder-shell.js), which imports
 * the built copy of this file (src/build/build-dist.ts builds it as an entry of its own, so the launcher
 * loads it without the CLI). Plain node with source maps, dying with the harness
 * (src/process/die-with-harness.ts), with the harness's environment less what only slows node's start
 * (holder-env.ts); the holder protocol's pipes on fds 3 and 4 (holder-pipes.ts, docs/holder-protocol.md).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { dieWithHarness } from '../process/die-with-harness.ts';
import { holderEnv } from './holder-env.ts';
import { HOLDER_STDIO } from './holder-pipes.ts';

/** For the launcher, which imports only this file's build: what its shell can load before the CLI compiled anything. */
export { modulesAhead } from './holder-shell.ts';

/** Starts `node <script> <args…>` as a holder process, with `env` on top of the harness's (a node's clock library). */
export function spawnHolderProcess(scriptAndArgs: string[], env: Record<string, string> = {}): ChildProcess {
  const [command, args] = dieWithHarness(process.execPath, ['--enable-source-maps', ...scriptAndArgs]);
  return spawn(command, args, { stdio: HOLDER_STDIO, env: { ...holderEnv(), LOCK_ORACLES_PROTOCOL: '1', ...env } });
}

/**
 * Starts a holder in another language: `command args…` (e.g. python3 sdk/python/lock_oracles.py
 * target.py), dying with the harness, told its id and target in its environment (docs/holder-protocol.md,
 * "Transport"); its stdout and stderr are its log.
 */
export function spawnShimHolder(
  command: string,
  args: string[],
  holder: { id: string; targetPath: string },
  env: Record<string, string> = {},
): ChildProcess {
  const [wrapped, wrappedArgs] = dieWithHarness(command, args);
  return spawn(wrapped, wrappedArgs, {
    stdio: HOLDER_STDIO,
    env: {
      ...holderEnv(),
      LOCK_ORACLES_PROTOCOL: '1',
      LOCK_ORACLES_HOLDER: holder.id,
      LOCK_ORACLES_TARGET: holder.targetPath,
      PYTHONUNBUFFERED: '1',
      // A holder writes no bytecode cache next to the user's target (or into the shipped sdk/).
      PYTHONDONTWRITEBYTECODE: '1',
      ...env,
    },
  });
}
