/**
 * Redis and Valkey: a scratch server with no persistence on a loopback port.
 * Local process: Debian's `redis-server` (or `valkey-server`, from bookworm-backports). Container:
 * its image (docker/images.json), run on the host network with the same arguments
 * (src/stores/container-runtime.ts).
 */
import { ioredis } from './ioredis.ts';
import { binaryRuns } from '../../stores/binary-runs.ts';
import { spawnServer, waitUntilReady } from '../../stores/server-process.ts';
import { type StoreKind, type StoreRecipe } from '../../stores/types.ts';
import { StoreUnavailableError } from '../../core/errors.ts';
import { serverClockFor } from '../../stores/clock-offset/server-clock.ts';

/** Ask a server on 127.0.0.1:`port` its version (INFO server); throws until it answers. */
export async function serverVersion(port: number): Promise<string> {
  const probe = new (ioredis().Redis)({
    host: '127.0.0.1',
    port,
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  probe.on('error', () => {});
  try {
    await probe.connect();
    const info = await probe.info('server');
    // Valkey reports redis_version 7.2.4 (the Redis release it is compatible with) and its own valkey_version.
    return (/valkey_version:(\S+)/.exec(info) ?? /redis_version:(\S+)/.exec(info))?.[1] ?? 'unknown';
  } finally {
    probe.disconnect();
  }
}

/** What redis-server and valkey-server print as they start ("Redis version=7.0.15, bits=64, …"), and once they listen. */
const STARTED_LOG = /(?:Redis|Valkey) version=([^,\s]+)/;
const READY_LOG = /Ready to accept connections/;
/** How long a start waits for those lines before probing with a client instead (they come ~1 ms after the exec). */
const READY_LOG_WITHIN_MS = 2000;

/** A scratch server: loopback only, no persistence, logs on stdout. */
export function serverArgs(port: number): string[] {
  return [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    '--daemonize',
    'no',
    '--protected-mode',
    'yes',
    '--logfile',
    '',
  ];
}

/** The server binary of a kind: LOCK_ORACLES_REDIS_SERVER / LOCK_ORACLES_VALKEY_SERVER point at another build. */
export function serverBinary(kind: StoreKind): string {
  return process.env[`LOCK_ORACLES_${kind.toUpperCase()}_SERVER`] || `${kind}-server`;
}

function redisLike(kind: StoreKind, defaultBinary: string, installHint: string): StoreRecipe {
  const binary = serverBinary(kind);
  return {
    kind,
    container: {
      // The server binary's name on the image's PATH (the official images and scripts/container-engine.sh's local ones).
      command: (port) => [defaultBinary, ...serverArgs(port)],
      readyLog: READY_LOG,
      url: (port) => `redis://127.0.0.1:${port}`,
      version: serverVersion,
    },
    async missing() {
      return (await binaryRuns(binary))
        ? null
        : new StoreUnavailableError(`${binary} is not installed on this machine.`, installHint);
    },
    async startLocal({ port, dir, request }) {
      const clock = await serverClockFor(request, dir);
      const server = spawnServer({
        label: `${binary} :${port}`,
        command: binary,
        args: [...serverArgs(port), '--dir', dir],
        env: clock?.env ?? {},
      });
      // Ready when it says so, with its version: no client connects until the run's own.
      // A build that says neither in time (another LOCK_ORACLES_REDIS_SERVER) is probed instead.
      const [said, ready] = await Promise.all([
        server.printed(STARTED_LOG, READY_LOG_WITHIN_MS),
        server.printed(READY_LOG, READY_LOG_WITHIN_MS),
      ]);
      const version = said && ready ? said[1]! : await waitUntilReady(server, () => serverVersion(port));
      return {
        kind,
        url: `redis://127.0.0.1:${port}`,
        host: '127.0.0.1',
        port,
        version,
        capabilities: {
          pause: server.pause,
          resume: server.resume,
          kill: server.kill,
          ...(clock ? { clock: clock.control } : {}),
        },
        // Nothing to keep (no RDB, no AOF), and a SIGTERM waits for redis's next serverCron tick
        // (up to 100 ms at the default hz 10; 22–116 ms measured): killed at once instead.
        stop: () => server.stop(0),
      };
    },
  };
}

export const redisRecipe = redisLike(
  'redis',
  'redis-server',
  'npm run setup   (runs: apt-get install -y redis-server)',
);
export const valkeyRecipe = redisLike(
  'valkey',
  'valkey-server',
  "npm run setup   (adds Debian 12's bookworm-backports suite if missing, then: apt-get install -y valkey-server)",
);
