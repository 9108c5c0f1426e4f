/**
 * V315's judgement with --contenders 3 or more, pure: no two holders may act as leader at once. For
 * every pair that wrote (the earlier one's first write arrived first at the resource), the earlier
 * one's accepted writes after the later one's first count while the later one's lease was live by
 * the lock read just before the harness accepted each (src/judging/leaders-at-once.ts). Judged only
 * when the fault landed: A cut off while the first candidate led and wrote, or, a point on a
 * candidate, A killed and that candidate held at the point while another led and wrote.
 */
import { nothingProven, type Check, type Judgement } from '../../src/core/judgement.ts';
import type { ParamValues } from '../../src/core/params.ts';
import type { EffectRecord } from '../../src/core/resource.ts';
import { actingAtOnce, pairInWords, pairsOfWriters } from '../../src/judging/leaders-at-once.ts';
import type { ContenderHeld, ContendersSeen, V315Observations } from './observations.ts';
import type { v315Params } from './params.ts';

export const CANDIDATE_LED_WHILE_CUT = 'a candidate became leader and wrote while A was cut off';
export const A_KILLED = 'A was killed once it led';
export const CANDIDATE_HELD = 'the candidate was held at the explored point';
export const OTHERS_LED_WHILE_HELD = 'another candidate led and wrote while it was held';
export const LATER_LEASE_LIVE = "the later leader's lease was live at the earlier one's writes after its first";

export const CONTENDER_PRECONDITIONS = [
  {
    name: CANDIDATE_LED_WHILE_CUT,
    checks: "--contenders 3 or more: the first write of B, C, … reached the resource while A's cut was still in force",
  },
  {
    name: A_KILLED,
    checks: "--explore, a point on a candidate: A's process, held at its first write, ended by SIGKILL",
  },
  {
    name: CANDIDATE_HELD,
    checks:
      "--explore, a point on a candidate: its leader loop, started once A's lease had lapsed in the store, reached the point (a command of its election held before it, or its reply held)",
  },
  {
    name: OTHERS_LED_WHILE_HELD,
    checks:
      "--explore, a point on a candidate: another candidate's write reached the resource while the held one waited",
  },
  {
    name: LATER_LEASE_LIVE,
    checks:
      "--contenders 3 or more: of the pairs where the earlier leader wrote after the later one's first write, at least one such write came while the later one's lease was live, by the lock read just before the harness accepted it",
  },
];

type Params = ParamValues<typeof v315Params>;

