/**
 * A server that is a tree of processes (Postgres: a postmaster plus one backend per connection):
 * pausing or killing only the parent would leave every open session running, so store faults
 * signal the whole tree. Linux only (reads /proc), like the rest of the local-process runtime.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** The pids of every live descendant of `root` (children first found, then theirs). */
function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const ppid = parentOf(Number(entry));
    if (ppid === undefined) continue;
    const list = children.get(ppid) ?? [];
    list.push(Number(entry));
    children.set(ppid, list);
  }
  const found: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const next = children.get(queue.shift() as number) ?? [];
    found.push(...next);
    queue.push(...next);
  }
  return found;
}

/** Send `signal` to `root` and every descendant; processes that already exited are skipped. */
export function signalTree(root: number, signal: NodeJS.Signals): void {
  for (const pid of [root, ...descendants(root)]) {
    try {
      process.kill(pid, signal);
    } catch {
      /* exited between the listing and the signal */
    }
  }
}

function parentOf(pid: number): number | undefined {
  try {
    // /proc/PID/stat: "pid (comm) state ppid ..."; comm may contain spaces and parentheses.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[1]);
  } catch {
    return undefined;
  }
}

/** SIGSTOP `root` and its whole tree, and resolve once every one of them is really stopped. */
export async function stopTree(root: number): Promise<void> {
  const pids = [root, ...descendants(root)];
  signalTree(root, 'SIGSTOP');
  await waitUntilStopped(pids);
}

/**
 * Resolve once every pid in `pids` is stopped (state T or t in /proc) or gone, so a caller that
 * paused a process knows the stop really landed before it goes on. Throws after `timeoutMs`.
 */
export async function waitUntilStopped(pids: number[], timeoutMs = 2000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const running = pids.filter((pid) => {
      const state = stateOf(pid);
      return state !== undefined && state !== 'T' && state !== 't' && state !== 'Z' && state !== 'X';
    });
    if (running.length === 0) return;
    if (performance.now() > deadline) {
      throw new Error(`SIGSTOP did not land within ${timeoutMs} ms on pid(s) ${running.join(', ')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

/** A process's state letter from /proc/PID/stat (R, S, D, T, t, Z, ...), undefined once gone. */
function stateOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
  } catch {
    return undefined;
  }
}
