/**
 * The harness's read of an etcd cluster (--topology etcd:N): the lock as the cluster holds it, by
 * a linearizable read through the first running member (etcd routes it through the leader's
 * read index, so a member's stale state never answers it), and as each member holds it on its own
 * (a serializable read there, with its raft role), so the evidence and the timeline show a member
 * that holds another's key, or none, while it is cut off or behind.
 */
import type { LockState } from '../family.ts';
import { readMembers, type MemberCluster, type MemberReading } from '../../stores/topology-members.ts';
import { EtcdGateway } from './gateway.ts';
import { isPrefix, readEtcdLock, type EtcdLockFields } from './view.ts';

export class EtcdMembersView {
  readonly #gateways = new Map<string, EtcdGateway>();

  constructor(private readonly cluster: MemberCluster) {
    for (const member of cluster.members) this.#gateways.set(member.name, new EtcdGateway(member.url, 1500));
  }

  async lock(location: string): Promise<LockState & EtcdLockFields & { members: MemberReading[] }> {
    const reader = this.cluster.members.find((m) => m.state === 'running');
    if (!reader) throw new Error(`every member of ${this.cluster.name} is paused or killed: nothing can answer a read`);
    const [state, members] = await Promise.all([
      readEtcdLock(new EtcdGateway(reader.url), location),
      readMembers(this.cluster, (member) => this.#memberRead(member.name, location)),
    ]);
    return { ...state, where: `${state.where} (linearizable, through ${reader.name})`, members };
  }

  async #memberRead(name: string, location: string): Promise<Omit<MemberReading, 'member'>> {
    const gateway = this.#gateways.get(name)!;
    const [status, keys] = await Promise.all([
      gateway.status(),
      isPrefix(location) ? gateway.under(location, true) : gateway.getLocal(location).then((k) => (k ? [k] : [])),
    ]);
    const role = status.leader === '0' ? 'no leader' : status.member === status.leader ? 'leader' : 'follower';
    const holder = keys[0];
    return holder
      ? { role, exists: true, holder: holder.key, value: holder.value, owner: holder.lease }
      : { role, exists: false };
  }
}
