/**
 * A coordination service run as several members (`--topology etcd:N`: an etcd cluster,
 * `zookeeper:N`: a ZooKeeper ensemble), as its family starts it: every member's client address,
 * which member leads now (read from the members themselves), and the member faults a family's
 * fault files land (src/families/etcd/faults/member-*.ts, src/families/zookeeper/faults/…): a member
 * paused (SIGSTOP) or killed (SIGKILL), leadership moved off the leader.
 */

/** One member of the cluster. */
export interface ClusterMember {
  /** "m1", "m2", …: stable through the run, named in the evidence. */
  readonly name: string;
  /** Its client port on 127.0.0.1, and the URL a client connects to there. */
  readonly port: number;
  readonly url: string;
  /** Running, stopped by SIGSTOP, or killed (SIGKILL) by a fault. */
  readonly state: 'running' | 'paused' | 'killed';
  /** Running but cut off from the other members by a fault (its clients still reach it): no read of the cluster goes through it. */
  readonly cutOff?: boolean;
}

/** What a leader change did, for the evidence. */
export interface LeaderChange {
  /** The leader before, and the member leading after (undefined: none was seen within the deadline). */
  from: string;
  to: string | undefined;
  /** How leadership moved ("MoveLeader (etcd's transfer-leadership) to m2", "the leader m1 SIGKILLed"). */
  how: string;
  /** Harness ms it was asked for, and when the new leader was seen. */
  askedAt: number;
  ledAt: number | undefined;
}

export interface MemberCluster {
  /** "etcd:3", "zookeeper:3". */
  readonly name: string;
  readonly members: readonly ClusterMember[];
  /** Every member's client URL, m1 first: a holder's env.urls (env.url is m1's, or its wire proxy's). */
  readonly urls: readonly string[];
  /** The member that leads now by the members' own word, or undefined when none says it leads. */
  leader(): Promise<string | undefined>;
  /** SIGSTOP / SIGCONT one member. */
  pause(member: string): Promise<void>;
  resume(member: string): Promise<void>;
  /** SIGKILL one member (its data dir stays until the run ends). */
  kill(member: string): Promise<void>;
  /**
   * Cut one member off from the others, both ways, its clients still reaching it (its peer links
   * go through relays the harness holds); resolves to how many peer connections were reset.
   * Absent where the members' links do not pass through the harness.
   */
  partition?(member: string): Promise<number>;
  /** Undo `partition`: the member and the others reach each other again. */
  heal?(member: string): void;
  /** Move leadership off the leader and wait up to `timeoutMs` for another member to lead; times on `now`. */
  changeLeader(timeoutMs: number, now: () => number): Promise<LeaderChange>;
  stop(): Promise<void>;
}

/** Whether the cluster's own reads and its leader may be asked of `member`: running and not cut off. */
export function answersForCluster(member: ClusterMember): boolean {
  return member.state === 'running' && member.cutOff !== true;
}

/** The member named `name`, or an error naming the members there are. */
export function memberNamed(cluster: MemberCluster, name: string): ClusterMember {
  const member = cluster.members.find((m) => m.name === name);
  if (!member)
    throw new Error(
      `${cluster.name} has no member ${name} (its members: ${cluster.members.map((m) => m.name).join(', ')})`,
    );
  return member;
}

/** Poll `leader` until it names a member other than `from` (or any, when `from` is undefined), or `timeoutMs` passes. */
export async function awaitLeader(
  leader: () => Promise<string | undefined>,
  from: string | undefined,
  timeoutMs: number,
): Promise<string | undefined> {
  const until = performance.now() + timeoutMs;
  while (performance.now() < until) {
    const now = await leader().catch(() => undefined);
    if (now !== undefined && now !== from) return now;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return undefined;
}

/** What one member holds at the lock's location, read from that member alone (its own, possibly stale, state). */
export interface MemberReading {
  member: string;
  /** "leader" / "follower" by the member's word; "paused" or "killed" by a fault; "unreachable": it did not answer. */
  role: string;
  exists: boolean;
  /** The holding key or node there (etcd: the key; ZooKeeper: the lowest child, or the node), and its value. */
  holder?: string;
  value?: string | null;
  /** Whose it is: the lease (etcd, decimal id) or the session (ZooKeeper, "0x…") it is attached to. */
  owner?: string;
}

/** Each member's reading by `read`, a member that is not running read as such, one that does not answer in time as unreachable. */
export async function readMembers(
  cluster: MemberCluster,
  read: (member: ClusterMember) => Promise<Omit<MemberReading, 'member'>>,
  timeoutMs = 1500,
): Promise<MemberReading[]> {
  return Promise.all(
    cluster.members.map(async (member): Promise<MemberReading> => {
      if (member.state !== 'running') return { member: member.name, role: member.state, exists: false };
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('late')), timeoutMs);
      });
      try {
        return { member: member.name, ...(await Promise.race([read(member), late])) };
      } catch {
        return { member: member.name, role: 'unreachable', exists: false };
      } finally {
        clearTimeout(timer);
      }
    }),
  );
}

/**
 * The member a holder talks to (its env.url, or its wire proxy's upstream): holder A m1, B m2, C m3,
 * and so on round the members, so A and B are on different members wherever there are two; a holder
 * whose id is not one capital letter gets m1. A fault on "A's member" lands on this one.
 */
export function homeMember(cluster: MemberCluster, holder: string): ClusterMember {
  const index = /^[A-Z]$/.test(holder) ? holder.charCodeAt(0) - 65 : 0;
  return cluster.members[index % cluster.members.length]!;
}
