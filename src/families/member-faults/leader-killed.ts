/**
 * Fault leader-killed: the member leading now killed (SIGKILL): the others elect a leader (ZooKeeper's leader change: it has no command that hands leadership over), which starts every lease or session afresh. Lands itself on --topology etcd:N or zookeeper:N (./land-on-member.ts);
 * not applicable on one server, or where that member is not running.
 */
import type { StoreKind } from '../../stores/types.ts';
import type { Fault } from '../../core/fault.ts';
import { stopMember, type MemberLanding, type MemberLandingContext } from './land-on-member.ts';

export const LEADER_KILLED: Fault & {
  readonly stores: readonly StoreKind[];
  land(ctx: MemberLandingContext): Promise<MemberLanding>;
} = {
  name: 'leader-killed',
  rank: 157,
  words: 'the leader killed (SIGKILL)',
  doc: "the member leading now killed (SIGKILL): the others elect a leader (ZooKeeper's leader change: it has no command that hands leadership over), which starts every lease or session afresh",
  at: ['effect'],
  topologies: ['etcd', 'zookeeper'],
  stores: ['etcd', 'zookeeper'],
  inWords: (_boundary, at) => `the leader killed (SIGKILL) at ${at}`,
  land: (ctx) => stopMember(ctx, 'leader-killed', 'leader', 'kill'),
};
