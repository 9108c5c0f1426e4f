/**
 * The harness's read of an etcd cluster (--topology etcd:N): the lock as the cluster holds it, by
 * a linearizable read through the first running member (etcd routes it through the leader's
 * read index, so a member's stale state never answers it), and as each member holds it on its own
 * (a serializable read there, with its raft role), so the evidence and the timeline show a member
 * that holds another's key, or none, while it is cut off or behind.
 */
import type { LockState } from '../family.ts';
import {
  answersForCluster,
  readMembers,
  type MemberCluster,
  type MemberReading,
} from '../../stores/topology-members.ts';
import { EtcdGateway } from './gateway.ts';
import { isPrefix, readEtcdLock, type EtcdLockFields } from './view.ts';

/** How long a read waits for the cluster to have a leader again. */
const READ_WAIT_MS = 10_000;

export class EtcdMembersView {
  readonly #gateways = new Map<string, EtcdGateway>();

  constructor(private readonly cluster: MemberCluster) {
    for (const member of cluster.members) this.#gateways.set(member.name, new EtcdGateway(member.url, 1500));
  }

  async lock(location: string): Promise<LockState & EtcdLockFields & { members: MemberReading[] }> {
    const [{ state, reader }, members] = await Promise.all([
      this.#linearizable(location),
      readMembers(this.cluster, (member) => this.#memberRead(member.name, location)),
    ]);
    return { ...state, where: `${state.where} (linearizable, through ${reader})`, members };
  }

  /**
   * The read through each running member not cut off from the others in turn until one answers: while a leader is being
   * elected (a leader paused or killed) none can ("leader changed", "no leader"), so it waits,
   * up to READ_WAIT_MS, and then says so.
   */
  async #linearizable(location: string): Promise<{ state: LockState & EtcdLockFields; reader: string }> {
    const until = performance.now() + READ_WAIT_MS;
    let last = 'no member is running';
    do {
      for (const member of this.cluster.members.filter(answersForCluster)) {
        try {
          return { state: await readEtcdLock(this.#gateways.get(member.name)!, location), reader: member.name };
        } catch (error) {
          last = `${member.name}: ${(error as Error).message}`;
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    } while (performance.now() < until);
    throw new Error(
      `no member of ${this.cluster.name} answered a linearizable read within ${READ_WAIT_MS} ms (last: ${last})`,
    );
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
