/**
 * Writing evidence without lying about it: each file appears at its final path complete or not
 * at all (written beside it, then renamed), and directories are made one level at a time, since
 * Node's recursive mkdir spins forever on some virtual file systems (a path under /proc).
 */
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { dirname, join, parse, relative, resolve, sep } from 'node:path';

/** Create `dir` and its missing parents; throws a message naming the path and the reason. */
export function ensureDir(dir: string): void {
  const absolute = resolve(dir);
  const { root } = parse(absolute);
  let path = root;
  for (const part of relative(root, absolute).split(sep).filter(Boolean)) {
    path = join(path, part);
    try {
      if (statSync(path).isDirectory()) continue;
      throw new Error(`${path} is not a directory`);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw reportDirError(dir, error);
    }
    try {
      mkdirSync(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw reportDirError(dir, error);
    }
  }
}

/** Write `data` to `path` atomically: a temp file beside it, flushed, then renamed into place. */
export function writeFileAtomic(path: string, data: string): void {
  const temp = join(dirname(path), `.${parse(path).base}.${process.pid}.tmp`);
  try {
    const fd = openSync(temp, 'w');
    try {
      writeSync(fd, data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/** Fail early, before a run, when evidence could not be written to `dir`. */
export function checkWritableDir(dir: string): void {
  ensureDir(dir);
  const probe = join(dir, `.lock-oracles-probe-${process.pid}`);
  try {
    writeFileAtomic(probe, 'probe\n');
  } catch (error) {
    throw reportDirError(dir, error);
  } finally {
    rmSync(probe, { force: true });
  }
}

function reportDirError(dir: string, error: unknown): Error {
  return new Error(`cannot write evidence under ${dir}: ${(error as Error).message}`);
}
