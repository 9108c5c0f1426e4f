/**
 * The part of a coordination service's members (src/stores/topology-members.ts) that is the same
 * whatever the service: each member a local server process (src/stores/server-process.ts), paused
 * by SIGSTOP, resumed by SIGCONT, killed by SIGKILL (or a container: src/stores/container-member.ts), its state kept for the reads and the faults;
 * the whole cluster stopped at once. A family's cluster (etcd's, ZooKeeper's ensemble) extends it
 * with how its members say who leads and how leadership is moved.
 */
import type { PeerRelays } from './peer-relays.ts';
import type { MemberServer } from './types.ts';
import {
  answersForCluster,
  memberNamed,
  type ClusterMember,
  type LeaderChange,
  type MemberCluster,
} from './topology-members.ts';

/** A member run as a local process, or in a container (its server paused, resumed and killed the container's way). */
export interface LocalMember extends ClusterMember {
  state: ClusterMember['state'];
  cutOff?: boolean;
  readonly server: MemberServer;
}

export abstract class LocalMembers<M extends LocalMember> implements MemberCluster {
  readonly name: string;
  readonly urls: readonly string[];

  /** `kind`: the service's name in "kind:N" ("etcd", "zookeeper"); `relays`: the members' peer links, when they pass through the harness. */
  constructor(
    kind: string,
    readonly members: readonly M[],
    private readonly relays?: PeerRelays,
  ) {
    this.name = `${kind}:${members.length}`;
    this.urls = members.map((m) => m.url);
    if (!relays) return;
    relays.knowMembers(
      () => new Map(members.flatMap((m) => (m.server.pid === undefined ? [] : [[m.server.pid, m.name] as const]))),
    );
    // Only where the peer links pass through the harness can a member be cut off (member-partitioned).
    this.partition = async (name) => {
      const member = this.member(name);
      member.cutOff = true;
      return relays.cutOff(name);
    };
    this.heal = (name) => {
      relays.restore(name);
      this.member(name).cutOff = false;
    };
  }

  readonly partition?: (name: string) => Promise<number>;
  readonly heal?: (name: string) => void;

  abstract leader(): Promise<string | undefined>;
  abstract changeLeader(timeoutMs: number, now: () => number): Promise<LeaderChange>;

  async pause(name: string): Promise<void> {
    const member = this.member(name);
    await member.server.pause();
    member.state = 'paused';
  }

  async resume(name: string): Promise<void> {
    const member = this.member(name);
    if (member.state !== 'paused') return;
    await member.server.resume();
    member.state = 'running';
  }

  async kill(name: string): Promise<void> {
    const member = this.member(name);
    await member.server.stop(0);
    member.state = 'killed';
  }

  /** Every member's process killed at once, then the relays of their links closed (a scratch cluster keeps nothing; its dirs go with the run dir). */
  async stop(): Promise<void> {
    await Promise.all(this.members.map((m) => m.server.stop(0)));
    await this.relays?.close();
  }

  /** The members the cluster's reads and its leader are asked of: running, and not cut off from the others. */
  protected answering(): M[] {
    return this.members.filter(answersForCluster);
  }

  protected member(name: string): M {
    return memberNamed(this, name) as M;
  }
}
