/**
 * Who owns what a run leaves on the machine: this harness process, named by its pid and the
 * kernel's start time for that pid (so a pid reused by another process after a crash does not
 * count as the owner still running). Temp dirs carry it in an owner file and containers in
 * labels; src/run/reaper.ts removes what belongs to an owner that is gone.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface RunOwner {
  /** Unique per harness process: `<pid>-<random>`. */
  runId: string;
  pid: number;
  /** /proc/<pid>/stat field 22 (clock ticks after boot); "" where /proc is not there. */
  pidStart: string;
}

/** The owner file in every temp dir a run creates. */
export const OWNER_FILE = '.lock-oracles-owner';

/** The kernel's start time of `pid`, or undefined when no such process runs. */
export function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 2 (comm) is in parentheses and may hold spaces: count from the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

let self: RunOwner | undefined;

/** This harness process. */
export function runOwner(): RunOwner {
  self ??= {
    runId: `${process.pid}-${randomBytes(4).toString('hex')}`,
    pid: process.pid,
    pidStart: processStart(process.pid) ?? '',
  };
  return self;
}

/** True while the owning process still runs (same pid, same start time). */
export function ownerAlive(owner: Pick<RunOwner, 'pid' | 'pidStart'>): boolean {
  if (owner.pid === process.pid) return true;
  const start = processStart(owner.pid);
  if (start !== undefined) return owner.pidStart === '' || start === owner.pidStart;
  try {
    process.kill(owner.pid, 0); // no /proc: fall back to "a process with this pid exists"
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Mark a temp dir as this run's. */
export function claimDir(dir: string): void {
  writeFileSync(join(dir, OWNER_FILE), `${JSON.stringify(runOwner())}\n`);
}

/** The owner recorded in a dir, or undefined when it has none (or an unreadable one). */
export function dirOwner(dir: string): RunOwner | undefined {
  try {
    const owner = JSON.parse(readFileSync(join(dir, OWNER_FILE), 'utf8')) as RunOwner;
    return Number.isInteger(owner.pid) ? owner : undefined;
  } catch {
    return undefined;
  }
}
