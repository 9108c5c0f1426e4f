/**
 * The order the reference matrix is played in: longest first (longest-processing-time
 * scheduling), so that with --jobs J the last runs to finish are short ones and the batch ends
 * with every job busy, not with one long run alone (in oracle order, V319's simulated days came
 * last). How long an entry takes is what it took last time on this machine (kept in the shared
 * cache dir); an entry never timed yet is estimated by its run deadline, which grows with the
 * oracle's waits (V319: a minute per simulated day), and goes before every timed one.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultDeadlineMs, resolveParams } from '../core/params.ts';
import type { MatrixEntry } from './reference-matrix.ts';
import { writeFileAtomic } from '../report/safe-write.ts';

const WALLS_FILE = join(tmpdir(), 'lock-oracles-cache', 'reference-walls.json');

const keyOf = (entry: MatrixEntry) => `${entry.oracle.id} ${entry.name}`;

/** Each entry's wall (ms) from earlier runs on this machine. */
export function knownWalls(file = WALLS_FILE): Map<string, number> {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    return new Map(
      Object.entries(parsed).filter((kv): kv is [string, number] => typeof kv[1] === 'number' && kv[1] >= 0),
    );
  } catch {
    return new Map();
  }
}

/** Remember how long these entries took (merged into what earlier runs left). */
export function rememberWalls(timed: ReadonlyArray<{ entry: MatrixEntry; wallMs: number }>, file = WALLS_FILE): void {
  const walls = knownWalls(file);
  for (const { entry, wallMs } of timed) walls.set(keyOf(entry), Math.round(wallMs));
  try {
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileAtomic(
      file,
      `${JSON.stringify(Object.fromEntries([...walls].sort(([a], [b]) => a.localeCompare(b))), null, 1)}\n`,
    );
  } catch {
    // Only an ordering hint: a read-only or full tmp dir costs the next batch its order, nothing else.
  }
}

/** The entries' indices, longest expected first (untimed entries first, by their deadline). */
export function longestFirst(entries: readonly MatrixEntry[], walls: ReadonlyMap<string, number>): number[] {
  const expected = entries.map((entry) => {
    const wall = walls.get(keyOf(entry));
    if (wall !== undefined) return { timed: true, ms: wall };
    const params = resolveParams(entry.oracle.params, entry.reference.params ?? {});
    return { timed: false, ms: entry.oracle.deadlineMs?.(params) ?? defaultDeadlineMs(entry.oracle.params, params) };
  });
  return entries
    .map((_, index) => index)
    .sort(
      (a, b) => Number(expected[a]!.timed) - Number(expected[b]!.timed) || expected[b]!.ms - expected[a]!.ms || a - b,
    );
}
