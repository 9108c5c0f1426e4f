/**
 * V313's Redlock variants (--variant quorum, pause-in-acquire on --topology redlock:N): their
 * preconditions and explanations, pure over what scenarios/redlock-quorum.ts and scenarios/redlock-pause-in-acquire.ts recorded —
 * every master read at A's first write (or at A's stop), after the fault, at B's first write, and
 * before each of A's later writes.
 */
import { firstLine, type Check } from '../../src/core/judgement.ts';
import type { EffectRecord } from '../../src/core/resource.ts';
import type { Takeover } from '../../src/judging/takeover.ts';
import { nodeFaultInWords } from '../../scenarios/node-faults.ts';
import type { AcquireStopObservation } from '../../scenarios/redlock-pause-in-acquire.ts';
import type { QuorumObservation } from '../../scenarios/redlock-quorum.ts';
import { majorityToken, nodesHolding, quorumInWords, type QuorumReading } from '../../scenarios/redlock-reading.ts';
import type { V313Observations } from './observations.ts';

export const BARE_MAJORITY = "A's lock lived on a bare majority, the faulted master among it";
export const NODE_FAULT_LANDED = "the master's fault landed";
export const B_WON_IN_A_LEASE = "B won a majority and wrote inside A's lease";
export const B_TRIED_IN_A_LEASE = "B tried inside A's lease, and took the lock once the master was back";
export const REPLIES_IN_FLIGHT = "A was stopped with its acquire's replies in flight";
export const B_WON_WHILE_A_IN_ACQUIRE = 'B won a majority and wrote while A was stopped in its acquire';
export const TWO_LOCKS_AT_A_WRITES = "B held a majority at A's writes after B's first";

export const QUORUM_PRECONDITIONS = [
  {
    name: BARE_MAJORITY,
    checks:
      "--variant quorum: at A's first write A's token was on exactly a majority of the masters (on none A was cut off from), the one faulted next among them",
  },
  {
    name: NODE_FAULT_LANDED,
    checks:
      "--variant quorum: restart — the master was up again with no key; clock-ahead — A's key was gone from it; restart-late — it was down at the end of B's window, for longer than --ttl in all",
  },
  {
    name: B_WON_IN_A_LEASE,
    checks:
      "--variant quorum, --node-fault restart / clock-ahead: B's token was on a majority at its first write, which came while A's token still lived on a majority by the PTTLs read at A's first write",
  },
  {
    name: B_TRIED_IN_A_LEASE,
    checks:
      "--variant quorum --node-fault restart-late: B tried while A's lease lived (the window is half of what was left of it) and, when it was denied there, took the lock and wrote after A's job, the master back",
  },
  {
    name: REPLIES_IN_FLIGHT,
    checks:
      "--variant pause-in-acquire: every master's reply to A's acquire was kept at A's link until A was SIGSTOPped, and A's token was on a majority then",
  },
  {
    name: B_WON_WHILE_A_IN_ACQUIRE,
    checks:
      '--variant pause-in-acquire: while A was still stopped, B took the lock (its token on a majority at its first write) and wrote',
  },
  {
    name: TWO_LOCKS_AT_A_WRITES,
    checks:
      "--variant quorum / pause-in-acquire, on a violation: at least one of A's accepted writes after B's first came while B's token was on a majority of the masters (and, with --variant quorum, A's still lived on one), by every master read just before the harness accepted it",
  },
];

export function quorumChecks(q: QuorumObservation, bFirst: EffectRecord | undefined, ttlMs: number): Check[] {
  const aToken = majorityToken(q.atAFirstWrite, q.quorum);
  const aNodes = nodesHolding(q.atAFirstWrite, aToken).map((n) => n.node);
  const bare =
    aToken !== null &&
    aNodes.length === q.quorum &&
    aNodes.includes(q.fault.node) &&
    !aNodes.some((n) => q.cutOff.includes(n));
  const names = tokenNames(aToken, bToken(q.bInWindow.atFirstWrite, q.quorum, aToken));
  const checks: Check[] = [
    {
      name: BARE_MAJORITY,
      held: bare,
      detail:
        `at A's first write (A cut off from ${q.cutOff.join(', ')}): ${quorumInWords(q.atAFirstWrite, names)}` +
        (bare ? '' : `: A's lock was not on exactly ${q.quorum} masters with ${q.fault.node} among them`),
    },
    faultLanded(q, aToken, ttlMs, names),
  ];
  if (q.fault.kind === 'restart-late') {
    const later = q.bLater;
    const held = q.bInWindow.wrote || (q.bInWindow.attempts > 0 && later?.wrote === true);
    checks.push({
      name: B_TRIED_IN_A_LEASE,
      held,
      detail:
        `B made ${q.bInWindow.attempts} attempt(s) inside A's lease, ${q.bInWindow.wrote ? 'and wrote' : 'none granted'}` +
        (q.bInWindow.wrote
          ? ''
          : later?.wrote
            ? `; once the master was back B took the lock and wrote (${later.attempts} more attempt(s))`
            : `; after A's job B did not take the lock within --timeout (${later?.attempts ?? 0} attempt(s)), so its denials inside A's lease prove nothing`),
    });
    return checks;
  }
  const bReading = q.bInWindow.atFirstWrite;
  const bTok = bToken(bReading, q.quorum, aToken);
  const inLease = bFirst !== undefined && q.aLeaseUntil !== null && bFirst.t < q.aLeaseUntil;
  const won = q.bInWindow.wrote && bTok !== null && inLease;
  checks.push({
    name: B_WON_IN_A_LEASE,
    held: won,
    detail: !q.bInWindow.wrote
      ? `B did not take the lock and write in ${q.bInWindow.attempts} attempt(s) inside A's lease (until ${q.bWindowUntil.toFixed(1)} ms): the fault did not let another majority form`
      : `B's first write at ${bFirst?.t.toFixed(1)} ms, A's lease on a majority until ${q.aLeaseUntil?.toFixed(1) ?? 'never'} ms; at it: ${quorumInWords(bReading!, names)}` +
        (won ? '' : ": B's token was not on a majority inside A's lease"),
  });
  return checks;
}

