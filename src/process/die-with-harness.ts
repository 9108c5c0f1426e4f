/**
 * Processes the harness starts (store servers, holders) must not outlive it, even when it is
 * killed outright (SIGKILL) and none of its cleanup hooks can run. util-linux's `setpriv` (on
 * every Debian) asks the kernel to SIGKILL the child when the harness dies, then execs the real
 * command in place, so the pid is the command's own. A SIGKILL reaches even a stopped holder.
 */
import { existsSync } from 'node:fs';

const SETPRIV = '/usr/bin/setpriv';
const available = existsSync(SETPRIV);

/** The command line that runs `command args` and dies with the harness (where setpriv exists). */
export function dieWithHarness(command: string, args: string[]): [string, string[]] {
  return available ? [SETPRIV, ['--pdeathsig', 'KILL', '--', command, ...args]] : [command, args];
}
