/**
 * `--topology zookeeper:N`: a ZooKeeper ensemble of N scratch servers on this machine, m1…mN (myid
 * 1…N), each its own JVM (`QuorumPeerMain`, Debian's 3.8 jar, the lean JVM options of recipe.ts)
 * as a local process or in its own container (src/stores/member-launch.ts), client, quorum and
 * election port on loopback, zoo.cfg and data dir inside the run dir or the container (removed
 * with it; the JVMs die with the harness). Local members' zoo.cfg names their own ports and, for the
 * others, relays the harness holds in front of theirs (src/stores/peer-relays.ts: a member cut off
 * from the others by member-partitioned; a server's election hello names its relay:
 * election-hello.ts). The store's URL is m1's; a holder's env.urls carries
 * every member's. Which member leads is each member's own `srvr` Mode; a leader change is the
 * leader SIGKILLed (ZooKeeper has no command that hands leadership over), the others electing one.
 */
import { LocalMembers, type LocalMember } from '../../stores/local-members.ts';
import { launchMembers } from '../../stores/member-launch.ts';
import { PeerRelays } from '../../stores/peer-relays.ts';
import { awaitLeader, type LeaderChange } from '../../stores/topology-members.ts';
import type { MembersStartContext, StartedStore } from '../../stores/types.ts';
import { serverMode, serverVersion } from './four-letter.ts';
import { CONTAINER_CLASSPATH, javaBinary, jvmOptions, zookeeperJar } from './jvm.ts';
import { helloThroughRelays } from './election-hello.ts';
import { zooCfg, type EnsembleServers } from './zk-config.ts';

/** Three JVMs starting side by side on a loaded machine, then an election: allow a minute. */
const START_WAIT_MS = 60_000;

export async function startZkEnsemble(
  { port, freePort, launch, peersThroughRelays }: MembersStartContext,
  size: number,
): Promise<Omit<StartedStore, 'runtime' | 'startMs'>> {
  // Local members' peer links pass through relays (a member can be cut off); containers' do not.
  const relays = peersThroughRelays ? new PeerRelays(`zookeeper:${size} peer relays`) : undefined;
  const ensemble: EnsembleServers & { clientPorts: number[] } = { servers: [], clientPorts: [] };
  const relayed: EnsembleServers = { servers: [] };
  // A hello's announced election port (the member's own) is rewritten to its relay's, filled in as the relays start.
  const electionRelayOf = new Map<number, number>();
  const hello = helloThroughRelays(electionRelayOf);
  for (let id = 1; id <= size; id++) {
    ensemble.clientPorts.push(id === 1 ? port : await freePort());
    const server = { id, quorumPort: await freePort(), electionPort: await freePort() };
    ensemble.servers.push(server);
    if (!relays) continue;
    relayed.servers.push({
      id,
      quorumPort: await relays.add(`m${id}`, server.quorumPort),
      electionPort: await relays.add(`m${id}`, server.electionPort, hello),
    });
    electionRelayOf.set(server.electionPort, relayed.servers[id - 1]!.electionPort);
  }
  // A member listens on its own ports and reaches every other through that one's relays (if any).
  const seenBy = (self: number): EnsembleServers =>
    relays ? { servers: ensemble.servers.map((own, i) => (own.id === self ? own : relayed.servers[i]!)) } : ensemble;
  // A member answers srvr only once it has joined a quorum (leader or follower).
  const launched = await launchMembers(
    launch,
    ensemble.servers.map(({ id }) => {
      const clientPort = ensemble.clientPorts[id - 1]!;
      return {
        kind: 'zookeeper',
        name: `m${id}`,
        label: `zookeeper m${id} :${clientPort}`,
        port: clientPort,
        files: (dir) => [
          { path: 'data/myid', content: `${id}\n` },
          { path: 'zoo.cfg', content: zooCfg(clientPort, `${dir}/data`, seenBy(id)) },
        ],
        command: (dir, inContainer) => [
          inContainer ? 'java' : javaBinary(),
          ...jvmOptions(dir),
          '-cp',
          inContainer ? CONTAINER_CLASSPATH : zookeeperJar(),
          'org.apache.zookeeper.server.quorum.QuorumPeerMain',
          `${dir}/zoo.cfg`,
        ],
        // Debian's jar logs nothing but SLF4J's line as the JVM starts; the official image's logback logs its binding.
        readyLog: /Defaulting to no-operation \(NOP\) logger|binding to port/,
        probe: () => serverVersion(clientPort),
        readyWithinMs: START_WAIT_MS,
      };
    }),
  ).catch(async (error: unknown) => {
    await relays?.close();
    throw error;
  });
  const members: LocalMember[] = ensemble.servers.map(({ id }, i) => {
    const clientPort = ensemble.clientPorts[id - 1]!;
    return {
      name: `m${id}`,
      port: clientPort,
      url: `zookeeper://127.0.0.1:${clientPort}`,
      state: 'running',
      server: launched[i]!.server,
    };
  });
  const ensembleView = new ZkEnsemble(members, relays);
  return {
    kind: 'zookeeper',
    url: members[0]!.url,
    host: '127.0.0.1',
    port,
    version: `ZooKeeper ${launched[0]!.version}`,
    capabilities: {
      pause: () => ensembleView.pause('m1'),
      resume: () => ensembleView.resume('m1'),
      kill: () => ensembleView.kill('m1'),
    },
    members: ensembleView,
    stop: () => ensembleView.stop(),
  };
}

class ZkEnsemble extends LocalMembers<LocalMember> {
  constructor(members: readonly LocalMember[], relays: PeerRelays | undefined) {
    super('zookeeper', members, relays);
  }

  async leader(): Promise<string | undefined> {
    for (const member of this.answering()) {
      const mode = await serverMode(member.port).catch(() => undefined);
      if (mode === 'leader') return member.name;
    }
    return undefined;
  }

  async changeLeader(timeoutMs: number, now: () => number): Promise<LeaderChange> {
    const from = await this.leader();
    if (from === undefined) throw new Error(`${this.name} has no leader to stop`);
    const askedAt = now();
    await this.kill(from);
    const led = await awaitLeader(() => this.leader(), from, timeoutMs);
    return {
      from,
      to: led,
      how: `the leader ${from} SIGKILLed (ZooKeeper hands leadership over by no command), the others electing one`,
      askedAt,
      ledAt: led === undefined ? undefined : now(),
    };
  }
}
