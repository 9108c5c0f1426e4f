/**
 * The build cache of Java and Go holders: a target's classes or binary live in a directory named
 * by the hash of everything that went into them (the SDK's source, the target's, the toolchain,
 * the content of its classpath jars and imported packages), never by where the target lies, so
 * every clone and worktree of a project on this machine shares one build. The cache is the user's
 * (`$XDG_CACHE_HOME/lock-oracles/holders`, else `~/.cache/lock-oracles/holders`; the temp dir when
 * there is no home). A second run with nothing changed finds the directory and compiles nothing;
 * a changed source or library hashes to another directory, so it is built again. A build writes
 * into a fresh temporary directory renamed into place when it succeeded, so two runs building at
 * once, or a build killed half-way, never leave a half-built entry behind. Entries no run used for
 * a week are removed when a new one is built.
 */
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

const UNUSED_FOR = 7 * 24 * 3600 * 1000;

export interface CachedBuild {
  /** The directory holding the build's outputs. */
  dir: string;
  /** True when it was already there (nothing was compiled). */
  cached: boolean;
}

/** The user's holder build cache: shared by every checkout, read when a holder starts. */
export function holderCacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  if (env.XDG_CACHE_HOME) return join(env.XDG_CACHE_HOME, 'lock-oracles', 'holders');
  const home = homedir();
  return home ? join(home, '.cache', 'lock-oracles', 'holders') : join(tmpdir(), 'lock-oracles-cache', 'holders');
}

/**
 * The cache directory for `language` and `keyParts` (contents, not paths); when it is missing,
 * `build(dir)` fills a fresh directory first (throwing leaves nothing behind).
 */
export async function cachedHolderBuild(
  language: string,
  keyParts: string[],
  build: (dir: string) => Promise<void>,
): Promise<CachedBuild> {
  const hash = createHash('sha256');
  for (const part of keyParts) hash.update(part).update('\0');
  const root = join(holderCacheRoot(), language);
  const dir = join(root, hash.digest('hex').slice(0, 24));
  if (existsSync(dir)) {
    const now = new Date();
    utimesSync(dir, now, now);
    return { dir, cached: true };
  }
  mkdirSync(root, { recursive: true });
  removeUnused(root);
  const building = mkdtempSync(join(root, '.building-'));
  try {
    await build(building);
  } catch (error) {
    rmSync(building, { recursive: true, force: true });
    throw error;
  }
  try {
    renameSync(building, dir);
  } catch (error) {
    rmSync(building, { recursive: true, force: true });
    // Another run finished the same build first: its entry is as good as ours.
    if (existsSync(dir)) return { dir, cached: true };
    throw error;
  }
  return { dir, cached: false };
}

/**
 * A key part standing for the content of `path` (a jar, a directory of classes, a library's
 * source file), wherever it lies: a directory's files, each by its name inside it.
 */
export function contentDigest(path: string): string {
  const hash = createHash('sha256');
  if (!statSync(path).isDirectory()) return hash.update(readFileSync(path)).digest('hex');
  for (const name of (readdirSync(path, { recursive: true }) as string[]).sort()) {
    const file = join(path, name);
    if (statSync(file).isFile()) hash.update(name).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

/** Removes the entries of `root` (and half-built directories) that no run used for a week. */
function removeUnused(root: string): void {
  const before = Date.now() - UNUSED_FOR;
  for (const name of readdirSync(root)) {
    const path = join(root, name);
    try {
      if (statSync(path).mtimeMs < before) rmSync(path, { recursive: true, force: true });
    } catch {
      /* another run removed it first */
    }
  }
}
