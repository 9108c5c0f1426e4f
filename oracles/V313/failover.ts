/**
 * V313 --variant failover (a replicated topology): the master's replication is held across A's
 * acquire, so A's lock lives on the master alone; at A's first write (held there) the master is
 * SIGKILLed and a replica promoted; B takes the lock on the new master and writes (held there);
 * A is let go and finishes. A helper that made sure its lock reached a replica before acting (SET
 * then WAIT on the same connection, result checked) never gets there: its job ends denied, which
 * is judged (no write after B's). Records V313Observations.failover.
 */
import type { ParamValues } from '../../src/core/params.ts';
import type { Holder } from '../../src/holder/holder.ts';
import type { Scenario } from '../../src/oracle/scenario.ts';
import { failOver, holdReplication, replicatedTopology } from '../../scenarios/failover.ts';
import { runJobUntilFirstEffect } from '../../scenarios/run-job-until-effect.ts';
import type { NodeLock, V313Observations } from './observations.ts';
import type { v313Params } from './params.ts';

export async function playFailover(
  s: Scenario,
  p: ParamValues<typeof v313Params>,
  a: Holder,
  b: Holder,
  o: V313Observations,
): Promise<void> {
  const topology = replicatedTopology(s, '--variant failover');
  const replication = await holdReplication(s, topology, p.timeout);
  s.progress("A runs the job once, its master's replication held");
  const latch = a.holdNextEffect();
  const aJob = a.call('job');
  const first = await s.within(
    Promise.race([latch.reached.then(() => 'reached' as const), aJob.then(() => 'ended' as const)]),
    p.timeout,
  );
  const aReached = first === 'reached';
  const seen = await s.observeLock('at the failover: the lock on every node');
  const nodes = ((seen as { nodes?: NodeLock[] }).nodes ?? []).map(({ node, role, offset, exists, value, pttlMs }) => ({
    node,
    role,
    offset,
    exists,
    value,
    pttlMs,
  }));
  const master = nodes.find((n) => n.node === topology.master().name);
  // A's lease by the master's own clock: B must take the lock inside it, or the lease's lapse let B in, not the failover.
  const aLeaseUntil = master?.exists && master.pttlMs > 0 ? seen.sentAt + master.pttlMs : null;
  const failover = await failOver(s, topology, p.timeout);
  const heldBytes = replication.lift();
  const retryEvery = Math.max(5, Math.round(p.ttl / 10));
  s.progress(`B runs the job on the promoted master ${failover.promoted}`);
  const bIn = await runJobUntilFirstEffect(b, p.timeout, retryEvery);
  o.failover = {
    aReached,
    aEnded: first === 'ended' ? ((await aJob) ?? null) : null,
    nodes,
    aLeaseUntil,
    heldBytes,
    killed: failover.killed,
    promoted: failover.promoted,
    how: failover.how,
    promotedAt: failover.promotedAt,
    bWrote: bIn.job !== undefined,
    bAttempts: bIn.attempts,
  };
  latch.release();
  if (aReached) o.aResumed = { job: (await s.within(aJob, p.timeout)) ?? null };
  bIn.latch.release();
  if (bIn.job) await s.within(bIn.job, p.timeout);
}
