/**
 * PostgreSQL: a scratch cluster on a loopback port, copied from a per-machine template data dir
 * (src/families/postgres/postgres-template.ts) into the run's temp dir and started with durability off.
 * Local process: Debian's server binaries, run as the `postgres` user when the harness is root.
 * Container: its image (docker/images.json): the same server with the same settings, its data dir
 * baked into the locally built image (the official image initialises it on first start).
 *
 * Authentication is `trust`: the cluster holds no data, lives for one run, listens only on
 * 127.0.0.1 and on a socket inside the run's own dir, and a target then connects with a plain
 * postgres://postgres@127.0.0.1:PORT/postgres. A password would protect nothing here.
 */
import { join } from 'node:path';
import { signalTree, stopTree } from '../../process/process-tree.ts';
import { postmasterSegment, removeSegment } from '../../stores/sysv-shm.ts';
import { spawnServer, waitUntilReady, type ServerProcess } from '../../stores/server-process.ts';
import { type StartedStore, type StoreRecipe, type StoreRequest } from '../../stores/types.ts';
import { StoreUnavailableError } from '../../core/errors.ts';
import { serverClockFor } from '../../stores/clock-offset/server-clock.ts';
import { findPostgresBinaries, type PostgresBinaries } from './postgres-binaries.ts';
import { copyTemplate, ensureTemplate } from './postgres-template.ts';
import { pgShow } from './pg-show.ts';
import { giveTo, runAs, serverUser, serverUserMissing, type ServerUser } from '../../stores/server-user.ts';

const INSTALL = 'npm run setup   (runs: apt-get install -y postgresql)';

export interface PostgresServerOptions {
  bin: PostgresBinaries;
  user: ServerUser | undefined;
  /** An initialised data dir owned by `user`. */
  dataDir: string;
  /** The run's dir: holds the Unix socket; given to `user`. */
  runDir: string;
  port: number;
  request: StoreRequest;
}

/** Start a postmaster on an initialised data dir and wait for its first answer. */
export async function startPostgresServer(
  options: PostgresServerOptions,
): Promise<Omit<StartedStore, 'runtime' | 'startMs'>> {
  const { bin, user, dataDir, runDir, port, request } = options;
  giveTo(user, runDir);
  const clock = await serverClockFor(request, runDir);
  const server = spawnServer({
    label: `postgres :${port}`,
    command: bin.postgres,
    args: ['-D', dataDir, ...scratchSettings(port, runDir)],
    env: clock?.env ?? {},
    ...runAs(user),
    cwd: runDir,
  });
  const url = postgresUrl(port);
  const serverVersion = await waitUntilReady(server, () => showServerVersion(url));
  return {
    kind: 'postgres',
    url,
    host: '127.0.0.1',
    port,
    version: `PostgreSQL ${serverVersion}`,
    capabilities: {
      pause: () => stopTree(server.pid),
      resume: async () => signalTree(server.pid, 'SIGCONT'),
      kill: async () => {
        signalTree(server.pid, 'SIGKILL');
        await server.exited;
      },
      ...(clock ? { clock: clock.control } : {}),
    },
    stop: () => stopPostgres(server, dataDir),
  };
}

/** A scratch server's settings: loopback only, durability off (the cluster lives for one run). */
function scratchSettings(port: number, socketDir: string): string[] {
  const settings = {
    listen_addresses: '127.0.0.1',
    port: String(port),
    unix_socket_directories: socketDir,
    fsync: 'off',
    synchronous_commit: 'off',
    full_page_writes: 'off',
    // Dynamic shared memory as files in the data dir (pg_dynshmem/), removed with it: the default
    // (posix) leaves a /dev/shm/PostgreSQL.* file behind whenever a postmaster is SIGKILLed.
    dynamic_shared_memory_type: 'mmap',
  };
  return Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]);
}

const postgresUrl = (port: number) => `postgres://postgres@127.0.0.1:${port}/postgres`;

export const postgresRecipe: StoreRecipe = {
  kind: 'postgres',
  container: {
    // `postgres` on the image's PATH, data dir from PGDATA; no Unix socket (nothing inside uses it).
    command: (port) => ['postgres', ...scratchSettings(port, '')],
    // The official image's entry point initialises its data dir only with an auth method named.
    env: { POSTGRES_HOST_AUTH_METHOD: 'trust' },
    readyLog: /database system is ready to accept connections/,
    url: postgresUrl,
    version: async (port) => `PostgreSQL ${await showServerVersion(postgresUrl(port))}`,
  },
  async missing() {
    if (!findPostgresBinaries()) {
      return new StoreUnavailableError(
        "Debian's PostgreSQL server is not installed here (no /usr/lib/postgresql/<major>/bin/postgres).",
        INSTALL,
      );
    }
    return serverUserMissing();
  },
  async startLocal({ port, dir, request }) {
    const bin = findPostgresBinaries();
    if (!bin) throw new StoreUnavailableError('PostgreSQL server binaries not found.', INSTALL);
    const user = serverUser();
    const dataDir = join(dir, 'data');
    await copyTemplate(await ensureTemplate(bin, user), dataDir);
    return startPostgresServer({ bin, user, dataDir, runDir: dir, port, request });
  },
};

async function showServerVersion(url: string): Promise<string> {
  return (await pgShow({ connectionString: url }, 'SHOW server_version', 'server_version')) ?? 'unknown';
}

/**
 * Immediate shutdown (SIGQUIT): the data dir is thrown away, so there is nothing to checkpoint.
 * Every process of the tree is continued first, in case a pause fault left them stopped.
 */
async function stopPostgres(server: ServerProcess, dataDir: string): Promise<void> {
  signalTree(server.pid, 'SIGCONT');
  signalTree(server.pid, 'SIGQUIT');
  await server.stop();
  // A postmaster that was SIGKILLed leaves its System V shared memory segment behind.
  const segment = postmasterSegment(dataDir);
  try {
    if (segment) removeSegment(segment.id);
  } catch {
    // already removed (by the postmaster itself or a reaper)
  }
}
