/**
 * PgBouncer: a scratch pooler on its own loopback port in front of its own scratch Postgres,
 * in `transaction` pool mode (the hazardous one, the default) or `session` mode.
 * Local process: Debian's `pgbouncer`, run as the `postgres` user when the harness is root.
 * Container: its image (docker/images.json), with the same configuration, in front of a Postgres
 * container.
 *
 * Authentication is `trust` (the user must still be listed in the auth file), for the same reason
 * as the Postgres behind it: a scratch server on loopback holding nothing. The pool allows 4 server
 * connections per database/user, enough for two holders each pinning one in a transaction plus a
 * probe; `server_round_robin` stays off, so an idle server connection is reused most-recent-first,
 * as in production defaults.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { binaryRuns } from '../../stores/binary-runs.ts';
import { spawnServer, waitUntilReady } from '../../stores/server-process.ts';
import { type StartedStore, type StoreRecipe, type StoreRequest } from '../../stores/types.ts';
import { StoreUnavailableError } from '../../core/errors.ts';
import { pgShow } from './pg-show.ts';
import { giveTo, runAs, serverUser, serverUserMissing } from '../../stores/server-user.ts';

const BINARY = '/usr/sbin/pgbouncer';

/** How a request's pooler settings read in the evidence: "pool_mode=session, server_reset_query=''". */
function settingsOf(request: StoreRequest): string {
  const reset = request.serverResetQuery;
  return `pool_mode=${request.poolMode ?? 'transaction'}${reset === undefined ? '' : `, server_reset_query='${reset}'`}`;
}

/** The configuration of a scratch PgBouncer on 127.0.0.1:`port` in front of a Postgres on `backendPort`. */
function pgbouncerConfig(port: number, backendPort: number, request: StoreRequest, authFile: string): string {
  const reset = request.serverResetQuery;
  return [
    '[databases]',
    `* = host=127.0.0.1 port=${backendPort}`,
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${port}`,
    'unix_socket_dir =',
    'auth_type = trust',
    `auth_file = ${authFile}`,
    'admin_users = postgres',
    `pool_mode = ${request.poolMode ?? 'transaction'}`,
    ...(reset === undefined ? [] : [`server_reset_query = ${reset}`]),
    'default_pool_size = 4',
    'max_client_conn = 100',
    'ignore_startup_parameters = extra_float_digits',
    '',
  ].join('\n');
}

const AUTH_FILE = '"postgres" ""\n';
const CONTAINER_CONFIG = '/tmp/pgbouncer.ini';
const CONTAINER_AUTH_FILE = '/tmp/userlist.txt';

export const pgbouncerRecipe: StoreRecipe = {
  kind: 'pgbouncer',
  container: {
    backend: (request) => ({
      kind: 'postgres',
      ...(request.clockOffsetMs !== undefined ? { clockOffsetMs: request.clockOffsetMs } : {}),
    }),
    files: (port, { request, backend }) => [
      { path: CONTAINER_AUTH_FILE, content: AUTH_FILE },
      {
        path: CONTAINER_CONFIG,
        content: pgbouncerConfig(port, backend!.port, request, CONTAINER_AUTH_FILE),
      },
    ],
    command: () => ['pgbouncer', CONTAINER_CONFIG],
    readyLog: /process up/,
    url: (port) => `postgres://postgres@127.0.0.1:${port}/postgres`,
    version: async (port, { request }) => `${await showVersion(port)} (${settingsOf(request)})`,
  },
  async missing() {
    if (!(await binaryRuns(BINARY))) {
      return new StoreUnavailableError(
        `${BINARY} is not installed on this machine.`,
        'npm run setup   (runs: apt-get install -y pgbouncer)',
      );
    }
    return serverUserMissing();
  },
  async startLocal({ port, dir, request, startStore }) {
    const user = serverUser();
    const backend = await startStore({
      kind: 'postgres',
      ...(request.clockOffsetMs !== undefined ? { clockOffsetMs: request.clockOffsetMs } : {}),
    });
    try {
      giveTo(user, dir);
      const config = join(dir, 'pgbouncer.ini');
      const authFile = join(dir, 'userlist.txt');
      writeFileSync(authFile, AUTH_FILE);
      writeFileSync(config, pgbouncerConfig(port, backend.port, request, authFile));
      const server = spawnServer({
        label: `pgbouncer :${port} (${settingsOf(request)})`,
        command: BINARY,
        args: [config],
        ...runAs(user),
        cwd: dir,
      });
      const version = await waitUntilReady(server, () => showVersion(port));
      const started: Omit<StartedStore, 'runtime' | 'startMs'> = {
        kind: 'pgbouncer',
        url: `postgres://postgres@127.0.0.1:${port}/postgres`,
        host: '127.0.0.1',
        port,
        version: `${version} (${settingsOf(request)})`,
        backend,
        capabilities: {
          pause: server.pause,
          resume: server.resume,
          kill: server.kill,
          ...(backend.capabilities.clock ? { clock: backend.capabilities.clock } : {}),
        },
        stop: async () => {
          await server.stop();
          await backend.stop();
        },
      };
      return started;
    } catch (error) {
      await backend.stop();
      throw error;
    }
  },
};

/** PgBouncer's own version, from its admin console. */
async function showVersion(port: number): Promise<string> {
  return (
    (await pgShow({ host: '127.0.0.1', port, user: 'postgres', database: 'pgbouncer' }, 'SHOW VERSION', 'version')) ??
    'PgBouncer (version unknown)'
  );
}
