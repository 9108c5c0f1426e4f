/**
 * The harness's read of a ZooKeeper ensemble (--topology zookeeper:N): the lock as the ensemble
 * holds it, read at the leader (every write is applied there first, and its `dump` lists every
 * live session; the sessions' ends come from the `cons` of every running member, where each holder
 * is connected), and as each member holds it on its own (its `srvr` Mode, and the lock's lowest
 * child there with its owning session), so the evidence and the timeline show a member behind or
 * cut off holding another's node, or none.
 */
import { awaitLeader, readMembers, type MemberCluster, type MemberReading } from '../../stores/topology-members.ts';
import { serverMode } from './four-letter.ts';
import { ZkView, type ZkLockState } from './view.ts';

/** How long a read waits for the ensemble to have a leader again. */
const LEADER_WAIT_MS = 10_000;

export class ZkMembersView {
  readonly #views = new Map<string, ZkView>();

  constructor(private readonly cluster: MemberCluster) {}

  async lock(path: string): Promise<Omit<ZkLockState, 'where'> & { members: MemberReading[]; readAt: string }> {
    // While an election is under way (a leader paused or killed) nothing answers: wait for a leader.
    const leader = await awaitLeader(() => this.cluster.leader(), undefined, LEADER_WAIT_MS);
    if (leader === undefined)
      throw new Error(
        `${this.cluster.name} had no leader for ${LEADER_WAIT_MS} ms (its quorum lost?): nothing answers a read at the leader`,
      );
    const [state, members] = await Promise.all([
      this.#view(leader).lock(path),
      readMembers(this.cluster, async (member) => {
        const [mode, here] = await Promise.all([serverMode(member.port), this.#view(member.name).holderHere(path)]);
        return { role: mode, ...here };
      }),
    ]);
    return { ...state, members, readAt: leader };
  }

  #view(name: string): ZkView {
    let view = this.#views.get(name);
    if (!view) {
      const member = this.cluster.members.find((m) => m.name === name)!;
      const running = () => this.cluster.members.filter((m) => m.state === 'running').map((m) => m.port);
      this.#views.set(name, (view = new ZkView(member.port, running)));
    }
    return view;
  }

  close(): void {
    for (const view of this.#views.values()) view.close();
  }
}
