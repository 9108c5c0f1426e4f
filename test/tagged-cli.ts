/**
 * The CLI as a separate process, tagged: every process a run starts (holders, store servers)
 * inherits the tag in its environment, so a test can prove nothing was left running.
 */
import { execa } from 'execa';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The launcher a user runs (`npm run oracle` is `node bin/lock-oracles.js`): the compiled CLI, no TypeScript loader. */
const LAUNCHER = fileURLToPath(new URL('../bin/lock-oracles.js', import.meta.url));

export function taggedCli(options: { timeout?: number; cwd?: string } = {}) {
  const tag = randomUUID();
  const marker = `LOCK_ORACLES_TEST_TAG=${tag}`;
  const cli = (args: string[], env: Record<string, string> = {}) =>
    execa('node', [LAUNCHER, ...args], {
      reject: false,
      env: { ...env, LOCK_ORACLES_TEST_TAG: tag },
      timeout: options.timeout ?? 90_000,
      ...(options.cwd ? { cwd: options.cwd } : {}),
    });
  /** Processes still alive that a CLI run with this tag started. */
  const leftovers = (): string[] => {
    const alive: string[] = [];
    for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
      try {
        if (readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(marker)) {
          alive.push(`${pid} ${readFileSync(`/proc/${pid}/cmdline`, 'latin1').replace(/\0/g, ' ')}`);
        }
      } catch {
        /* gone meanwhile */
      }
    }
    return alive;
  };
  return { cli, leftovers };
}
