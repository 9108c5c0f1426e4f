/**
 * Fault member-paused: the member A's client talks to (A on m1, B on m2, …) stopped (SIGSTOP) until lifted: A's renewals and requests reach nobody while the others, B's member among them, serve on; a leader stopped is replaced by an election. Lands itself on --topology etcd:N or zookeeper:N (./land-on-member.ts);
 * not applicable on one server, or where that member is not running.
 */
import type { StoreKind } from '../../stores/types.ts';
import type { Fault } from '../../core/fault.ts';
import { stopMember, type MemberLanding, type MemberLandingContext } from './land-on-member.ts';

export const MEMBER_PAUSED: Fault & {
  readonly stores: readonly StoreKind[];
  land(ctx: MemberLandingContext): Promise<MemberLanding>;
} = {
  name: 'member-paused',
  rank: 82,
  words: "A's member paused (SIGSTOP)",
  doc: "the member A's client talks to (A on m1, B on m2, …) stopped (SIGSTOP) until lifted: A's renewals and requests reach nobody while the others, B's member among them, serve on; a leader stopped is replaced by an election",
  at: ['effect'],
  topologies: ['etcd', 'zookeeper'],
  stores: ['etcd', 'zookeeper'],
  inWords: (_boundary, at) => `A's member paused (SIGSTOP) at ${at}`,
  land: (ctx) => stopMember(ctx, 'member-paused', 'holder', 'pause'),
};
