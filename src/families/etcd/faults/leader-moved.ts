/**
 * Fault leader-moved: etcd's leader hands leadership to another member (MoveLeader, as `etcdctl
 * move-leader` does) while A runs on. On etcd 3.4.23 without lease checkpointing (its default;
 * --experimental-enable-lease-checkpoint is off) the new leader starts every lease afresh at its
 * full granted TTL: the lock's lease lives longer than the old leader said. The evidence records
 * the lock's remaining TTL just before and just after, so the reset is seen. Lands itself on
 * --topology etcd:N (N ≥ 2); not applicable on one member or on another store.
 */
import type { StoreKind } from '../../../stores/types.ts';
import type { Fault } from '../../../core/fault.ts';
import {
  clusterOf,
  lockAround,
  type MemberLanding,
  type MemberLandingContext,
} from '../../member-faults/land-on-member.ts';

/** How long the new leader may take to be seen leading (an election on a loaded machine). */
const LEAD_WAIT_MS = 10_000;

export const LEADER_MOVED: Fault & {
  readonly stores: readonly StoreKind[];
  land(ctx: MemberLandingContext): Promise<MemberLanding>;
} = {
  name: 'leader-moved',
  rank: 62,
  words: "etcd's leadership moved (MoveLeader)",
  doc: "etcd's leader hands leadership to another member (MoveLeader, as etcdctl move-leader) while A runs on: on 3.4 without lease checkpointing the new leader restarts every lease at its full TTL (the lock's TTL before and after are in the evidence)",
  at: ['effect'],
  topologies: ['etcd'],
  stores: ['etcd'],
  inWords: (_boundary, at) => `etcd's leadership was moved to another member (MoveLeader) at ${at}, A running on`,
  async land(ctx) {
    const cluster = clusterOf(ctx, 'leader-moved');
    if (typeof cluster === 'string') return { reached: false, why: cluster };
    if (!cluster.name.startsWith('etcd:') || cluster.members.length < 2)
      return {
        reached: false,
        why: `leader-moved is etcd's MoveLeader between members: ${cluster.name} has none (run it with --topology etcd:3)`,
      };
    const before = await lockAround(ctx);
    const began = performance.now();
    const change = await cluster.changeLeader(LEAD_WAIT_MS, () => performance.now() - began);
    const after = await lockAround(ctx);
    if (change.to === undefined)
      return { reached: false, why: `leader-moved: no member led within ${LEAD_WAIT_MS} ms after ${change.how}` };
    const action = `MoveLeader ${change.from} → ${change.to}`;
    const detail = {
      from: change.from,
      to: change.to,
      tookMs: Math.round(change.ledAt ?? 0),
      lockBefore: before,
      lockAfter: after,
    };
    ctx.faults.lift(ctx.faults.apply('store', undefined, action, detail));
    const ttl = (read?: { pttlMs?: number }) => (read?.pttlMs === undefined ? 'unread' : `${read.pttlMs} ms`);
    return {
      reached: true,
      took: true,
      words: `etcd's leadership moved from ${change.from} to ${change.to} (MoveLeader); the lock's lease had ${ttl(before)} left before and ${ttl(after)} after`,
      facts: { action, ...detail },
      lift: () => undefined,
    };
  },
};