function faultLanded(q: QuorumObservation, aToken: string | null, ttlMs: number, names: Record<string, string>): Check {
  const words = nodeFaultInWords(q.fault);
  const after = q.afterFault;
  const there = after?.nodes.find((n) => n.node === q.fault.node);
  if (q.fault.kind === 'restart-late') {
    const { stoppedAt, startedAt } = q.outcome ?? {};
    const downLong = stoppedAt !== undefined && startedAt !== undefined && startedAt - stoppedAt > ttlMs;
    const held = there?.role === 'down' && downLong;
    return {
      name: NODE_FAULT_LANDED,
      held,
      detail:
        `${words}; at the end of B's window: ${after ? quorumInWords(after, names) : 'not read'}` +
        (stoppedAt !== undefined && startedAt !== undefined
          ? `; down from ${stoppedAt.toFixed(1)} to ${startedAt.toFixed(1)} ms`
          : '; it did not come back within --timeout') +
        (held ? '' : `: the master was not down for longer than the ${ttlMs} ms TTL across B's window`),
    };
  }
  const held = there !== undefined && there.role !== 'down' && !(there.exists && there.value === aToken);
  return {
    name: NODE_FAULT_LANDED,
    held,
    detail:
      `${words}; then: ${after ? quorumInWords(after, names) : 'not read'}` +
      (held ? '' : `: A's key was still on ${q.fault.node} (or it was down), so the fault did not land`),
  };
}

export function acquireStopChecks(x: AcquireStopObservation, bFirst: EffectRecord | undefined): Check[] {
  const aToken = x.atStop ? majorityToken(x.atStop, x.quorum) : null;
  const kept = Object.entries(x.repliesKept);
  const everyReply = kept.length > 0 && kept.every(([, bytes]) => bytes > 0);
  const inFlight = x.repliesInFlight && x.stoppedAt !== null && everyReply && aToken !== null;
  const b = x.bWhileStopped;
  const bTok = b?.atFirstWrite ? bToken(b.atFirstWrite, x.quorum, aToken) : null;
  const names = tokenNames(aToken, bTok);
  const checks: Check[] = [
    {
      name: REPLIES_IN_FLIGHT,
      held: inFlight,
      detail: !x.repliesInFlight
        ? "A's job ended (or --timeout passed) before every master had answered its acquire: A was never stopped inside it"
        : `reply bytes kept per master: ${kept.map(([node, bytes]) => `${node} ${bytes}`).join(', ')}; A SIGSTOPped at ${x.stoppedAt?.toFixed(1)} ms; then: ${x.atStop ? quorumInWords(x.atStop, names) : 'not read'}` +
          (inFlight ? '' : ": A's token was not on a majority, so its acquire had not won"),
    },
  ];
  if (b) {
    const held = b.wrote && b.aStopped && bTok !== null && bFirst !== undefined;
    checks.push({
      name: B_WON_WHILE_A_IN_ACQUIRE,
      held,
      detail: !b.wrote
        ? `B did not take the lock and write within --timeout (${b.attempts} attempt(s)) while A was stopped`
        : `B wrote (resource #${bFirst?.seq}) after ${b.attempts} attempt(s)${b.aStopped ? ', A still stopped' : ', but A was no longer stopped'}; at it: ${quorumInWords(b.atFirstWrite!, names)}` +
          (bTok !== null ? '' : ": B's token was not on a majority"),
    });
  }
  return checks;
}

/**
 * On a violation: A's accepted writes after B's first count only while B's token was on a
 * majority by the read just before each (with --variant quorum, A's token also still live on a
 * master: A's lease had not run out, so the fault, not A's slowness, made the two locks).
 */
