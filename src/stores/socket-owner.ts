/**
 * Which local process owns one end of a loopback TCP connection, read from the kernel's tables
 * (/proc/net/tcp and tcp6: a socket's addresses and inode; /proc/<pid>/fd: the sockets a process
 * holds). A peer relay (./peer-relays.ts) asks it who dialed: etcd members reach a peer at the one
 * URL every member is given (its member id hashes its peer URLs), so the dialer is told by its
 * socket, not by the address it dialed. Linux only, like the rest of the local runtime.
 */
import { readFile, readdir, readlink } from 'node:fs/promises';

/** The inode of the socket whose local port is `localPort` and whose remote port is `remotePort`, or undefined. */
async function socketInode(localPort: number, remotePort: number): Promise<string | undefined> {
  const hex = (port: number) => port.toString(16).toUpperCase().padStart(4, '0');
  const local = `:${hex(localPort)}`;
  const remote = `:${hex(remotePort)}`;
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const text = await readFile(table, 'utf8').catch(() => '');
    for (const line of text.split('\n').slice(1)) {
      // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode …
      const fields = line.trim().split(/\s+/);
      if (fields.length > 9 && fields[1]!.endsWith(local) && fields[2]!.endsWith(remote)) return fields[9];
    }
  }
  return undefined;
}

/** Whether process `pid` holds the socket `inode` (false when it is gone or unreadable). */
async function holds(pid: number, inode: string): Promise<boolean> {
  const dir = `/proc/${pid}/fd`;
  const fds = await readdir(dir).catch(() => [] as string[]);
  const target = `socket:[${inode}]`;
  const links = await Promise.all(fds.map((fd) => readlink(`${dir}/${fd}`).catch(() => '')));
  return links.includes(target);
}

/**
 * The name (of `processes`, name by pid) of the process that dialed a connection from
 * 127.0.0.1:`dialerPort` to the port `dialedPort`, or undefined when none of them holds it (it
 * closed meanwhile, or another process dialed).
 */
export async function dialerOf(
  dialerPort: number,
  dialedPort: number,
  processes: ReadonlyMap<number, string>,
): Promise<string | undefined> {
  const inode = await socketInode(dialerPort, dialedPort);
  if (inode === undefined || inode === '0') return undefined;
  for (const [pid, name] of processes) if (await holds(pid, inode)) return name;
  return undefined;
}
