/**
 * `--topology etcd:N`: an etcd cluster of N scratch members on this machine, m1…mN, each its own
 * process (Debian's etcd 3.4.23) or its own container (src/stores/member-launch.ts), client and
 * peer port on loopback and data dir inside the run dir or the container (removed with it; the
 * processes die with the harness), started together with one `--initial-cluster`. Where the
 * members are local processes their peer URLs are relays the harness holds
 * (src/stores/peer-relays.ts: a member cut off from the others by member-partitioned). The store's
 * URL is m1's; a holder's env.urls carries every member's. Which
 * member leads is read from the members (`/v3/maintenance/status`); a leader change is etcd's own
 * MoveLeader (transfer-leadership) sent to the leader, naming the next member.
 */
import { LocalMembers, type LocalMember } from '../../stores/local-members.ts';
import { launchMembers } from '../../stores/member-launch.ts';
import { PeerRelays } from '../../stores/peer-relays.ts';
import { awaitLeader, type LeaderChange } from '../../stores/topology-members.ts';
import type { MembersStartContext, StartedStore } from '../../stores/types.ts';
import { EtcdGateway, etcdVersion } from './gateway.ts';
import { etcdBinary, memberArgs } from './member-args.ts';

interface Member extends LocalMember {
  readonly gateway: EtcdGateway;
}

/** A loaded machine: an election under load 20 can take a few seconds. */
const LEADER_WAIT_MS = 20_000;

export async function startEtcdCluster(
  { port, freePort, launch, peersThroughRelays }: MembersStartContext,
  size: number,
): Promise<Omit<StartedStore, 'runtime' | 'startMs'>> {
  // Local members' peer links pass through relays (a member can be cut off); containers' do not.
  const relays = peersThroughRelays ? new PeerRelays(`etcd:${size} peer relays`) : undefined;
  const ports: Array<{ name: string; client: number; peer: number; advertised: number }> = [];
  for (let i = 1; i <= size; i++) {
    const [name, peer] = [`m${i}`, await freePort()];
    const client = i === 1 ? port : await freePort();
    ports.push({ name, client, peer, advertised: relays ? await relays.add(name, peer) : peer });
  }
  // Every member dials a peer at its advertised URL: etcd hashes a member's id from its peer URLs, so all must name the same ones.
  const initialCluster = ports.map((p) => `${p.name}=http://127.0.0.1:${p.advertised}`).join(',');
  const launched = await launchMembers(
    launch,
    ports.map(({ name, client, peer, advertised }) => ({
      kind: 'etcd',
      name,
      label: `etcd ${name} :${client}`,
      port: client,
      // In a container: its image's etcd, logging at info for the line the container is waited on.
      command: (dir, inContainer) => [
        inContainer ? 'etcd' : etcdBinary(),
        ...memberArgs(client, peer, dir, inContainer ? 'info' : 'warn', {
          name,
          initialCluster,
          advertisedPeerPort: advertised,
        }),
      ],
      readyLog: /serving client traffic/,
      probe: () => etcdVersion(client),
      readyWithinMs: 15_000,
    })),
  ).catch(async (error: unknown) => {
    await relays?.close();
    throw error;
  });
  const members: Member[] = ports.map(({ name, client }, i) => ({
    name,
    port: client,
    url: `http://127.0.0.1:${client}`,
    state: 'running',
    gateway: new EtcdGateway(`http://127.0.0.1:${client}`),
    server: launched[i]!.server,
  }));
  const cluster = new EtcdCluster(members, relays);
  try {
    if ((await awaitLeader(() => cluster.leader(), undefined, LEADER_WAIT_MS)) === undefined)
      throw new Error(`etcd:${size} elected no leader within ${LEADER_WAIT_MS} ms`);
    return {
      kind: 'etcd',
      url: members[0]!.url,
      host: '127.0.0.1',
      port,
      version: launched[0]!.version,
      // The store's own pause/kill are m1's: the member a holder's env.url leads to.
      capabilities: {
        pause: () => cluster.pause('m1'),
        resume: () => cluster.resume('m1'),
        kill: () => cluster.kill('m1'),
      },
      members: cluster,
      stop: () => cluster.stop(),
    };
  } catch (error) {
    await cluster.stop();
    throw error;
  }
}

class EtcdCluster extends LocalMembers<Member> {
  #ids: Map<string, string> | undefined;

  constructor(members: readonly Member[], relays: PeerRelays | undefined) {
    super('etcd', members, relays);
  }

  async #memberIds(): Promise<Map<string, string>> {
    if (this.#ids) return this.#ids;
    for (const member of this.answering()) {
      const ids = await member.gateway.memberIds().catch(() => undefined);
      if (ids) return (this.#ids = ids);
    }
    throw new Error(`${this.name}: no running member answered its member list`);
  }

  async leader(): Promise<string | undefined> {
    const ids = await this.#memberIds();
    const names = new Map([...ids].map(([name, id]) => [id, name]));
    // The leader as a running member says it leads: its own id and its leader's are the same.
    for (const member of this.answering()) {
      const status = await member.gateway.status().catch(() => undefined);
      if (status && status.leader !== '0' && status.member === status.leader) return names.get(status.member);
    }
    return undefined;
  }

  async changeLeader(timeoutMs: number, now: () => number): Promise<LeaderChange> {
    const from = await this.leader();
    if (from === undefined) throw new Error(`${this.name} has no leader to move leadership from`);
    const to = this.answering().find((m) => m.name !== from);
    if (!to) throw new Error(`${this.name}: no other running member to hand leadership to`);
    const ids = await this.#memberIds();
    const askedAt = now();
    await this.member(from).gateway.moveLeader(ids.get(to.name)!);
    const led = await awaitLeader(() => this.leader(), from, timeoutMs);
    return {
      from,
      to: led,
      how: `MoveLeader (etcd's transfer-leadership, sent to the leader ${from}) to ${to.name}`,
      askedAt,
      ledAt: led === undefined ? undefined : now(),
    };
  }
}
