/**
 * The member faults of a coordination service run as several members (--topology etcd:N,
 * zookeeper:N), one file each: A's member or the leader paused (SIGSTOP) or killed (SIGKILL), A's
 * member cut off from the others (its peer links cut at the harness's relays).
 * Both the etcd and the ZooKeeper family contribute them (StoreFamily.faults; the registry lists
 * each fault once); etcd's own leader change (MoveLeader) is in src/families/etcd/faults/.
 */
import type { Fault } from '../../core/fault.ts';
import { LEADER_KILLED } from './leader-killed.ts';
import { LEADER_PAUSED } from './leader-paused.ts';
import { MEMBER_KILLED } from './member-killed.ts';
import { MEMBER_PARTITIONED } from './member-partitioned.ts';
import { MEMBER_PAUSED } from './member-paused.ts';

export const MEMBER_FAULTS: readonly Fault[] = [
  MEMBER_PAUSED,
  LEADER_PAUSED,
  MEMBER_PARTITIONED,
  MEMBER_KILLED,
  LEADER_KILLED,
];
