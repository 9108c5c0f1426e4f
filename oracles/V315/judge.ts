/**
 * V315's judgement, a pure function of what play recorded: A's writes must stop before B's first
 * (no accepted write by A after it, in the resource's arrival order). Judged only when A led and
 * wrote, its cut really stopped its renewals (--fault failover: instead, the failover lost A's leader
 * key and B led on the promoted node inside A's lease, ./failover-checks.ts), B led and wrote while A
 * was cut off, and A's offending writes came while B's lease was live by the store's own clock.
 */
import { nothingProven, type Check, type Judgement } from '../../src/core/judgement.ts';
import type { ParamValues } from '../../src/core/params.ts';
import type { EffectRecord } from '../../src/core/resource.ts';
import { leaseAtWrites, leaseAtWritesInWords } from '../../src/judging/lease-at-write.ts';
import { takeoverCounts, takeoverDetail, takeoverWindow, writesAfterTakeover } from '../../src/judging/takeover.ts';
import type { Recorded } from '../../src/oracle/definition.ts';
import { fencesAfterFailover } from '../../src/judging/failover-loss.ts';
import { CONTENDER_PRECONDITIONS, judgeContenders } from './judge-contenders.ts';
import { failoverChecks, FAILOVER_PRECONDITIONS } from './failover-checks.ts';
import type { V315Observations } from './observations.ts';
import { cutFaultName, type v315Params } from './params.ts';
import { CONNECTION_KILLED } from '../../src/faults/generic/connection-killed.ts';

export const A_LED = 'A led and wrote';
export const HELD_AT_POINT = 'A was held at the explored point';
export const RENEWALS_STOPPED = "A's renewals were stopped or refused at the wire";
export const B_LED_WHILE_CUT = 'B became leader and wrote while A was cut off';
export const B_LEASE_LIVE = "B's lease was live at A's writes after B's first";

export const V315_PRECONDITIONS = [
  { name: A_LED, checks: 'A made its first leader write within --timeout' },
  {
    name: HELD_AT_POINT,
    checks: "on an --explore run, A's leader loop reached the explored point (the rest of its traffic then blackholed)",
  },
  {
    name: RENEWALS_STOPPED,
    checks:
      "A's wire proxy stopped at least one command or refused at least one reconnect while A was cut off (for kill, the store closed at least one of A's connections)",
  },
  { name: B_LED_WHILE_CUT, checks: "B's first leader write reached the resource while A's cut was still in force" },
  {
    name: B_LEASE_LIVE,
    checks:
      "at least one of A's accepted writes after B's first came while B's lease was live, by B's lock read in the store just before the harness accepted that write (on Postgres: a declared lease row, or B's session advisory lock)",
  },
  ...CONTENDER_PRECONDITIONS,
  ...FAILOVER_PRECONDITIONS,
];

type Params = ParamValues<typeof v315Params>;

