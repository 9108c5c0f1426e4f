/**
 * The build cache of Java and Go holders: a target's classes or binary live in a directory named
 * by the hash of everything that went into them (the SDK's source, the target's, the toolchain,
 * the classpath), under the same cache root as the TypeScript build
 * (compile-module.ts). A second run with nothing changed finds the directory and compiles nothing.
 * A build writes into a fresh temporary directory renamed into place when it succeeded, so two
 * runs building at once, or a build killed half-way, never leave a half-built entry behind.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CACHE = join(tmpdir(), 'lock-oracles-cache');

export interface CachedBuild {
  /** The directory holding the build's outputs. */
  dir: string;
  /** True when it was already there (nothing was compiled). */
  cached: boolean;
}

/**
 * The cache directory for `language` and `keyParts`; when it is missing, `build(dir)` fills a
 * fresh directory first (throwing leaves nothing behind).
 */
export async function cachedHolderBuild(
  language: string,
  keyParts: string[],
  build: (dir: string) => Promise<void>,
): Promise<CachedBuild> {
  const hash = createHash('sha256');
  for (const part of keyParts) hash.update(part).update('\0');
  const root = join(CACHE, language);
  const dir = join(root, hash.digest('hex').slice(0, 24));
  if (existsSync(dir)) {
    const now = new Date();
    utimesSync(dir, now, now);
    return { dir, cached: true };
  }
  mkdirSync(root, { recursive: true });
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
