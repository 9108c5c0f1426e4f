/**
 * V315 — a leader keeps acting after losing leadership.
 *
 * Scenario: replica A runs the target's leader loop through its own wire proxy and writes; B runs
 * the same loop directly and is denied while A leads. At A's first write, A is cut off from the
 * store at its proxy (blackhole: nothing delivered either way; drop: its connections reset and
 * reconnects refused; kill: the store itself closes A's connections — Redis CLIENT KILL, Postgres
 * pg_terminate_backend — and the proxy refuses reconnects) while its process keeps running, so its
 * renewals fail and its lease lapses;
 * B becomes leader and writes. The cut lasts until `observe` ms after B's first write; then it is
 * lifted and both loops are stopped through env.signal.
 * Property: A's writes stop before B's first write: no accepted write by A after B's first write
 * in the resource's arrival order (overlap 0, counted by writer identity at the resource).
 * Preconditions: A led and wrote; A's renewals were stopped or refused at the wire (the proxy stopped A's commands or
 * refused its reconnects); B became leader and wrote while A was cut off; a violation counts only
 * while B's lease was live by the store's clock (read at B's first write and as the cut is lifted):
 * A's writes on a lock B let lapse are not A acting beside a leader.
 * Window: from B's first write until both loops are told to stop (the cut plus `observe` ms after
 * it is lifted), and only while B's lease is live by the store's own clock: the key's PTTL on
 * Redis/Valkey; on Postgres the lease row the target declares with storeKey(env) (`{ table,
 * keyColumn, key, expiresColumn }`, read as `expiresColumn - now()`). On Postgres without that
 * declaration the lease cannot be read (any table, or a session advisory lock with no expiry), so a
 * violation there is INCONCLUSIVE, never FAIL: a machine loaded enough that B's renewals come late
 * lets B's lease lapse and A re-take a free lock (seen once in a 5-run selfcheck).
 * A leader loop that throws before its first write (A leading alone, or B waiting to lead: a
 * denied replica waits and retries, it does not end) is the target's error: ERROR naming leader().
 * A's loop may throw once it is cut off (its connection broken by the fault), and either loop once
 * env.signal aborted: that is the loop ending, judged.
 */
import { takeoverCounts, takeoverDetail, takeoverWindow, writesAfterTakeover } from '../src/judging/takeover.ts';
import { defineOracle } from '../src/oracle/definition.ts';
import { type Check, nothingProven } from '../src/core/judgement.ts';
import { throwIfTargetThrew, type CallOutcome } from '../src/holder/holder.ts';
import type { WireProxy, WireFaultHandle } from '../src/wire/proxy.ts';
import { killFromStore } from '../src/wire/store-kill.ts';
import type { Scenario } from '../src/oracle/scenario.ts';
import { armPoint } from '../src/oracle/arm-point.ts';
import { traceFromFirstWrite } from '../src/oracle/traces.ts';
import { boundaryLabel, pointInWords } from '../src/oracle/explore-point.ts';

/** How many of the leader loop's commands on the lock, after A's first write, --explore tries. */
const EXPLORED_COMMANDS = 2; // one take-or-extend round (SET NX, then the compare-and-pexpire), or two renewals

