/**
 * Which language a target is written in, and how a holder in that language starts. Chosen by the
 * target's extension (`.py`: Python; `.java`: Java; `.go`: Go; `.ts`, `.js`, `.mts`, …: Node), or forced with `--lang`
 * (LOCK_ORACLES_LANG). A Python holder is `python3 sdk/python/lock_oracles.py <target>` with the
 * interpreter from `--python` (LOCK_ORACLES_PYTHON), else an active virtualenv's, else Debian's
 * /usr/bin/python3 (where `npm run setup`'s apt packages install: python3-redis, …), else `python3`
 * on PATH. Java and Go targets are compiled first (src/build/java-holder.ts, go-holder.ts). All speak the holder protocol (docs/holder-protocol.md).
 */
import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, extname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../core/errors.ts';

export const HOLDER_LANGUAGES = ['node', 'python', 'java', 'go'] as const;
export type HolderLanguage = (typeof HOLDER_LANGUAGES)[number];

export const PYTHON_SDK = fileURLToPath(new URL('../../sdk/python/lock_oracles.py', import.meta.url));

/** The languages told by extension; any other file is Node's (.ts, .js, .mts, …). */
const BY_EXTENSION: Record<string, HolderLanguage> = { '.py': 'python', '.java': 'java', '.go': 'go' };

/** The language of `targetPath`: --lang when given, else its extension. */
export function holderLanguage(targetPath: string, forced = process.env.LOCK_ORACLES_LANG): HolderLanguage {
  if (forced !== undefined && forced !== '') {
    if (!(HOLDER_LANGUAGES as readonly string[]).includes(forced)) {
      throw new UsageError(`--lang must be one of ${HOLDER_LANGUAGES.join(', ')}, got ${JSON.stringify(forced)}`);
    }
    return forced as HolderLanguage;
  }
  return BY_EXTENSION[extname(targetPath)] ?? 'node';
}

/** The Python interpreter a holder runs with, checked to exist and be executable (exit 2 naming the fix when not). */
export function pythonInterpreter(env: NodeJS.ProcessEnv = process.env): string {
  const chosen =
    env.LOCK_ORACLES_PYTHON ||
    (env.VIRTUAL_ENV ? join(env.VIRTUAL_ENV, 'bin', 'python') : undefined) ||
    (existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3');
  const found = onPath(chosen, env.PATH ?? '');
  if (found === undefined) {
    throw new UsageError(
      `no Python interpreter at ${JSON.stringify(chosen)}: install one (sudo apt-get install python3) or name it with --python <path> (Python 3.9 or later; a venv's bin/python works)`,
    );
  }
  return found;
}

function onPath(command: string, path: string): string | undefined {
  const candidates =
    command.includes('/') || isAbsolute(command)
      ? [resolve(command)]
      : path.split(delimiter).map((dir) => join(dir, command));
  return candidates.find((file) => {
    try {
      accessSync(file, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}
