/**
 * V317's judgement on a cluster (./cluster-play.ts), a pure function of what play recorded: once A's
 * delegation has lapsed by the home's clock, B must be granted the lock (no skipped takeover), and
 * while the home's grant to B's node is live, A must be denied (no double grant: A's node admitting
 * on a delegation the home no longer has). In home-behind, A's first lock on the free key must be
 * granted, not denied while the home holds a live grant for it (a grant its node threw away).
 * Judged only when the nodes could be read (inspect), each node's clocks were as asked, and a double
 * grant was answered while the home's grant to B's node was live; an explored point only when its
 * node's clock step landed at its message (the variant is then what that step amounts to).
 */
import type { Check, Judgement } from '../../src/core/judgement.ts';
import { nothingProven } from '../../src/core/judgement.ts';
import type { HistoryEvent } from '../../src/core/history.ts';
import type { ParamValues } from '../../src/core/params.ts';
import type { DeclaredCheck } from '../../src/oracle/definition.ts';
import { signed } from './legs.ts';
import type { ClusterObservation } from './observations.ts';
import type { v317Params } from './params.ts';

export const CLUSTER_READABLE = 'cluster: the nodes report the lock (inspect)';
export const CLUSTER_CLOCKS_HELD = "cluster: each node's clocks were as asked";
export const CLUSTER_STEP_LANDED = "cluster: an explored point's clock step landed at its message";
export const CLUSTER_A_LOCKED = 'cluster: A took the lock';
export const CLUSTER_AGAIN_IN_B_GRANT =
  "cluster: A's second lock was answered while the home's grant to B's node was live";

export const V317_CLUSTER_PRECONDITIONS: DeclaredCheck[] = [
  {
    name: CLUSTER_READABLE,
    checks:
      "the target has an inspect member, so the harness reads the home's grant (its holder, token and time left by its own clock); without it nothing about the grant can be judged",
  },
  {
    name: CLUSTER_CLOCKS_HELD,
    checks:
      "each node's wall and monotonic clocks, read inside the node before A's first lock and after A's last try, were within min(500, --skew / 2) ms (plus half the read's round trip) of the offsets asked",
  },
  {
    name: CLUSTER_STEP_LANDED,
    checks:
      "an explored point: the message of A's first lock at the point's boundary reached its link proxy, and the node's wall clock was stepped while the proxy held it",
  },
  {
    name: CLUSTER_A_LOCKED,
    checks:
      "home-ahead: A's first lock on the free key was granted (home-behind judges a denial there: a grant the home gave A's node and its node threw away)",
  },
  {
    name: CLUSTER_AGAIN_IN_B_GRANT,
    checks:
      "a double grant counts only when, read right after A's second lock was granted, the home still had a live grant carrying B's token",
  },
];

