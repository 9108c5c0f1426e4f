/**
 * Fault leader-paused: the member leading now (by the members' own word) stopped (SIGSTOP) until lifted: the others elect a leader, which (etcd 3.4 without lease checkpointing; a ZooKeeper leader) starts every lease or session afresh. Lands itself on --topology etcd:N or zookeeper:N (./land-on-member.ts);
 * not applicable on one server, or where that member is not running.
 */
import type { StoreKind } from '../../stores/types.ts';
import type { Fault } from '../../core/fault.ts';
import { stopMember, type MemberLanding, type MemberLandingContext } from './land-on-member.ts';

export const LEADER_PAUSED: Fault & {
  readonly stores: readonly StoreKind[];
  land(ctx: MemberLandingContext): Promise<MemberLanding>;
} = {
  name: 'leader-paused',
  rank: 87,
  words: 'the leader paused (SIGSTOP)',
  doc: "the member leading now (by the members' own word) stopped (SIGSTOP) until lifted: the others elect a leader, which (etcd 3.4 without lease checkpointing; a ZooKeeper leader) starts every lease or session afresh",
  at: ['effect'],
  topologies: ['etcd', 'zookeeper'],
  stores: ['etcd', 'zookeeper'],
  inWords: (_boundary, at) => `the leader paused (SIGSTOP) at ${at}`,
  land: (ctx) => stopMember(ctx, 'leader-paused', 'leader', 'pause'),
};
