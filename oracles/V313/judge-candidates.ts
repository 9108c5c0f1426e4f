/**
 * V313's judgement with --contenders 3 or more, pure: no two holders write under the lock at once.
 * For every pair that wrote (ordered by their first writes at the resource), the earlier one's
 * accepted writes after the later one's first count while the later one's lease was live by the
 * lock read just before the harness accepted each (src/judging/leaders-at-once.ts): A's writes
 * after any successor's first, and any two successors' writes interleaving. Judged only when the
 * fault landed: a successor wrote while A was stopped, or, a point on a successor, A was killed and
 * that successor held at the point while another wrote.
 */
import { nothingProven, type Check, type Judgement } from '../../src/core/judgement.ts';
import type { ParamValues } from '../../src/core/params.ts';
import type { EffectRecord } from '../../src/core/resource.ts';
import { actingAtOnce, pairInWords, pairsOfWriters } from '../../src/judging/leaders-at-once.ts';
import type { CandidatesSeen } from './observations.ts';
import type { v313Params } from './params.ts';

export const SUCCESSOR_WROTE_WHILE_STOPPED = 'a successor took the lock and wrote while A was stopped';
export const A_KILLED_AT_WRITE = 'A was killed at its first write';
export const SUCCESSOR_HELD = 'the successor was held at the explored point';
export const OTHERS_WROTE_WHILE_HELD = 'another successor took the lock and wrote while it was held';
export const LATER_LEASE_LIVE = "the later holder's lease was live at the earlier one's writes after its first";

export const CANDIDATE_PRECONDITIONS = [
  {
    name: SUCCESSOR_WROTE_WHILE_STOPPED,
    checks: "--contenders 3 or more: the first write of B, C, … reached the resource while A's stop was in force",
  },
  {
    name: A_KILLED_AT_WRITE,
    checks: "--explore, a point on a successor: A's process, held at its first write, ended by SIGKILL",
  },
  {
    name: SUCCESSOR_HELD,
    checks:
      "--explore, a point on a successor: its job, started once A's lease had lapsed, reached the point inside its take of the lock",
  },
  {
    name: OTHERS_WROTE_WHILE_HELD,
    checks:
      "--explore, a point on a successor: another successor's write reached the resource while the held one waited",
  },
  {
    name: LATER_LEASE_LIVE,
    checks:
      "--contenders 3 or more: of the pairs where the earlier holder wrote after the later one's first write, at least one such write came while the later one's lease was live, by the lock read just before the harness accepted it",
  },
];

type Params = ParamValues<typeof v313Params>;

/**
 * What to do about two holders writing at once, for both ways a lock changes hands: the takers
 * themselves (a Redis key or a lock file found stale, then deleted and re-created) or the store
 * (an etcd lease or a ZooKeeper session the server ended, its key or ephemeral node gone with it).
 */
const TWO_AT_ONCE_ADVICE =
  'Where the takers take a stale lock over themselves (a check that it is stale, then a delete and a re-create), a successor delayed between its check and its delete removes the lock another has just taken: take it over in one atomic step (a compare-and-swap on the value seen). ' +
  "Where the store ends the lease itself (an etcd lease, a ZooKeeper session), the earlier holder wrote on after its lease or session was gone and learnt it too late: stop the work when the client reports the loss (etcd3's lease 'lost', Curator's and kazoo's SUSPENDED/LOST) and, since that report can come late, fence each write with a token that only grows (the lock key's create revision on etcd, the lock node's czxid or sequence number on ZooKeeper), checked at the resource.";

