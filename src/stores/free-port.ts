import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * A TCP port on 127.0.0.1 that was free a moment ago, for a store to bind. Picked outside the
 * kernel's ephemeral range (ip_local_port_range) when there is room: a store binds its port only
 * after its own start-up (Postgres copies its data dir first), and meanwhile every outgoing
 * connection on the machine is given an ephemeral port — seen at load 30 with several test suites
 * running: "could not bind IPv4 address "127.0.0.1": Address already in use".
 *
 * A port handed out is not handed out again by this process for REUSE_AFTER_MS: between the pick
 * and the bind nothing holds it, so a second run of the same batch could be given it (a selfcheck
 * met "listen EADDRINUSE" on a cluster node's port), and a killed node restarts on its old port.
 */
export async function freePort(): Promise<number> {
  const pick = outsideEphemeral();
  for (let attempt = 0; pick && attempt < 20; attempt++) {
    const port = pick();
    if (recentlyGiven(port)) continue;
    try {
      return given(await listenOnce(port));
    } catch {
      // taken: try another
    }
  }
  return given(await listenOnce(0));
}

/** How long a port this process handed out stays its own (longer than any run's deadline). */
export const REUSE_AFTER_MS = 15 * 60_000;
const handedOut = new Map<number, number>();

function recentlyGiven(port: number): boolean {
  const at = handedOut.get(port);
  return at !== undefined && performance.now() - at < REUSE_AFTER_MS;
}

function given(port: number): number {
  handedOut.set(port, performance.now());
  if (handedOut.size > 4096) {
    for (const [old, at] of handedOut) if (performance.now() - at >= REUSE_AFTER_MS) handedOut.delete(old);
  }
  return port;
}

/** A random loopback port from 10000 up that the kernel never hands to outgoing connections (null: no range known, or no room). */
function outsideEphemeral(): (() => number) | null {
  let low: number;
  let high: number;
  try {
    [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number) as [
      number,
      number,
    ];
  } catch {
    return null;
  }
  if (!(low > 0 && high >= low)) return null;
  const below = Math.max(0, low - 10_000);
  const above = Math.max(0, 65_535 - high);
  if (below + above === 0) return null;
  return () => {
    const r = Math.floor(Math.random() * (below + above));
    return r < below ? 10_000 + r : high + 1 + (r - below);
  };
}

/** Listen on `port` (0: the kernel picks), close again, and give the port. */
function listenOnce(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      const bound = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (bound ? resolve(bound) : reject(new Error('no free loopback port'))));
    });
  });
}
