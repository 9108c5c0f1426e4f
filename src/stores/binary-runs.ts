/**
 * Whether a store's server binary runs on this machine (`<binary> --version` succeeds). A binary
 * found once is not asked again: not by this process (every run checks its store twice, before any
 * process starts and as the store starts), and not by the next one while the file on PATH is the
 * same (path, inode, size, mtime), remembered under the cache dir. Each spawn costs the harness
 * 30–55 ms on a first run's path (docs/benchmarks.md). A binary not found is asked again next time.
 */
import { accessSync, constants, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, isAbsolute, join } from 'node:path';
import { createHash } from 'node:crypto';

const found = new Map<string, Promise<boolean>>();
const CACHE = join(tmpdir(), 'lock-oracles-cache', 'binaries');

export function binaryRuns(binary: string): Promise<boolean> {
  let answer = found.get(binary);
  if (!answer) {
    answer = checked(binary);
    found.set(binary, answer);
    void answer.then((runs) => runs || found.delete(binary));
  }
  return answer;
}

async function checked(binary: string): Promise<boolean> {
  const stamp = fileStamp(binary);
  const record = stamp && join(CACHE, createHash('sha256').update(stamp).digest('hex').slice(0, 24));
  if (record && readStamp(record) === stamp) return true;
  const { execa } = await import('execa');
  const runs = await execa(binary, ['--version']).then(
    () => true,
    () => false,
  );
  if (runs && record) writeStamp(record, stamp);
  return runs;
}

/** The executable `binary` names (as execa would find it on PATH), as "path inode size mtime"; undefined if none. */
function fileStamp(binary: string): string | undefined {
  const candidates =
    isAbsolute(binary) || binary.includes('/')
      ? [binary]
      : (process.env.PATH ?? '')
          .split(delimiter)
          .filter(Boolean)
          .map((dir) => join(dir, binary));
  for (const path of candidates) {
    try {
      accessSync(path, constants.X_OK);
      const stat = statSync(path);
      if (stat.isFile()) return `${path} ${stat.ino} ${stat.size} ${stat.mtimeMs}`;
    } catch {
      /* not here */
    }
  }
  return undefined;
}

function readStamp(record: string): string | undefined {
  try {
    return readFileSync(record, 'utf8');
  } catch {
    return undefined;
  }
}

function writeStamp(record: string, stamp: string): void {
  try {
    mkdirSync(CACHE, { recursive: true });
    const staging = `${record}.${process.pid}`;
    writeFileSync(staging, stamp);
    renameSync(staging, record);
  } catch {
    /* a cache that cannot be written only costs the next process one spawn */
  }
}
