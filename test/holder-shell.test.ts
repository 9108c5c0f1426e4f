/**
 * The launcher's holder shell (bin/holder-shell.js, src/holder/holder-shell.ts): a run takes it only
 * for the modules it loaded ahead. One that loaded other modules (the target changed between the
 * launcher's look into the compile cache and the run's compile) is killed, never handed a run.
 */
import { afterEach, expect, test } from 'vitest';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { ChildProcess } from 'node:child_process';
import { spawnHolderProcess } from '../src/holder/holder-command.ts';
import { takeHolderShell } from '../src/holder/holder-shell.ts';

const SHELL = fileURLToPath(new URL('../bin/holder-shell.js', import.meta.url));
const slots = globalThis as unknown as Record<symbol, unknown>;
const started: ChildProcess[] = [];

/** A real shell in the launcher's slots, said to have loaded `ahead` (it waits on fd 3 either way). */
function launcherShell(ahead: { entry: string; target: string } | undefined): ChildProcess {
  const shell = spawnHolderProcess([SHELL]);
  started.push(shell);
  slots[Symbol.for('lock-oracles.holder-shell')] = shell;
  slots[Symbol.for('lock-oracles.holder-shell-ahead')] = ahead;
  return shell;
}

afterEach(() => {
  for (const shell of started.splice(0)) shell.kill('SIGKILL');
});

test('a shell that loaded the modules the run compiled is taken, and says it loaded them ahead', () => {
  const shell = launcherShell({ entry: '/cache/entry.js', target: '/cache/target.js' });
  const taken = takeHolderShell({ entry: '/cache/entry.js', target: '/cache/target.js' });
  expect(taken?.process).toBe(shell);
  expect(taken?.loadedAhead).toBe(true);
  expect(takeHolderShell({ entry: '/cache/entry.js', target: '/cache/target.js' }), 'taken once').toBeUndefined();
});

test('a shell that loaded nothing ahead is taken for any modules', () => {
  const shell = launcherShell(undefined);
  const taken = takeHolderShell({ entry: '/cache/entry.js', target: '/cache/other.js' });
  expect(taken?.process).toBe(shell);
  expect(taken?.loadedAhead).toBe(false);
});

test('a shell that loaded another target is killed, not taken', async () => {
  const shell = launcherShell({ entry: '/cache/entry.js', target: '/cache/target-before-an-edit.js' });
  const exited = once(shell, 'exit');
  expect(takeHolderShell({ entry: '/cache/entry.js', target: '/cache/target.js' })).toBeUndefined();
  const [, signal] = await exited;
  expect(signal).toBe('SIGKILL');
});
