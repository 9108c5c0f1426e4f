/**
 * Fault member-killed: the member A's client talks to (A on m1, B on m2, …) killed (SIGKILL): A's client must find another member (if it was given any) to renew on; a leader killed is replaced by an election. Lands itself on --topology etcd:N or zookeeper:N (./land-on-member.ts);
 * not applicable on one server, or where that member is not running.
 */
import type { StoreKind } from '../../stores/types.ts';
import type { Fault } from '../../core/fault.ts';
import { stopMember, type MemberLanding, type MemberLandingContext } from './land-on-member.ts';

export const MEMBER_KILLED: Fault & {
  readonly stores: readonly StoreKind[];
  land(ctx: MemberLandingContext): Promise<MemberLanding>;
} = {
  name: 'member-killed',
  rank: 152,
  words: "A's member killed (SIGKILL)",
  doc: "the member A's client talks to (A on m1, B on m2, …) killed (SIGKILL): A's client must find another member (if it was given any) to renew on; a leader killed is replaced by an election",
  at: ['effect'],
  topologies: ['etcd', 'zookeeper'],
  stores: ['etcd', 'zookeeper'],
  inWords: (_boundary, at) => `A's member killed (SIGKILL) at ${at}`,
  land: (ctx) => stopMember(ctx, 'member-killed', 'holder', 'kill'),
};