export default defineOracle({
  id: 'V315',
  title: 'Leader keeps acting after losing leadership',
  class: 'LK-7 a leader keeps acting after losing leadership',
  scenario:
    "A leads and writes; A's connection is cut at its wire proxy (blackholed or dropped) so its renewals fail while it keeps running; its lease lapses; B becomes leader and writes.",
  property:
    "A's writes stop before B's first write: no accepted write by A after B's (overlap 0, by writer identity at the resource).",
  stores: ['redis', 'valkey', 'postgres'],
  holders: ['A', 'B'],
  params: {
    ttl: { kind: 'ms', default: 300, min: 20, doc: 'leader lease the target is asked to use' },
    stepMs: {
      kind: 'ms',
      default: 20,
      min: 1,
      doc: 'time between two leader writes in the reference targets (env.params.stepMs)',
    },
    fault: {
      kind: 'choice',
      default: 'blackhole',
      choices: ['blackhole', 'drop', 'kill'],
      doc: "how A is cut off: blackhole (its proxy delivers nothing either way, the connection stays open), drop (its proxy resets its connections and refuses reconnects), kill (the store closes A's connections: CLIENT KILL / pg_terminate_backend; its proxy refuses reconnects)",
    },
    observe: {
      kind: 'ms',
      default: 300,
      min: 0,
      doc: "how long A stays cut off after B's first write, watching for A's writes",
    },
    timeout: {
      kind: 'ms',
      default: 5000,
      min: 100,
      doc: 'longest wait for any step (A leading, B taking over, the loops stopping)',
    },
  },
  needs: () => ['leader'],
  validate: (p) =>
    p.timeout <= p.ttl
      ? [`--timeout (${p.timeout}) must be longer than --ttl (${p.ttl}): B can only lead after A's lease lapses`]
      : [],
  references: [
    { target: 'targets/redis/leader/cached-flag.ts', expect: 'FAIL' },
    { target: 'targets/redis/leader/cached-flag.ts', expect: 'FAIL', params: { fault: 'drop' } },
    { target: 'targets/redis/leader/cached-flag.ts', expect: 'FAIL', params: { fault: 'kill' } },
    { target: 'targets/redis/leader/taken-once.ts', expect: 'FAIL' },
    { target: 'targets/redis/leader/recheck-each-write.ts', expect: 'PASS' },
    { target: 'targets/redis/leader/recheck-each-write.ts', expect: 'PASS', params: { fault: 'drop' } },
    { target: 'targets/redis/leader/recheck-each-write.ts', expect: 'PASS', params: { fault: 'kill' } },
    { target: 'targets/redis/leader/cached-flag-fenced.ts', expect: 'PASS' },
    { target: 'targets/postgres/leader/cached-flag.ts', expect: 'FAIL', store: 'postgres' },
    { target: 'targets/postgres/leader/cached-flag.ts', expect: 'FAIL', store: 'postgres', params: { fault: 'drop' } },
    { target: 'targets/postgres/leader/recheck-each-write.ts', expect: 'PASS', store: 'postgres' },
    {
      target: 'targets/postgres/leader/recheck-each-write.ts',
      expect: 'PASS',
      store: 'postgres',
      params: { fault: 'drop' },
    },
    { target: 'targets/postgres/leader/cached-flag.ts', expect: 'FAIL', store: 'postgres', params: { fault: 'kill' } },
    {
      target: 'targets/postgres/leader/recheck-each-write.ts',
      expect: 'PASS',
      store: 'postgres',
      params: { fault: 'kill' },
    },
  ],
  // Each good reference with its guard removed must FAIL (lock-oracles selfcheck).
  mutations: [
    {
      of: 'targets/redis/leader/recheck-each-write.ts',
      guard: 'the leadership check before each write',
      edits: [['if (held && performance.now() < sentAt + validFor) await env.effect', 'await env.effect']],
    },
  ],

  explore: {
    part: 'leader',
    // A kill only ends A's writes (nothing left to judge); a held write receipt alone never lets A's
    // lease lapse while a timer renews it.
    faults: ['hold-before', 'hold-reply'],
    // The cut is the point itself plus a blackhole of the rest of A's traffic.
    params: { fault: 'blackhole' },
    doc: `each of the first ${EXPLORED_COMMANDS} commands on the lock of A's leader loop after its first write: held before it, or run with its reply held, and everything else A sends blackholed from then on, until A's lease lapsed and B led and wrote; then the cut is lifted`,
    references: { safe: ['targets/redis/leader/cached-flag-fenced.ts', 'targets/redis/leader/recheck-each-write.ts'] },
    async trace(s, tracer, p) {
      const a = await tracer.holder(s);
      const { call: loop } = await traceFromFirstWrite(tracer, a, 'leader', (wait) => s.within(wait, p.timeout));
      const enough = () => tracer.boundaries.filter((b) => b.part === 'leader' && b.onKey).length >= EXPLORED_COMMANDS;
      await s.waitUntil(async () => enough(), 3 * p.ttl, Math.max(5, Math.round(p.ttl / 20)));
      tracer.end();
      a.abort();
      await s.within(loop, p.timeout);
    },
    select: (boundaries) =>
      boundaries.filter((b) => b.kind === 'command' && b.onKey === true).slice(0, EXPLORED_COMMANDS),
  },

  async play(s, p) {
    const wireA = await s.wire('A');
    const [a, b] = await Promise.all([s.holder('A', { url: wireA.url }), s.holder('B')]);
    const preconditions: Check[] = [];
    let aLoop: Promise<CallOutcome> | undefined;
    let bLoop: Promise<CallOutcome> | undefined;
    /**
     * When B's lease was live by the store's own clock: read at B's first write, and as the cut is
     * lifted (the key's PTTL on Redis/Valkey; on Postgres the lease row the target declares).
     */
    const bLive: Array<{ from: number; until: number; when: string }> = [];
    const leaseReadable = () => s.lockUnreadable === undefined;
    const readBsLease = async (when: string) => {
      if (!leaseReadable()) return;
      const seen = await s.observeLock(when);
      if (seen.exists) bLive.push({ from: seen.sentAt, until: seen.liveUntil, when });
    };

    s.progress('A starts its leader loop through its wire proxy');
    const aFirst = a.holdNextEffect();
    aLoop = a.call('leader');
    const aStarted = await s.within(Promise.race([aFirst.reached.then(() => 'wrote' as const), aLoop]), p.timeout);
    if (aStarted !== 'wrote')
      throwIfTargetThrew('A', 'leader', aStarted, 'before its first write, leading alone with no fault');
    preconditions.push({
      name: 'A led and wrote',
      held: aFirst.isReached,
      detail: aFirst.isReached
        ? `A made its first leader write at ${aFirst.hit?.t} ms`
        : `A made no leader write within ${p.timeout} ms (${aStarted === undefined ? 'still running' : 'its leader loop returned'}): it never led, so nothing can be judged`,
    });
    if (!aFirst.isReached) return finish();

    const point = s.point;
    let cut: Cut;
    if (point) {
      const at = armPoint(point, a, wireA, s.lockKey);
      aFirst.release();
      const first = await s.within(
        Promise.race([at.reached.then(() => 'held' as const), aLoop.then(() => 'ended' as const)]),
        p.timeout,
      );
      preconditions.push({
        name: `A was held at ${boundaryLabel(point.boundary)}`,
        held: first === 'held',
        detail:
          first === 'held'
            ? `${pointInWords(point)}; the rest of A's traffic blackholed`
            : first === 'ended'
              ? at.missed
              : `A's leader loop did not reach the point within ${p.timeout} ms of its first write`,
      });
      if (first !== 'held') {
        at.release();
        return finish();
      }
      const rest = wireA.blackhole();
      cut = {
        record: rest.record,
        killed: 0,
        how: `${boundaryLabel(point.boundary)}, ${point.fault}`,
        held: () => !at.isReleased,
        lift: () => (at.release(), rest.lift()),
      };
    } else {
      cut = await cutOff(s, wireA, p.fault);
    }
    const bFirst = b.holdNextEffect();
    bLoop = b.call('leader');
    aFirst.release();
    s.progress(
      `A cut off at its wire proxy (${cut.how}) while it keeps running; waiting for its ${p.ttl} ms lease to lapse and B to lead`,
    );

    const bFirstOrEnd = await s.within(Promise.race([bFirst.reached.then(() => 'wrote' as const), bLoop]), p.timeout);
    // B's loop ended before it ever wrote: a throw there is no denial (a denied replica waits and retries).
    if (bFirstOrEnd !== 'wrote')
      throwIfTargetThrew(
        'B',
        'leader',
        bFirstOrEnd,
        'before its first write, while waiting to lead (a denied replica must wait and retry, not throw)',
      );
    const bWrote = bFirstOrEnd === 'wrote';
    const bWroteWhileCut = bWrote && cut.held();
    if (bWrote) await readBsLease("B's lease at its first write (B held there)");
    bFirst.release();
    if (bWrote) {
      s.progress(`B leads and wrote; A stays cut off for another ${p.observe} ms`);
      await s.sleep(p.observe);
    }
    const blocked = wireA.records().find((r) => r.id === cut.record.id) ?? cut.record;
    // A's cut is still in force: whoever holds the key now is B.
    if (bWrote) await readBsLease("B's lease as A's cut is lifted");
    cut.lift();
    if (bWrote) {
      // A blackholed renewal does not fail, it waits: only once the cut is lifted does A get its
      // real answer (B holds the lease now). Keep B leading and watch A for one more window, so a
      // loop that ignores that answer is seen writing before the loops are told to stop.
      s.progress(
        `cut lifted: A's held commands get their real answers; watching A for another ${p.observe} ms while B leads`,
      );
      await s.sleep(p.observe);
    }

    const stoppedA = blocked.commandsAffected + blocked.refusedConnections;
    const killedOk = point !== undefined || p.fault !== 'kill' || cut.killed > 0;
    if (!point)
      preconditions.push({
        name: "A's renewals were stopped or refused at the wire",
        held: stoppedA > 0 && killedOk,
        detail: !killedOk
          ? `the store closed none of A's connections (${cut.how}): A was not cut off`
          : stoppedA > 0
            ? p.fault === 'blackhole'
              ? `A's wire proxy stopped ${blocked.commandsAffected} command(s) A sent while cut off (${blocked.sampleCommands.slice(0, 2).join('; ')})`
              : `${p.fault === 'kill' ? `the store closed ${cut.killed} of A's connection(s) (${cut.how}) and` : `A's wire proxy reset ${blocked.connections.length} connection(s) and`} refused ${blocked.refusedConnections} reconnect(s) while A was cut off`
            : "A sent nothing to the store while it was cut off: it never tried to renew, so its lease lapsing is not V315's fault (a lease with no renewal is V313's)",
      });
    const bFirstWrite = s.resource.effects().find((e) => e.holder === 'B');
    preconditions.push({
      name: 'B became leader and wrote while A was cut off',
      held: bWroteWhileCut && bFirstWrite !== undefined,
      detail: bFirstWrite
        ? `B's first leader write (resource #${bFirstWrite.seq}) came ${(bFirstWrite.t - (blocked.fromMs ?? 0)).toFixed(1)} ms after A was cut off; the lease was ${p.ttl} ms`
        : bWrote
          ? 'B wrote only after the cut was lifted, so the fault did not land'
          : `B did not lead and write within ${p.timeout} ms of A being cut off: A's lease never lapsed, so the fault did not land`,
    });
    return finish();

    async function finish() {
      a.abort();
      b.abort();
      const ends = await Promise.all(
        [aLoop, bLoop].map((loop) => (loop ? s.within(loop, p.timeout) : Promise.resolve(undefined))),
      );
      if (aLoop && ends[0] === undefined)
        s.note(`A's leader loop did not return within ${p.timeout} ms of being aborted`);
      return judge();
    }

    function judge() {
      const effects = s.resource.effects();
      const takeover = writesAfterTakeover(effects, 'A', 'B');
      const { staleAfter: aAfter, staleAcceptedAfter: aAcceptedAfter, overlapMs } = takeover;
      const held = aAcceptedAfter.length === 0;
      // Judged only inside the window the property is about: B's lease still live by the store's
      // clock. On a loaded machine B's own renewals can come late, its lease lapse, and A (its cut
      // lifted) re-take a free lock and write: those writes are not A acting beside a leader.
      if (!held && !leaseReadable()) {
        preconditions.push({
          name: "B's lease was live at A's writes after B's first",
          held: false,
          detail:
            `A's ${aAcceptedAfter.length} write(s) after B's first cannot be shown to come while B's lease lived: on ${s.store.kind} the harness reads a lease only where the target declares it, ` +
            `and B's renewals may have come late on a loaded machine, its lease lapsed and A re-taken a free lock. Declare the lease row: storeKey: (env) => ({ table, keyColumn, key: env.key, expiresColumn })`,
        });
      } else if (!held) {
        const inside = aAcceptedAfter.filter((e) =>
          bLive.some((w) => e.t <= w.until && (w === bLive[0] || e.t >= w.from)),
        );
        const known =
          bLive.map((w) => `${w.when}: live until ${w.until.toFixed(1)} ms`).join('; ') ||
          "B's lease was not found at B's first write or as the cut was lifted";
        preconditions.push({
          name: "B's lease was live at A's writes after B's first",
          held: inside.length > 0,
          detail: inside.length
            ? `${inside.length} of A's write(s) after B's first reached the resource while B's lease lived by the store's own clock (${known})`
            : `none of A's ${aAcceptedAfter.length} write(s) after B's first (from ${aAcceptedAfter[0]!.t.toFixed(1)} ms) came while B's lease was known live (${known}): B's lease may have lapsed (its renewals late on a loaded machine) and A re-taken a free lock`,
        });
      }
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
        explanation: explain(held, aAcceptedAfter.length, aAfter.length - aAcceptedAfter.length, overlapMs),
      };
    }

    function explain(held: boolean, accepted: number, rejected: number, overlapMs: number): string {
      const unproven = nothingProven(preconditions);
      if (unproven) return unproven;
      const cutHow = point
        ? `cut at ${boundaryLabel(point.boundary)} (${pointInWords(point)}; everything else A sent blackholed)`
        : {
            blackhole: 'blackholed at its wire proxy',
            drop: 'dropped at its wire proxy (reset, reconnects refused)',
            kill: 'killed by the store (reconnects refused at its wire proxy)',
          }[p.fault];
      const how =
        `A led with a ${p.ttl} ms lease and wrote; then its connection was ${cutHow} ` +
        `while the process kept running, so its renewals failed; its lease lapsed and B became leader and wrote`;
      if (!held) {
        return (
          `${how}. A went on acting as leader: ${accepted} of its write(s) reached the resource after B's first, so two leaders acted at once ` +
          `(overlap ${overlapMs.toFixed(1)} ms by the resource's clock). The leader trusts a flag or a lease taken earlier instead of re-checking before each effect, and its writes carry no fencing token.`
        );
      }
      return rejected
        ? `${how}. A kept trying to write (${rejected} write(s) after B's first) but each carried a stale fencing token and the resource rejected it: the fence held.`
        : `${how}. A's writes stopped before B's first: it re-checked its leadership before acting and stepped down when it could not confirm it.`;
    }
  },
});

/** The cut in force: the proxy fault whose record counts what it stopped, and what the store killed. */
interface Cut extends WireFaultHandle {
  killed: number;
  how: string;
  /** Whether the cut is still in force. */
  held(): boolean;
}

async function cutOff(s: Scenario, wire: WireProxy, fault: string): Promise<Cut> {
  const inForce = (handle: WireFaultHandle): Cut => {
    let lifted = false;
    return {
      record: handle.record,
      killed: 0,
      how: fault,
      held: () => !lifted,
      lift: () => ((lifted = true), handle.lift()),
    };
  };
  if (fault === 'blackhole') return inForce(wire.blackhole());
  if (fault === 'drop') return inForce(wire.drop({ refuseNew: true }));
  const refuse = wire.refuse();
  const addresses = wire.connections().flatMap((c) => (c.upstream ? [c.upstream] : []));
  const kill = await killFromStore(s.store, addresses);
  const record = s.faults.apply('wire', wire.holder, kill.command, { killed: kill.killed, addresses });
  s.faults.lift(record);
  return { ...inForce(refuse), killed: kill.killed, how: kill.command };
}
