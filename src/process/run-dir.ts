/**
 * A run's own temp dir: `<scratch root>/lock-oracles-<name>-XXXXXX`, marked with its owner (so the
 * reaper can tell a dead run's leftover from a live run's dir) and removed on every exit path.
 */
import { accessSync, constants, mkdtempSync, statfsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanupDir } from './cleanup.ts';
import { claimDir } from './run-owner.ts';

const SHARED_MEMORY = '/dev/shm';
const ROOM_BYTES = 1024 ** 3;

export function makeRunDir(name: string): { dir: string; remove: () => Promise<void> } {
  const dir = mkdtempSync(join(scratchRoot(), `lock-oracles-${name}-`));
  const remove = cleanupDir(dir);
  claimDir(dir);
  return { dir, remove };
}

let root: string | undefined;
/**
 * Where run dirs are made: the temp dir when the user chose one (TMPDIR, TMP or TEMP); else
 * /dev/shm when it is a writable dir with 1 GiB free, since it is memory-backed (a Postgres run
 * copies a 39 MB data dir: 0.05 s of system time there, 0.35 s on the project machine's ext4,
 * docs/benchmarks.md); else the temp dir.
 */
export function scratchRoot(): string {
  if (root === undefined) {
    const tempDirChosen = Boolean(process.env.TMPDIR || process.env.TMP || process.env.TEMP);
    root = tempDirChosen || !roomy(SHARED_MEMORY) ? tmpdir() : SHARED_MEMORY;
  }
  return root;
}

/** Every place a run dir may be: where the reaper and the leftover checks look. */
export function scratchRoots(): string[] {
  return [...new Set([tmpdir(), scratchRoot()])];
}

function roomy(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    if (!statSync(dir).isDirectory()) return false;
    const fs = statfsSync(dir);
    return fs.bavail * fs.bsize >= ROOM_BYTES;
  } catch {
    return false;
  }
}