export function judgeV315({ observations: o, effects: all }: Recorded<V315Observations>, p: Params): Judgement {
  // What reached the resource while play watched; anything later (holders closing) is not judged.
  const effects = all.filter((e) => e.t <= o.watchedUntil);
  const preconditions: Check[] = [aLed(o, p)];
  if (o.point) preconditions.push(heldAtPoint(o.point, p));
  // A failover loses A's leader key instead of stopping its renewals: B leads inside A's lease.
  if (o.failover)
    preconditions.push(
      ...failoverChecks(
        o.failover,
        effects.find((e) => e.holder === 'B'),
      ),
    );
  else if (o.cut && !o.point) preconditions.push(renewalsStopped(o.cut, p));
  // --contenders 3 or more: every pair of holders is judged (./judge-contenders.ts).
  if (o.contenders) return judgeContenders(o, o.contenders, effects, p, preconditions);
  if (o.cut) preconditions.push(bLedWhileCut(o, o.cut, effects, p));

  const takeover = writesAfterTakeover(effects, 'A', 'B');
  const { staleAfter: aAfter, staleAcceptedAfter: aAcceptedAfter, overlapMs } = takeover;
  const held = aAcceptedAfter.length === 0;
  // Judged only inside the window the property is about: B's lease still live by the store's
  // clock. On a loaded machine B's own renewals can come late, its lease lapse, and A (its cut
  // lifted) re-take a free lock and write: those writes are not A acting beside a leader.
  if (!held) preconditions.push(bLeaseLive(o, aAcceptedAfter));
  return {
    preconditions,
    counts: takeoverCounts(takeover, effects),
    property: {
      name: "A's writes stop before B's first write",
      held,
      detail: takeoverDetail(takeover, 'leaders'),
      offending: aAcceptedAfter,
      ...takeoverWindow(takeover, 'leaders'),
    },
    explanation:
      explain() +
      (o.inferred
        ? ` Where the lock lives was inferred from A's own leader loop (${o.inferred.from}), the target declaring no storeKey.`
        : ''),
  };

  function explain(): string {
    const unproven = nothingProven(preconditions);
    if (unproven) return unproven;
    const cutHow = o.point
      ? `cut at ${o.point.label} (${o.point.inWords}; everything else A sent blackholed)`
      : o.cut?.partitioned
        ? `cut off with its node (${o.cut.how}; the node's renewals with the key's home dropped)`
        : o.cut?.atFilesystem
          ? `held at its filesystem calls (each held before it ran)${p.fault === 'partition' ? ' and its writes held on their way to the resource' : ''}`
          : {
              blackhole: 'blackholed at its wire proxy',
              partition: 'blackholed at its wire proxy and its writes held on their way to the resource',
              drop: 'dropped at its wire proxy (reset, reconnects refused)',
              'connection-killed': 'killed by the store (reconnects refused at its wire proxy)',
            }[cutFaultName(p.fault)];
    const f = o.failover;
    const how = f
      ? `A led with a ${p.ttl} ms lease and wrote, its leader key on the master alone (replication held); at ${o.point ? `${o.point.label} (the command run on the master, its reply held; everything else A sent blackholed)` : 'that write'} the master (${f.killed}) was SIGKILLed and ${f.promoted} promoted (${f.how}), so the key was lost and B became leader there and wrote inside A's lease, while A ran on with its store traffic held at its proxy (until ${p.observe} ms after B's first write)`
      : `A led with a ${p.ttl} ms lease and wrote; then its connection was ${cutHow} ` +
        `while the process kept running, so its renewals failed; its lease lapsed and B became leader and wrote`;
    const accepted = aAcceptedAfter.length;
    const rejected = aAfter.length - accepted;
    const fences = f ? fencesAfterFailover(takeover.takerFirst, aAcceptedAfter) : undefined;
    if (!held) {
      return (
        `${how}. A went on acting as leader: ${accepted} of its write(s) reached the resource after B's first, so two leaders acted at once ` +
        `(overlap ${overlapMs.toFixed(1)} ms by the resource's clock). ` +
        (fences ??
          'The leader trusts a flag or a lease taken earlier instead of re-checking before each effect, and its writes carry no fencing token.')
      );
    }
    return rejected
      ? `${how}. A kept trying to write (${rejected} write(s) after B's first) but each carried a stale fencing token and the resource rejected it: the fence held.`
      : `${how}. A's writes stopped before B's first: it re-checked its leadership before acting and stepped down when it could not confirm it${f ? ` (held at its proxy it could not confirm it, and after the failover only ${f.promoted}, where B led, could answer)` : ''}.`;
  }
}

function aLed(o: V315Observations, p: Params): Check {
  return {
    name: A_LED,
    held: o.aFirstWriteAt !== null,
    detail:
      o.aFirstWriteAt !== null
        ? `A made its first leader write at ${o.aFirstWriteAt} ms`
        : `A made no leader write within ${p.timeout} ms (${o.aLoopReturned ? 'its leader loop returned' : 'still running'}): it never led, so nothing can be judged`,
  };
}

