/**
 * Removes what a run left behind when it could not clean up after itself (a SIGKILLed harness):
 * temp dirs (and the shared memory segment a killed Postgres named in its data dir) and store
 * containers whose owner process (src/process/run-owner.ts) is gone. A live run's
 * leftovers are never touched, whoever started it. Store servers and holders need no reaping:
 * they die with the harness (setpriv --pdeathsig). Runs at the start of a process's first run and as
 * `lock-oracles clean`.
 *
 * Kept on purpose: the shared caches (lock-oracles-cache: the Postgres template;
 * lock-oracles-clock-offset-<uid>: the built clock library).
 */
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { dirOwner, ownerAlive } from '../process/run-owner.ts';
import { scratchRoots } from '../process/run-dir.ts';
import { dockerSocketPath, engineAnswers, engineRequest } from '../stores/engine-socket.ts';
import { OWNER_PID_LABEL, OWNER_START_LABEL, RUN_LABEL, STORE_LABEL } from '../stores/labels.ts';
import { postmasterSegment, removeSegment } from '../stores/sysv-shm.ts';

/** A leftover without an owner (made before owners were recorded) counts as dead after this long. */
const UNOWNED_AFTER_MS = 60 * 60 * 1000;
/** Run dirs are named lock-oracles-<store kind or purpose>-XXXXXX (src/process/run-dir.ts). */
export const RUN_DIR = /^lock-oracles-(redis|valkey|postgres|pgbouncer|fs|cluster|etcd|zookeeper|api|package)-/;

export interface Reaped {
  /** What was removed, one line each (e.g. "dir /tmp/lock-oracles-redis-abc123 (run 123-…, pid 123 gone)"). */
  removed: string[];
  /** What could not be removed, and why. */
  failed: string[];
}

export async function reapLeftovers(now = Date.now()): Promise<Reaped> {
  const reaped: Reaped = { removed: [], failed: [] };
  for (const root of scratchRoots()) reapDirs(root, now, reaped);
  await reapContainers(now, reaped);
  return reaped;
}

function reapDirs(root: string, now: number, reaped: Reaped): void {
  for (const name of readdirSync(root)) {
    if (!RUN_DIR.test(name)) continue;
    const dir = join(root, name);
    try {
      if (!statSync(dir).isDirectory()) continue;
      const owner = dirOwner(dir);
      const why = owner
        ? ownerAlive(owner)
          ? undefined
          : `run ${owner.runId}, pid ${owner.pid} gone`
        : unownedAge(statSync(dir).mtimeMs, now);
      if (!why) continue;
      // A SIGKILLed postmaster's System V segment outlives it: the data dir names it.
      const segment = name.startsWith('lock-oracles-postgres-') ? postmasterSegment(join(dir, 'data')) : undefined;
      if (segment?.attached) {
        // Its backends are still exiting; removing the dir now would lose the segment's name.
        reaped.failed.push(
          `dir ${dir}: its Postgres shared memory segment ${segment.id} is still attached to ${segment.attached} process(es); left for the next run`,
        );
        continue;
      }
      if (segment) {
        removeSegment(segment.id);
        reaped.removed.push(`shared memory segment ${segment.id} of ${dir}`);
      }
      rmSync(dir, { recursive: true, force: true });
      reaped.removed.push(`dir ${dir} (${why})`);
    } catch (error) {
      reaped.failed.push(`dir ${dir}: ${(error as Error).message}`);
    }
  }
}

interface ContainerSummary {
  Id: string;
  Created: number;
  Labels: Record<string, string>;
}

async function reapContainers(now: number, reaped: Reaped): Promise<void> {
  const socket = dockerSocketPath();
  if (socket === undefined || !(await engineAnswers(socket))) return;
  const filters = encodeURIComponent(JSON.stringify({ label: [STORE_LABEL] }));
  const containers = (await engineRequest(
    socket,
    'GET',
    `/containers/json?all=1&filters=${filters}`,
  )) as ContainerSummary[];
  for (const c of containers) {
    const pid = Number(c.Labels[OWNER_PID_LABEL]);
    const owner = Number.isInteger(pid) && pid > 0 ? { pid, pidStart: c.Labels[OWNER_START_LABEL] ?? '' } : undefined;
    const why = owner
      ? ownerAlive(owner)
        ? undefined
        : `run ${c.Labels[RUN_LABEL]}, pid ${pid} gone`
      : unownedAge(c.Created * 1000, now);
    if (!why) continue;
    const what = `container ${c.Id.slice(0, 12)} (${c.Labels[STORE_LABEL]}; ${why})`;
    try {
      await engineRequest(socket, 'DELETE', `/containers/${c.Id}?force=1&v=1`);
      reaped.removed.push(what);
    } catch (error) {
      // 404: another run's reaper removed it first; 409 "already in progress": it is removing it now.
      const message = (error as Error).message;
      if (!/ with 404:| with 409:.*already in progress/.test(message)) reaped.failed.push(`${what}: ${message}`);
    }
  }
}

function unownedAge(createdMs: number, now: number): string | undefined {
  const age = now - createdMs;
  return age > UNOWNED_AFTER_MS ? `no owner recorded, ${Math.round(age / 60_000)} min old` : undefined;
}
