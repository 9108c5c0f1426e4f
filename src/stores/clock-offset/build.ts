/**
 * Builds clock-offset.so from clock-offset.c on demand, into a cache dir, and rebuilds it when the
 * source changes (the file name carries the source's hash). The cache lives under the system temp
 * dir rather than in the checkout, because servers that run as another user (Postgres as
 * `postgres`) must be able to load it, and a checkout under /root is not readable to them.
 */
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { StoreUnavailableError } from '../../core/errors.ts';

const SOURCE = fileURLToPath(new URL('../../../docker/clock-offset/clock-offset.c', import.meta.url));

/** The cache dir: ours, and writable by no one else (a planted .so would run inside every server). */
function cacheDir(): string {
  const dir = join(tmpdir(), `lock-oracles-clock-offset-${process.getuid?.() ?? 'user'}`);
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  const stat = lstatSync(dir);
  if (!stat.isDirectory() || stat.uid !== process.getuid?.() || (stat.mode & 0o022) !== 0) {
    throw new Error(
      `${dir} is not a directory owned by this user and closed to others' writes; refusing to load a library from it. Remove it and run again.`,
    );
  }
  chmodSync(dir, 0o755);
  return dir;
}

let building: Promise<string> | undefined;

/**
 * The path of a built clock-offset.so for the current source; builds it when missing. Concurrent
 * runs in one process share one build; other processes build under their own temporary name and
 * rename it into place, so a half-written library is never loaded.
 */
export function clockOffsetLibrary(): Promise<string> {
  building ??= build().finally(() => (building = undefined));
  return building;
}

async function build(): Promise<string> {
  const source = readFileSync(SOURCE);
  const hash = createHash('sha256').update(source).digest('hex').slice(0, 16);
  const dir = cacheDir();
  const library = join(dir, `clock-offset-${hash}.so`);
  if (existsSync(library)) return library;
  const { execa } = await import('execa');
  const partial = `${library}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await execa('gcc', ['-shared', '-fPIC', '-O2', '-Wall', '-Wextra', '-Werror', '-o', partial, SOURCE, '-ldl']);
  } catch (error) {
    rmSync(partial, { force: true });
    const detail = (error as { stderr?: string }).stderr || (error as Error).message;
    throw new StoreUnavailableError(
      `could not build the clock-offset library (store clock skew needs it):\n${detail}`,
      'npm run setup   (runs: apt-get install -y gcc libc6-dev)',
    );
  }
  chmodSync(partial, 0o755);
  renameSync(partial, library);
  return library;
}