function heldAtPoint(point: NonNullable<V315Observations['point']>, p: Params): Check {
  return {
    name: HELD_AT_POINT,
    held: point.reached === 'held',
    detail:
      point.reached === 'held'
        ? `${point.inWords}; the rest of A's traffic blackholed`
        : point.reached === 'ended'
          ? point.missed
          : `A's leader loop did not reach the point (${point.label}) within ${p.timeout} ms of its first write`,
  };
}

function renewalsStopped(
  { how, killed, stopped, partitioned, atFilesystem }: NonNullable<V315Observations['cut']>,
  p: Params,
): Check {
  if (partitioned)
    return {
      name: RENEWALS_STOPPED,
      held: partitioned.dropped > 0,
      detail:
        partitioned.dropped > 0
          ? `${how}: the partition dropped ${partitioned.dropped} link message(s) to or from it (${partitioned.samples.join('; ')})`
          : `${how}, but no message crossed the partition: A's node never tried to renew with the home, so its lease lapsing is not V315's fault (a lease with no renewal is V313's)`,
    };
  if (!stopped) throw new Error('V315: a cut at the wire or the filesystem has no record of what it held');
  const stoppedA = stopped.commandsAffected + stopped.refusedConnections;
  const killedOk = cutFaultName(p.fault) !== CONNECTION_KILLED.name || killed > 0;
  return {
    name: RENEWALS_STOPPED,
    held: stoppedA > 0 && killedOk,
    detail: !killedOk
      ? `the store closed none of A's connections (${how}): A was not cut off`
      : stoppedA > 0
        ? p.fault === 'blackhole' || p.fault === 'partition'
          ? `${atFilesystem ? "A's filesystem boundaries held" : "A's wire proxy stopped"} ${stopped.commandsAffected} ${atFilesystem ? 'call(s) A made' : 'command(s) A sent'} while cut off (${stopped.sampleCommands.slice(0, 2).join('; ')})`
          : `${cutFaultName(p.fault) === CONNECTION_KILLED.name ? `the store closed ${killed} of A's connection(s) (${how}) and` : `A's wire proxy reset ${stopped.connections.length} connection(s) and`} refused ${stopped.refusedConnections} reconnect(s) while A was cut off`
        : "A sent nothing to the store while it was cut off: it never tried to renew, so its lease lapsing is not V315's fault (a lease with no renewal is V313's)",
  };
}

function bLedWhileCut(
  o: V315Observations,
  cut: NonNullable<V315Observations['cut']>,
  effects: readonly EffectRecord[],
  p: Params,
): Check {
  // B's first write is the one play held B at: it reached the resource before the latch did.
  const bFirstWrite = o.bWrote ? effects.find((e) => e.holder === 'B') : undefined;
  return {
    name: B_LED_WHILE_CUT,
    held: o.bWroteWhileCut && bFirstWrite !== undefined,
    detail: bFirstWrite
      ? `B's first leader write (resource #${bFirstWrite.seq}) came ${(bFirstWrite.t - (cut.stopped?.fromMs ?? cut.partitioned?.fromMs ?? 0)).toFixed(1)} ms after A was cut off; the lease was ${p.ttl} ms`
      : o.bWrote
        ? 'B wrote only after the cut was lifted, so the fault did not land'
        : `B did not lead and write within ${p.timeout} ms of A being cut off: A's lease never lapsed, so the fault did not land`,
  };
}

/** A's accepted writes after B's first count only while B's lease was live, each judged by B's lock read just before it was accepted. */
function bLeaseLive(o: V315Observations, aAcceptedAfter: readonly EffectRecord[]): Check {
  const judged = o.bLease ? leaseAtWrites(aAcceptedAfter, o.bLease.atAWrites, o.bLease.atFirstWrite) : [];
  return { name: B_LEASE_LIVE, held: judged.some((w) => w.live), detail: leaseAtWritesInWords(judged) };
}
