/**
 * A server that is a tree of processes (Postgres: a postmaster plus one backend per connection):
 * pausing or killing only the parent would leave every open session running, so store faults
 * signal the whole tree. Linux only (reads /proc), like the rest of the local-process runtime.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** The pids of every live descendant of `root` (children first found, then theirs). */
export function descendants(root: number): number[] {
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
