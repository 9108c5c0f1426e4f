/**
 * Fault member-partitioned: the member A's client talks to (A on m1, B on m2, …) cut off from the
 * other members, both ways, until lifted, while A's client still reaches it: the member loses its
 * quorum (it cannot serve a linearizable read or a write, a ZooKeeper server drops its clients'
 * sessions to the quorum), the others elect on and B's member serves on. The members' peer links
 * pass through relays the harness holds (src/stores/peer-relays.ts); the cut resets every peer
 * connection the member has and refuses new ones. Lands itself on --topology etcd:N or
 * zookeeper:N (./land-on-member.ts); not applicable on one server, or where that member is not
 * running.
 */
import type { StoreKind } from '../../stores/types.ts';
import type { Fault } from '../../core/fault.ts';
import {
  chosenMember,
  clusterOf,
  lockAround,
  type MemberLanding,
  type MemberLandingContext,
} from './land-on-member.ts';

const NAME = 'member-partitioned';

export const MEMBER_PARTITIONED: Fault & {
  readonly stores: readonly StoreKind[];
  readonly localOnly: string;
  land(ctx: MemberLandingContext): Promise<MemberLanding>;
} = {
  name: NAME,
  rank: 136,
  words: "A's member cut off from the others",
  doc: "the member A's client talks to (A on m1, B on m2, …) cut off from the other members, both ways, while A's client still reaches it: it loses its quorum (no linearizable read or write there, a ZooKeeper server drops its sessions) while the others elect on and serve B",
  at: ['effect'],
  topologies: ['etcd', 'zookeeper'],
  stores: ['etcd', 'zookeeper'],
  localOnly:
    'the members are cut off from each other through relays in front of their peer listeners, which tell a dialing member by its pid: members in containers do not pass their peer links through them',
  inWords: (_boundary, at) => `A's member cut off from the other members at ${at}, A's client still reaching it`,
  async land(ctx) {
    const cluster = clusterOf(ctx, NAME);
    if (typeof cluster === 'string') return { reached: false, why: cluster };
    if (!cluster.partition || !cluster.heal)
      return {
        reached: false,
        why: `${NAME}: ${cluster.name}'s peer links do not pass through the harness (members in containers): run it with local members (--runtime local)`,
      };
    const member = await chosenMember(cluster, 'holder', ctx.holder.id, NAME);
    if (typeof member === 'string') return { reached: false, why: member };
    if (member.cutOff) return { reached: false, why: `${NAME}: ${member.name} is cut off already` };
    const before = await lockAround(ctx);
    const action = `cut ${cluster.name} ${member.name} off from the other members`;
    const reset = await cluster.partition(member.name);
    const record = ctx.faults.apply('store', undefined, action, {
      member: member.name,
      chosenAs: 'holder',
      peerConnectionsReset: reset,
      lockBefore: before,
    });
    let lifted = false;
    const heal = cluster.heal.bind(cluster);
    return {
      reached: true,
      took: true,
      words: `${ctx.holder.id}'s member ${member.name} of ${cluster.name} was cut off from the other members (${reset} peer connections reset, new ones refused) while ${ctx.holder.id} ran on, its client still reaching ${member.name}`,
      facts: { action, member: member.name, peerConnectionsReset: reset, lockBefore: before },
      lift: () => {
        if (lifted) return;
        lifted = true;
        heal(member.name);
        ctx.faults.lift(record);
      },
    };
  },
};
