/**
 * The part of a coordination service's members (src/stores/topology-members.ts) that is the same
 * whatever the service: each member a local server process (src/stores/server-process.ts), paused
 * by SIGSTOP, resumed by SIGCONT, killed by SIGKILL (or a container: src/stores/container-member.ts), its state kept for the reads and the faults;
 * the whole cluster stopped at once. A family's cluster (etcd's, ZooKeeper's ensemble) extends it
 * with how its members say who leads and how leadership is moved.
 */
import type { MemberServer } from './types.ts';
import { memberNamed, type ClusterMember, type LeaderChange, type MemberCluster } from './topology-members.ts';

/** A member run as a local process, or in a container (its server paused, resumed and killed the container's way). */
export interface LocalMember extends ClusterMember {
  state: ClusterMember['state'];
  readonly server: MemberServer;
}

export abstract class LocalMembers<M extends LocalMember> implements MemberCluster {
  readonly name: string;
  readonly urls: readonly string[];

  /** `kind`: the service's name in "kind:N" ("etcd", "zookeeper"). */
  constructor(
    kind: string,
    readonly members: readonly M[],
  ) {
    this.name = `${kind}:${members.length}`;
    this.urls = members.map((m) => m.url);
  }

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

  /** Every member's process killed at once (a scratch cluster keeps nothing; its dirs go with the run dir). */
  async stop(): Promise<void> {
    await Promise.all(this.members.map((m) => m.server.stop(0)));
  }

  protected running(): M[] {
    return this.members.filter((m) => m.state === 'running');
  }

  protected member(name: string): M {
    return memberNamed(this, name) as M;
  }
}