export function judgeV317OnCluster(
  o: ClusterObservation,
  p: ParamValues<typeof v317Params>,
  history: readonly HistoryEvent[],
): Judgement {
  const tolerance = Math.min(500, p.skew / 2);
  // An explored point's step falls between the two reads: the later one is read against the offsets after it.
  const askedFor = { measuredBefore: o.asked, measuredAfter: o.askedAfter ?? o.asked };
  const clockErrors = (['measuredBefore', 'measuredAfter'] as const).flatMap((when) =>
    Object.entries(o[when]).flatMap(([node, m]) =>
      (['wallMs', 'monotonicMs'] as const)
        .filter((k) => Math.abs(m[k] - (askedFor[when][node]?.[k] ?? 0)) > tolerance + m.roundTripMs / 2)
        .map(
          (k) =>
            `${node}'s ${k === 'wallMs' ? 'wall' : 'monotonic'} clock read ${signed(m[k])} ms ${when === 'measuredBefore' ? 'before' : 'after'}, asked ${signed(askedFor[when][node]?.[k] ?? 0)}`,
        ),
    ),
  );
  const homeAsked = o.home ? o.asked[o.home] : undefined;
  const freeDenied = !o.aFirst.token && o.aFirst.homeAfter?.exists === true;
  const again = o.aAgain;
  const bToken = o.bLate?.token ?? null;
  const bGrantLive = again?.homeAfter?.exists === true && again.homeAfter.value === bToken;
  const point = o.point;
  const preconditions: Check[] = [
    { name: CLUSTER_READABLE, held: !o.unreadable, detail: o.unreadable ?? `the home (${o.home}) answered inspect` },
    ...(point
      ? [{ name: CLUSTER_STEP_LANDED, held: point.landed, detail: point.landed ? point.inWords : point.missed }]
      : []),
    {
      name: CLUSTER_CLOCKS_HELD,
      held: clockErrors.length === 0,
      detail: clockErrors.length
        ? clockErrors.join('; ')
        : point
          ? `every node's clocks real before A's first lock; after it ${point.node}'s wall clock ${signed(point.wallStepMs)} ms, read inside each node before and after (±${tolerance} ms)`
          : `the home ${o.home}: wall and monotonic ${signed(homeAsked?.wallMs ?? 0)} ms, the other nodes real, read inside each node before and after (±${tolerance} ms)`,
    },
    {
      name: CLUSTER_A_LOCKED,
      held: o.aFirst.token !== null || (o.variant === 'home-behind' && freeDenied),
      detail: o.aFirst.token
        ? `A took the lock through ${o.aNode} at ${o.aFirst.answeredAt.toFixed(1)} ms (token ${o.aFirst.token})`
        : freeDenied
          ? `A was denied the free lock while the home reported a live grant (token ${o.aFirst.homeAfter?.value})`
          : 'A was denied the free lock and the home reported no grant, so nothing was tested',
    },
    ...(again?.token
      ? [
          {
            name: CLUSTER_AGAIN_IN_B_GRANT,
            held: bGrantLive,
            detail: bGrantLive
              ? `read right after A's second lock, the home still had B's grant (token ${bToken}, ${again.homeAfter!.pttlMs} ms left by its clock)`
              : `read right after A's second lock, the home had ${again.homeAfter?.exists ? `a grant with token ${again.homeAfter.value}, not B's ${bToken}` : 'no live grant'}: B's may have lapsed on time`,
          },
        ]
      : []),
  ];
  const skippedB = o.bLate !== null && o.bLate.token === null;
  const doubleGrant = again?.token != null;
  const skippedA = o.variant === 'home-behind' && freeDenied;
  const held = !skippedA && !skippedB && !doubleGrant;
  const described: string[] = [];
  if (skippedA)
    described.push(
      `A was denied the free lock though the home granted ${o.aNode} (the home reported token ${o.aFirst.homeAfter?.value} live): the grant was read on another clock and looked expired`,
    );
  if (o.aFirst.token && skippedB)
    described.push(
      `B was still denied ${(o.bLate!.at - o.aFirst.answeredAt).toFixed(0)} ms after A's lock, past A's ${p.ttl} ms delegation (skipped takeover)`,
    );
  if (o.bLate?.token)
    described.push(
      `B took the lock ${(o.bLate.at - o.aFirst.answeredAt).toFixed(0)} ms after A's, once A's ${p.ttl} ms delegation had lapsed (on time)`,
    );
  if (again)
    described.push(
      again.token
        ? `A was granted the lock again (token ${again.token}) while the home's grant was B's (double grant)`
        : 'A was denied while B held (its node asked the home, or knew its delegation had lapsed)',
    );
  const offending = history.filter(
    (e) =>
      (e.kind === 'acquire-ok' || e.kind === 'acquire-denied') &&
      ((doubleGrant && e.holder === 'A' && e.t >= again!.at) ||
        (skippedB && e.holder === 'B') ||
        (skippedA && e.holder === 'A')),
  );
  const setting = point
    ? `${point.inWords} (the home ${o.home}, A's node ${o.aNode}); A took the lock through ${o.aNode} and released it, B tried through ${o.bNode} ${p.margin} ms after A's ${p.ttl} ms delegation lapsed, then A again while B held.`
    : `The key's home ${o.home} ran its wall and monotonic clocks ${signed(homeAsked?.wallMs ?? 0)} ms off the other nodes' (${o.variant}); A took the lock through ${o.aNode} and released it, B tried through ${o.bNode} ${p.margin} ms after A's ${p.ttl} ms delegation lapsed, then A again while B held.`;
  const unproven = nothingProven(preconditions);
  return {
    preconditions,
    counts: {
      ttlMs: p.ttl,
      skewMs: p.skew,
      doubleGrants: doubleGrant ? 1 : 0,
      skippedTakeovers: (skippedA ? 1 : 0) + (skippedB ? 1 : 0),
    },
    property: {
      name: 'no early takeover, no overlap, no skipped takeover',
      held,
      detail: described.join('; '),
      offending,
    },
    explanation:
      unproven ??
      (held
        ? `${setting} ${described.join('; ')}: each node reads its deadlines on its own clock.`
        : `${setting} ${described.join('; ')}. A delegation's deadline was written on the home's clock and read on the delegate's, so the ${p.skew} ms between them moved it. Count a delegation on the delegate's own monotonic clock from the request's send (the design), never a remote timestamp against a local clock.`),
  };
}