export function judgeContenders(
  o: V315Observations,
  c: ContendersSeen,
  effects: readonly EffectRecord[],
  p: Params,
  base: Check[],
): Judgement {
  const preconditions = [...base];
  if (c.held) {
    preconditions.push({
      name: A_KILLED,
      held: c.aKilled?.signal === 'SIGKILL',
      detail: `A's process ended with ${c.aKilled?.signal ?? 'no signal'} at ${c.aKilled?.t.toFixed(1) ?? '?'} ms`,
    });
    preconditions.push(candidateHeld(c.held, p));
    if (c.held.reached === 'held') preconditions.push(othersLed(c.held, p));
  } else if (o.cut) {
    preconditions.push({
      name: CANDIDATE_LED_WHILE_CUT,
      held: c.ledWhileCut,
      detail: c.firstLeader
        ? `${c.firstLeader.holder} wrote first of ${c.ids.join(', ')}, at ${c.firstLeader.t.toFixed(1)} ms, ${c.ledWhileCut ? 'while A was cut off' : 'only after the cut was lifted, so the fault did not land'}`
        : `none of ${c.ids.join(', ')} led and wrote within ${p.timeout} ms of A being cut off: A's lease never lapsed, so the fault did not land`,
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
  const shown = atOnce[0] ?? after[0];
  const lastOfShown = shown?.takeover.staleAcceptedAfter.at(-1);
  const writers = [...new Set(effects.map((e) => e.holder))];
  return {
    preconditions,
    counts: {
      holders: 1 + c.ids.length,
      leadersThatWrote: writers.length,
      ...Object.fromEntries(
        writers.map((w) => [`${w.toLowerCase()}Writes`, effects.filter((e) => e.holder === w).length]),
      ),
      pairsWritingAfterTheNext: after.length,
      pairsActingAtOnce: atOnce.length,
      overlapMs: Math.max(0, ...after.map((pair) => pair.takeover.overlapMs)),
    },
    property: {
      name: 'no two leaders act at once',
      held,
      detail: held
        ? `${writers.length} of the ${1 + c.ids.length} holders led and wrote (${writers.join(', ')}); each one's writes stopped before the next one's first`
        : after
            .map(
              (pair) =>
                `${pair.earlier} made ${pair.takeover.staleAcceptedAfter.length} accepted write(s) after ${pair.later}'s first (resource #${pair.takeover.takerFirst?.seq})`,
            )
            .join('; '),
      offending: (atOnce.length ? atOnce : after).flatMap((pair) => pair.takeover.staleAcceptedAfter),
      ...(shown?.takeover.takerFirst && lastOfShown
        ? {
            window: {
              from: shown.takeover.takerFirst.t,
              to: lastOfShown.t,
              what: `two leaders acted at once: ${shown.later}'s first write (#${shown.takeover.takerFirst.seq}) to ${shown.earlier}'s last accepted write (#${lastOfShown.seq})`,
            },
          }
        : {}),
    },
    explanation: explain(),
  };

  function explain(): string {
    const unproven = nothingProven(preconditions);
    if (unproven) return unproven;
    const how = c.held
      ? `A led with a ${p.ttl} ms lease and wrote, and was killed (SIGKILL); once its lease had lapsed, ${c.held.inWords} while ${others(c.held)} ran ${c.ids.length > 2 ? 'their leader loops' : 'its leader loop'}, and ${c.held.othersLed?.holder ?? 'another'} led and wrote`
      : `A led with a ${p.ttl} ms lease and wrote; then it was cut off (${o.cut?.how ?? 'at its point'}) while its process kept running, and ${c.ids.join(', ')} ran their leader loops together`;
    if (!held)
      return (
        `${how}. ${atOnce.map((pair) => `${pair.earlier} went on acting as leader after ${pair.later} led: ${pair.takeover.staleAcceptedAfter.length} accepted write(s) after ${pair.later}'s first, inside ${pair.later}'s live lease`).join('; ')}: two leaders acted at once. ` +
        'Elect in one atomic step (on Redis SET key token PX ttl NX, never GET then SET: two candidates that both saw the key free both win, the later SET overwriting the earlier winner while it acts on its lease), and fence or re-check each write.'
      );
    return `${how}. No two of the ${1 + c.ids.length} holders acted at once: each leader's writes stopped before the next one's first.`;
  }

  function others(h: ContenderHeld): string {
    return c.ids.filter((id) => id !== h.holder).join(', ');
  }
}

function candidateHeld(h: ContenderHeld, p: Params): Check {
  return {
    name: CANDIDATE_HELD,
    held: h.reached === 'held',
    detail:
      h.reached === 'held'
        ? h.inWords
        : h.reached === 'ended'
          ? h.missed.replace(/^A's/, `${h.holder}'s`)
          : `${h.holder}'s leader loop did not reach the point (${h.label}) within ${p.timeout} ms`,
  };
}

function othersLed(h: ContenderHeld, p: Params): Check {
  return {
    name: OTHERS_LED_WHILE_HELD,
    held: h.othersLed !== null,
    detail: h.othersLed
      ? `${h.othersLed.holder} wrote at ${h.othersLed.t.toFixed(1)} ms while ${h.holder} was held`
      : `no other candidate led and wrote within ${p.timeout} ms while ${h.holder} was held, so the fault did not land`,
  };
}
