/**
 * V317 on a cluster of the target's own nodes (--store cluster): a deadline written on one node's
 * clock and read on another's. The key's home runs its wall and monotonic clocks --skew ms ahead
 * (home-ahead) or behind (home-behind) of the other nodes', its process restarted on them before
 * any lock (the machines' clocks differ; src/oracle/node-clock.ts). A takes the lock through its node (a delegation from the
 * home) and releases it; its node keeps the delegation, as the design does. --margin ms after that
 * delegation lapsed by the home's own clock, B takes the lock through its node; then A tries again,
 * while B holds. Each answer is followed by a read of the home's view (the target's inspect member).
 * An explored point (--explore) starts every clock real and instead steps one node's wall clock
 * (--stepped-node: the home's or A's node's) --skew ms ahead or back the moment the point's message
 * of A's first lock reaches its link proxy (the point's fault lands itself there: node-clock-ahead /
 * node-clock-back, src/families/cluster/faults/, through src/oracle/arm-link-point.ts); its variant is then
 * the one that step amounts to (home-ahead: the home's clock now ahead of A's node's).
 * Records what happened; judges nothing (./cluster-judge.ts).
 */
import { UsageError } from '../../src/core/errors.ts';
import type { ParamValues } from '../../src/core/params.ts';
import { armLinkPoint } from '../../src/oracle/arm-link-point.ts';
import { boundaryLabel } from '../../src/oracle/explore-point.ts';
import { signed } from './legs.ts';
import type { Scenario } from '../../src/oracle/scenario.ts';
import type { Holder } from '../../src/holder/holder.ts';
import type { ClusterObservation, ClusterTry, ClusterVariant, V317Observations } from './observations.ts';
import type { v317Params } from './params.ts';

export async function playV317OnCluster(s: Scenario, p: ParamValues<typeof v317Params>): Promise<V317Observations> {
  const nodes = await s.nodes();
  const home = nodes.home ?? null;
  const unreadable = nodes.unreadable;
  const point = s.point;
  const stepped = point && (p.steppedNode === 'a-node' ? nodes.nodeOf('A').id : home);
  if (point && !stepped)
    throw new UsageError(
      "V317 --explore on a cluster steps the key's home's clock, and the harness cannot ask the nodes which one it is: give the target an inspect member (targets/contract.ts)",
    );
  const wallStepMs = point?.fault === 'node-clock-back' ? -p.skew : p.skew;
  const homeAhead = point ? (stepped === home) === wallStepMs > 0 : p.variant !== 'home-behind';
  const variant: ClusterVariant = homeAhead ? 'home-ahead' : 'home-behind';
  const offset = variant === 'home-ahead' ? p.skew : -p.skew;
  // Before any holder runs: the home's machine has its own clocks, its process started on them.
  if (home && !point) await nodes.restartSkewed(home, { wallMs: offset, monotonicMs: offset });
  const offsetsNow = () => Object.fromEntries(nodes.ids.map((id) => [id, nodes.clock(id).offsets]));
  const asked = offsetsNow();
  const measureAll = async () =>
    Object.fromEntries(await Promise.all(nodes.ids.map(async (id) => [id, await nodes.clock(id).measure()] as const)));
  const measuredBefore = await measureAll();
  const [a, b] = await Promise.all([s.holder('A'), s.holder('B')]);
  const homeView = async (label: string) => {
    if (unreadable) return null;
    const { exists, value, pttlMs } = await s.observeLock(label);
    return { exists, value, pttlMs };
  };
  const tries = async (holder: Holder, label: string): Promise<ClusterTry> => {
    const at = s.now();
    const lease = await holder.acquire();
    const answeredAt = s.now();
    const homeAfter = await homeView(`the home's view right after ${label}`);
    if (lease) await holder.release(lease);
    return { at, answeredAt, token: lease ? String(lease.token) : null, homeAfter };
  };
  const observation: ClusterObservation = {
    variant,
    home,
    aNode: nodes.nodeOf('A').id,
    bNode: nodes.nodeOf('B').id,
    ...(unreadable ? { unreadable } : {}),
    asked,
    measuredBefore,
    measuredAfter: {},
    aFirst: { at: 0, answeredAt: 0, token: null, homeAfter: null },
    bLate: null,
    aAgain: null,
  };
  const inWords =
    point &&
    `${stepped}'s wall clock (${p.steppedNode === 'a-node' ? "A's node" : "the key's home"}) was stepped ${signed(wallStepMs)} ms the moment the message ${boundaryLabel(point.boundary)} reached its link proxy, then the message went on`;
  s.progress(
    inWords
      ? `${inWords}; A takes the lock`
      : `${variant}: ${home ?? "the key's home"}'s clocks ${signed(offset)} ms; A takes the lock`,
  );
  // The point's fault steps the node's clock by --skew (its direction the fault's) as the message
  // arrives; it says itself what was missed when the message never came.
  const step = point && armLinkPoint(point, nodes, boundaryLabel(point.boundary), '', { node: stepped!, ms: p.skew });
  let stepLanded = false;
  step?.reached.then(
    () => (stepLanded = true),
    () => undefined,
  );
  observation.aFirst = await tries(a, "A's first lock");
  if (step) {
    // A's lock ended: a step still waiting for its message is disarmed, never landed later.
    step.release();
    observation.point = {
      inWords: inWords!,
      node: stepped!,
      wallStepMs,
      landed: stepLanded,
      missed: step.missed,
    };
    observation.askedAfter = offsetsNow();
  }
  if (observation.aFirst.token) {
    // A's delegation lapses --ttl after its grant by the home's clock at the latest (the grant came before A's answer).
    await s.sleep(Math.max(0, observation.aFirst.answeredAt + p.ttl + p.margin - s.now()));
    const bAt = s.now();
    const bLease = await b.acquire();
    const bAnsweredAt = s.now();
    const bHome = await homeView("the home's view right after B's lock");
    observation.bLate = {
      at: bAt,
      answeredAt: bAnsweredAt,
      token: bLease ? String(bLease.token) : null,
      homeAfter: bHome,
    };
    if (bLease) {
      observation.aAgain = await tries(a, "A's lock again, while B holds");
      await b.release(bLease);
    }
  }
  observation.measuredAfter = await measureAll();
  return { point: null, legs: [], cluster: observation };
}