export function judgeCandidates(
  c: CandidatesSeen,
  effects: readonly EffectRecord[],
  p: Params,
  base: Check[],
): Judgement {
  const preconditions = [...base];
  if (c.held) {
    preconditions.push({
      name: A_KILLED_AT_WRITE,
      held: c.aKilled?.signal === 'SIGKILL',
      detail: `A's process ended with ${c.aKilled?.signal ?? 'no signal'} at ${c.aKilled?.t.toFixed(1) ?? '?'} ms`,
    });
    const h = c.held;
    preconditions.push({
      name: SUCCESSOR_HELD,
      held: h.reached === 'held',
      detail:
        h.reached === 'held'
          ? h.inWords
          : h.reached === 'ended'
            ? h.missed.replace(/^A's/, `${h.holder}'s`)
            : `${h.holder}'s job did not reach the point (${h.label}) within ${p.timeout} ms`,
    });
    if (h.reached === 'held')
      preconditions.push({
        name: OTHERS_WROTE_WHILE_HELD,
        held: h.othersWrote !== null,
        detail: h.othersWrote
          ? `${h.othersWrote.holder} wrote at ${h.othersWrote.t.toFixed(1)} ms while ${h.holder} was held`
          : `no other successor took the lock and wrote within ${p.timeout} ms while ${h.holder} was held, so the fault did not land`,
      });
  } else {
    preconditions.push({
      name: SUCCESSOR_WROTE_WHILE_STOPPED,
      held: c.wroteWhileStopped,
      detail: c.firstWriter
        ? `${c.firstWriter.holder} wrote first of ${c.ids.join(', ')}, at ${c.firstWriter.t.toFixed(1)} ms, ${c.wroteWhileStopped ? 'while A was stopped' : 'only once A was let go, so the fault did not land'}`
        : `none of ${c.ids.join(', ')} took the lock and wrote within ${p.timeout} ms of A's stop: A's lease never lapsed, so the fault did not land`,
    });
  }
  const pairs = pairsOfWriters(effects, c.readings);
  const after = pairs.filter((pair) => pair.takeover.staleAcceptedAfter.length > 0);
  const atOnce = actingAtOnce(pairs);
  const held = after.length === 0;
  if (!held)
    preconditions.push({
      name: LATER_LEASE_LIVE,
      held: atOnce.length > 0,
      detail: (atOnce.length ? atOnce : after).map(pairInWords).join('; '),
    });
  const writers = [...new Set(effects.map((e) => e.holder))];
  const rejected = pairs.reduce(
    (n, pair) => n + pair.takeover.staleAfter.length - pair.takeover.staleAcceptedAfter.length,
    0,
  );
  return {
    preconditions,
    counts: {
      holders: 1 + c.ids.length,
      holdersThatWrote: writers.length,
      ...Object.fromEntries(
        writers.map((w) => [`${w.toLowerCase()}Writes`, effects.filter((e) => e.holder === w).length]),
      ),
      pairsWritingAfterTheNext: after.length,
      pairsWritingAtOnce: atOnce.length,
      writesRejectedByFence: rejected,
      overlapMs: Math.max(0, ...after.map((pair) => pair.takeover.overlapMs)),
    },
    property: {
      name: 'no two holders write under the lock at once',
      held,
      detail: held
        ? `${writers.length} of the ${1 + c.ids.length} holders wrote (${writers.join(', ')}); each one's accepted writes came before the next one's first`
        : after
            .map(
              (pair) =>
                `${pair.earlier} made ${pair.takeover.staleAcceptedAfter.length} accepted write(s) after ${pair.later}'s first (resource #${pair.takeover.takerFirst?.seq})`,
            )
            .join('; '),
      offending: (atOnce.length ? atOnce : after).flatMap((pair) => pair.takeover.staleAcceptedAfter),
    },
    explanation: explain(),
  };

  function explain(): string {
    const unproven = nothingProven(preconditions);
    if (unproven) return unproven;
    const others = c.held ? c.ids.filter((id) => id !== c.held!.holder).join(', ') : '';
    const how = c.held
      ? `A took the lock, wrote once and was killed (SIGKILL); once its ${p.ttl} ms lease had lapsed, ${c.held.inWords} while ${others} ran the job, and ${c.held.othersWrote?.holder ?? 'another'} took the lock and wrote`
      : `A, holding a ${p.ttl} ms lease, was stopped after its first write while ${c.ids.join(', ')} ran the job together; then A resumed`;
    if (!held)
      return (
        `${how}. ${atOnce.map((pair) => `${pair.earlier} went on writing after ${pair.later} took the lock: ${pair.takeover.staleAcceptedAfter.length} accepted write(s) after ${pair.later}'s first, inside ${pair.later}'s live lease`).join('; ')}: two holders wrote under the lock at once. ` +
        TWO_AT_ONCE_ADVICE
      );
    return `${how}. No two of the ${1 + c.ids.length} holders wrote under the lock at once: each one's accepted writes came before the next one's first${rejected ? ` (${rejected} later write(s) rejected by the fence)` : ''}.`;
  }
}
