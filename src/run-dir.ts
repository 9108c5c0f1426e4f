/**
 * A run's own temp dir: `<tmpdir>/lock-oracles-<name>-XXXXXX`, marked with its owner (so the
 * reaper can tell a dead run's leftover from a live run's dir) and removed on every exit path.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanupDir } from './cleanup.ts';
import { claimDir } from './run-owner.ts';

export function makeRunDir(name: string): { dir: string; remove: () => Promise<void> } {
  const dir = mkdtempSync(join(tmpdir(), `lock-oracles-${name}-`));
  const remove = cleanupDir(dir);
  claimDir(dir);
  return { dir, remove };
}
