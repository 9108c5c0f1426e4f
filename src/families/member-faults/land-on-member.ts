/**
 * How a member fault lands on a coordination service run as several members (--topology etcd:N,
 * zookeeper:N; the view's `members` capability): which member it hits (the one holder A talks to,
 * or the leader by the members' own word at that moment), what is done to it (SIGSTOP until
 * lifted, SIGKILL), and the fault log entry on that member, with the lock as the cluster held it
 * just before and just after (the evidence shows what the harness saw the fault do). Not
 * applicable on one server, nor where the chosen member is not running.
 */
import type { FaultLog } from '../../core/fault-log.ts';
import { homeMember, type ClusterMember, type MemberCluster } from '../../stores/topology-members.ts';
import type { LockState, StoreView } from '../family.ts';
import type { StoreLocation } from '../../../targets/contract.ts';

/** Which member a fault hits: the one the holder talks to, or the leader. */
export type MemberChoice = 'holder' | 'leader';

/** What a member fault needs of the scenario (a structural part of the fault registry's landing context). */
export interface MemberLandingContext {
  readonly holder: { readonly id: string };
  view(): StoreView;
  readonly faults: FaultLog;
  /** Where the lock lives, for the reads around the fault (absent: no reads). */
  readonly lockLocation?: StoreLocation;
}

/** A member fault in force, or why it does not apply (the registry's Landing, without a wire record). */
export type MemberLanding =
  | {
      reached: true;
      took: boolean;
      words: string;
      facts: { action: string } & Record<string, unknown>;
      lift(): void;
    }
  | { reached: false; why: string };

/** The members, or why there are none (one server). */
export function clusterOf(ctx: MemberLandingContext, fault: string): MemberCluster | string {
  const cluster = ctx.view().members;
  return (
    cluster ??
    `${fault} lands on a member of a cluster: this store is one server (run it with --topology etcd:3 or zookeeper:3)`
  );
}

/** The member `choice` names now, or why none can be hit. */
export async function chosenMember(
  cluster: MemberCluster,
  choice: MemberChoice,
  holder: string,
  fault: string,
): Promise<ClusterMember | string> {
  const name = choice === 'holder' ? homeMember(cluster, holder).name : await cluster.leader();
  const hit = cluster.members.find((m) => m.name === name);
  if (!hit) return `${fault}: ${cluster.name} has no leader now (an election under way, or its quorum lost)`;
  if (hit.state !== 'running') return `${fault}: ${hit.name} is ${hit.state} already`;
  return hit;
}

/** The lock as the cluster holds it, for the evidence (undefined when there is no location or no member answers). */
export async function lockAround(ctx: MemberLandingContext): Promise<Partial<LockState> | undefined> {
  if (ctx.lockLocation === undefined) return undefined;
  try {
    const { where, exists, value, pttlMs } = await ctx.view().lock(ctx.lockLocation);
    return { where, exists, value, pttlMs };
  } catch (error) {
    return { where: `no read: ${(error as Error).message}` };
  }
}

/** SIGSTOP (lifted by SIGCONT) or SIGKILL the chosen member, logged as a store fault on it. */
export async function stopMember(
  ctx: MemberLandingContext,
  fault: string,
  choice: MemberChoice,
  how: 'pause' | 'kill',
): Promise<MemberLanding> {
  const cluster = clusterOf(ctx, fault);
  if (typeof cluster === 'string') return { reached: false, why: cluster };
  const member = await chosenMember(cluster, choice, ctx.holder.id, fault);
  if (typeof member === 'string') return { reached: false, why: member };
  const whose = choice === 'holder' ? `${ctx.holder.id}'s member ${member.name}` : `the leader ${member.name}`;
  const before = await lockAround(ctx);
  const action = `${how === 'pause' ? 'SIGSTOP' : 'SIGKILL'} ${cluster.name} ${member.name}`;
  if (how === 'pause') await cluster.pause(member.name);
  else await cluster.kill(member.name);
  const record = ctx.faults.apply('store', undefined, action, {
    member: member.name,
    chosenAs: choice,
    lockBefore: before,
  });
  const words =
    how === 'pause'
      ? `${whose} of ${cluster.name} was stopped (SIGSTOP) while ${ctx.holder.id} ran on`
      : `${whose} of ${cluster.name} was killed (SIGKILL) while ${ctx.holder.id} ran on`;
  let lifted = false;
  return {
    reached: true,
    took: true,
    words,
    facts: { action, member: member.name, lockBefore: before },
    lift: () => {
      if (lifted) return;
      lifted = true;
      if (how === 'kill') return ctx.faults.lift(record);
      // SIGCONT at once (a stopped member is a process the run must not leave stopped); logged once done.
      void cluster.resume(member.name).then(
        () => ctx.faults.lift(record, { resumed: true }),
        (error: Error) => ctx.faults.lift(record, { resumed: false, why: error.message }),
      );
    },
  };
}