export function twoLocksAtWrites(o: V313Observations, aAcceptedAfter: readonly EffectRecord[]): Check {
  const x = o.quorum ?? o.acquireStop!;
  const aToken = o.quorum
    ? majorityToken(o.quorum.atAFirstWrite, o.quorum.quorum)
    : o.acquireStop?.atStop
      ? majorityToken(o.acquireStop.atStop, x.quorum)
      : null;
  const bReading = o.quorum ? o.quorum.bInWindow.atFirstWrite : (o.acquireStop?.bWhileStopped?.atFirstWrite ?? null);
  const bTok = bReading ? bToken(bReading, x.quorum, aToken) : null;
  const names = tokenNames(aToken, bTok);
  const judged = aAcceptedAfter.map((write) => {
    const reading = x.atAWrites.find((r) => r.seq === write.seq)?.reading;
    const bHeld = reading !== undefined && nodesHolding(reading, bTok).length >= x.quorum;
    const aLive = !o.quorum || (reading !== undefined && nodesHolding(reading, aToken).length > 0);
    return { write, reading, counted: bHeld && aLive };
  });
  return {
    name: TWO_LOCKS_AT_A_WRITES,
    held: judged.some((j) => j.counted),
    detail: judged
      .map(
        ({ write, reading, counted }) =>
          `A's write #${write.seq}: ${reading ? quorumInWords(reading, names) : 'no reading'}${counted ? '' : ' (not counted)'}`,
      )
      .join('; '),
  };
}

/** The explanation of a judged --variant quorum run. */
export function explainQuorum(q: QuorumObservation, takeover: Takeover, ttlMs: number): string {
  const accepted = takeover.staleAcceptedAfter.length;
  const rejected = takeover.staleAfter.length - accepted;
  const won = q.atAFirstWrite.nodes.filter((n) => !q.cutOff.includes(n.node)).map((n) => n.node);
  const begin = `A, cut off from ${q.cutOff.join(', ')}, won its ${ttlMs} ms lock on ${won.join(', ')} (a bare majority) and wrote; then ${nodeFaultInWords(q.fault)}`;
  if (q.fault.kind === 'restart-late') {
    return accepted
      ? `${begin}. B still took the lock while A's lease lived and A wrote ${accepted} time(s) after it.`
      : `${begin}. While it was down B could win only ${q.cutOff.length} masters besides the ones A held, so every try inside A's lease was denied; by the time the master returned A's lease had run out and B took the lock after A's writes. A node that stays down longer than the TTL forgets no live lock.`;
  }
  const how =
    q.fault.kind === 'restart'
      ? `${q.fault.node} came back empty, having forgotten A's key`
      : `A's key on ${q.fault.node} expired at once by that node's clock`;
  if (accepted)
    return `${begin}: ${how}, so B won ${q.fault.node} and ${q.cutOff.join(', ')} — another majority — and wrote while A's lease still lived on the others. A was let go and wrote ${accepted} time(s) after B's first write: two holders acted at once (overlap ${takeover.overlapMs.toFixed(1)} ms). No client check can see it: Redlock's safety rests on every node keeping its keys for the TTL; only a fence the resource checks stops A.`;
  return rejected
    ? `${begin}: ${how}, so B won another majority and wrote; A's ${rejected} later write(s) carried a stale fencing token and the resource rejected each: the fence held.`
    : `${begin}: ${how}, so B won another majority and wrote; A made no write after B's first.`;
}

/** The explanation of a judged --variant pause-in-acquire run. */
export function explainAcquireStop(x: AcquireStopObservation, takeover: Takeover, aEnd: string): string {
  const accepted = takeover.staleAcceptedAfter.length;
  const rejected = takeover.staleAfter.length - accepted;
  const stoppedFor = x.bWhileStopped?.atFirstWrite ? x.bWhileStopped.atFirstWrite.sentAt - (x.stoppedAt ?? 0) : 0;
  const begin = `A was SIGSTOPped inside its acquire, every master's reply in flight to it, until its keys lapsed and B won a majority and wrote (${stoppedFor.toFixed(0)} ms into the stop); A resumed, read the replies, and its acquire returned a quorum won before the stop`;
  if (accepted)
    return `${begin}: A acted on it and wrote ${accepted} time(s) after B's first write (overlap ${takeover.overlapMs.toFixed(1)} ms). The lock's validity (lock.expiration, start + TTL − drift) was already spent: check lock.expiration > Date.now() before acting on it.`;
  return rejected
    ? `${begin}; A's ${rejected} write(s) after B's carried a stale fencing token and the resource rejected each.`
    : `${begin}; A made no write after B's first (A's job: ${aEnd}): it checked the lock's validity before acting.`;
}

function bToken(reading: QuorumReading | null, quorum: number, aToken: string | null): string | null {
  if (!reading) return null;
  const token = majorityToken(reading, quorum);
  return token === aToken ? null : token;
}

function tokenNames(aToken: string | null, bToken: string | null): Record<string, string> {
  return { ...(aToken ? { [aToken]: "A's key" } : {}), ...(bToken ? { [bToken]: "B's key" } : {}) };
}

/** How A's job ended, in a few words. */
export function jobEnd(o: V313Observations): string {
  const end = o.aResumed?.job;
  if (!end) return 'not ended';
  return end.ok ? 'it returned' : `it threw: ${firstLine(end.error)}`;
}
