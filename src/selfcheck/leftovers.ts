/**
 * What the selfcheck's own runs left on the machine, checked after they all ended: temp dirs
 * this process owns, store containers labelled with its pid, processes it started (directly or
 * below) that still run, and System V shared memory segments they created. Processes are known
 * by sampling this process's descendants while the runs go on (a store server reparented to init
 * after its parent died is still recognised by pid and start time).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { dirOwner, processStart } from '../process/run-owner.ts';
import { RUN_DIR } from '../run/reaper.ts';
import { scratchRoots } from '../process/run-dir.ts';
import { dockerSocketPath, engineAnswers, engineRequest } from '../stores/engine-socket.ts';
import { OWNER_PID_LABEL, STORE_LABEL } from '../stores/labels.ts';
import { sharedMemorySegments } from '../stores/sysv-shm.ts';

/** Long-lived helpers of the harness process itself, not of a run: esbuild's build service. */
const HARNESS_HELPERS = new Set(['esbuild']);
const SAMPLE_EVERY_MS = 250;

interface Seen {
  pid: number;
  start: string;
  command: string;
}

export interface LeftoverWatch {
  /** Stops sampling; then `leftovers()` lists what is still there. */
  stop(): void;
  leftovers(): Promise<string[]>;
}

export function watchLeftovers(exclude: () => ReadonlySet<number>): LeftoverWatch {
  const segmentsBefore = new Set(sharedMemorySegments().map((s) => s.id));
  const seen = new Map<string, Seen>();
  const sample = () => {
    for (const p of descendants(process.pid)) if (!exclude().has(p.pid)) seen.set(`${p.pid}/${p.start}`, p);
  };
  sample();
  const timer = setInterval(sample, SAMPLE_EVERY_MS);
  timer.unref();
  return {
    stop() {
      sample();
      clearInterval(timer);
    },
    async leftovers() {
      const found: string[] = [];
      for (const p of seen.values())
        if (processStart(p.pid) === p.start && !HARNESS_HELPERS.has(p.command))
          found.push(`process ${p.pid} (${p.command}) still runs`);
      const creators = new Set([...seen.values()].map((p) => p.pid));
      for (const s of sharedMemorySegments()) {
        if (!segmentsBefore.has(s.id) && creators.has(s.creatorPid))
          found.push(
            `shared memory segment ${s.id} (${s.bytes} bytes, made by pid ${s.creatorPid}, ${s.attached} attached)`,
          );
      }
      for (const root of scratchRoots()) {
        for (const name of readdirSync(root)) {
          if (RUN_DIR.test(name) && dirOwner(join(root, name))?.pid === process.pid)
            found.push(`dir ${join(root, name)}`);
        }
      }
      found.push(...(await ownContainers()));
      return found;
    },
  };
}

/** Every process below `root`, from /proc (pid, kernel start time, command name). */
function descendants(root: number): Seen[] {
  const children = new Map<number, Seen[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const fields = stat.slice(close + 2).split(' ');
      const parent = Number(fields[1]);
      const entry = { pid: Number(name), start: fields[19] ?? '', command: stat.slice(stat.indexOf('(') + 1, close) };
      children.set(parent, [...(children.get(parent) ?? []), entry]);
    } catch {
      // gone meanwhile
    }
  }
  const found: Seen[] = [];
  const walk = (pid: number) => {
    for (const child of children.get(pid) ?? []) {
      found.push(child);
      walk(child.pid);
    }
  };
  walk(root);
  return found;
}

async function ownContainers(): Promise<string[]> {
  const socket = dockerSocketPath();
  if (socket === undefined || !(await engineAnswers(socket))) return [];
  const filters = encodeURIComponent(JSON.stringify({ label: [`${OWNER_PID_LABEL}=${process.pid}`] }));
  const containers = (await engineRequest(socket, 'GET', `/containers/json?all=1&filters=${filters}`)) as Array<{
    Id: string;
    Labels: Record<string, string>;
  }>;
  return containers.map((c) => `container ${c.Id.slice(0, 12)} (${c.Labels[STORE_LABEL] ?? 'store'})`);
}
