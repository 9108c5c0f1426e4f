/**
 * A scratch ZooKeeper server's configuration (zoo.cfg): standalone or one member of an ensemble, loopback only, no admin server,
 * and a short tick so short sessions are possible. ZooKeeper grants a session timeout no shorter than
 * its minSessionTimeout (2 × tickTime here: SESSION_FLOOR_MS) and no longer than maxSessionTimeout;
 * a client asking for less is silently given the floor, so the harness refuses a TTL under it.
 */

/** The server's tick, ms: sessions expire on tick boundaries, so a session ends up to one tick late. */
export const TICK_MS = 100;
/** The shortest session timeout the server grants (ZooKeeper's rule: 2 × tickTime). */
export const SESSION_FLOOR_MS = 2 * TICK_MS;
/** The longest session timeout the server grants. */
export const SESSION_CEILING_MS = 60_000;

/** The four-letter words the harness uses: srvr (its version and readiness), dump (live sessions, ephemeral nodes). */
export const FOUR_LETTER_WORDS = ['srvr', 'dump', 'cons', 'ruok'];

/**
 * An ensemble's members (--topology zookeeper:N): `server.<id>=127.0.0.1:<quorum port>:<election port>`
 * for each, the same lines in every member's zoo.cfg; a member's own id is in its data dir's myid.
 */
export interface EnsembleServers {
  servers: Array<{ id: number; quorumPort: number; electionPort: number }>;
}

/** Ticks a follower gets to connect and sync to a leader (initLimit), and to stay in sync (syncLimit): 5 s and 1 s. */
const INIT_LIMIT_TICKS = 50;
const SYNC_LIMIT_TICKS = 10;

/** zoo.cfg for a server on 127.0.0.1:`port` keeping its data in `dataDir`, alone or a member of `ensemble`. */
export function zooCfg(port: number, dataDir: string, ensemble?: EnsembleServers): string {
  const settings: Record<string, string | number> = {
    tickTime: TICK_MS,
    dataDir,
    clientPort: port,
    clientPortAddress: '127.0.0.1',
    minSessionTimeout: SESSION_FLOOR_MS,
    maxSessionTimeout: SESSION_CEILING_MS,
    'admin.enableServer': 'false',
    '4lw.commands.whitelist': FOUR_LETTER_WORDS.join(','),
    maxClientCnxns: 0,
    // A scratch server keeps nothing: no snapshot purging, no fsync wait on each write.
    'autopurge.purgeInterval': 0,
    forceSync: 'no',
    ...(ensemble
      ? {
          initLimit: INIT_LIMIT_TICKS,
          syncLimit: SYNC_LIMIT_TICKS,
          reconfigEnabled: 'false',
          ...Object.fromEntries(
            ensemble.servers.map((s) => [`server.${s.id}`, `127.0.0.1:${s.quorumPort}:${s.electionPort}`]),
          ),
        }
      : {}),
  };
  return Object.entries(settings)
    .map(([key, value]) => `${key}=${value}`)
    .join('\n')
    .concat('\n');
}
