/**
 * System V shared memory, as Postgres uses it: a postmaster keeps one small segment and names it
 * on line 7 of its postmaster.pid ("<key> <id>"). An exiting postmaster removes it; a SIGKILLed
 * one leaves it behind until someone runs `ipcrm -m <id>`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Segment {
  id: number;
  bytes: number;
  creatorPid: number;
  /** Processes attached now (0: nobody uses it). */
  attached: number;
}

/** Every segment on this machine (/proc/sysvipc/shm); none where it cannot be read. */
export function sharedMemorySegments(): Segment[] {
  let text: string;
  try {
    text = readFileSync('/proc/sysvipc/shm', 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((f) => f.length >= 7 && /^\d+$/.test(f[1]!))
    .map((f) => ({ id: Number(f[1]), bytes: Number(f[3]), creatorPid: Number(f[4]), attached: Number(f[6]) }));
}

/** The segment a Postgres data dir's postmaster.pid names, when it still exists. */
export function postmasterSegment(dataDir: string): Segment | undefined {
  const pidFile = join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return undefined;
  const id = readFileSync(pidFile, 'utf8').split('\n')[6]?.trim().split(/\s+/)[1];
  return id && /^\d+$/.test(id) ? sharedMemorySegments().find((s) => s.id === Number(id)) : undefined;
}

/** `ipcrm -m <id>`: throws when it could not be removed (e.g. someone removed it first). */
export function removeSegment(id: number): void {
  execFileSync('ipcrm', ['-m', String(id)], { stdio: 'ignore' });
}
