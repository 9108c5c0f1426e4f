/**
 * V318's scenario: each writer's wall clock skewed (A ahead, B behind), A writes and its value is
 * read back, then B writes, then the record is read. Records what happened; judges nothing.
 */
import type { ParamValues } from '../../src/core/params.ts';
import { throwIfTargetThrew, type CallOutcome, type Holder } from '../../src/holder/holder.ts';
import type { DecideReply } from '../../src/holder/holder-protocol.ts';
import type { Scenario } from '../../src/oracle/scenario.ts';
import type { v318Params } from './params.ts';
import type { V318Observations } from './observations.ts';

export async function playV318(s: Scenario, p: ParamValues<typeof v318Params>): Promise<V318Observations> {
  const [a, b] = await Promise.all([s.holder('A'), s.holder('B')]);
  const values = { a: `A@+${p.skew}ms`, b: `B@-${p.skew}ms` };

  const skews = await Promise.all(
    [
      { holder: a, offsetMs: p.skew },
      { holder: b, offsetMs: -p.skew },
    ].map(async ({ holder, offsetMs }) => {
      s.faults.apply('clock', holder.id, `wall clock skewed ${offsetMs > 0 ? '+' : ''}${offsetMs} ms`, { offsetMs });
      return holder.clock({ op: 'install-wall', offsetMs });
    }),
  );
  s.progress(`A's clock is ${skews[0]!.offsetMs} ms off real time, B's ${skews[1]!.offsetMs} ms`);

  const record = p.writer === 'decide' ? keptRecord(s) : undefined;
  const write = (holder: Holder, value: string) =>
    record ? record.write(holder, value) : holder.call('write', [value]);
  const read = (holder: Holder) => (record ? record.read() : holder.call('read'));
  // Nothing can refuse a writer: a throw is the target's own error, never an answer.
  const writeMember = record ? 'decide' : 'write';
  const checked = (holder: Holder, member: string, outcome: CallOutcome) => (
    throwIfTargetThrew(holder.id, member, outcome, '(a writer has no lock to be refused, so a throw is no answer)'),
    outcome
  );
  const aWrite = checked(a, writeMember, await write(a, values.a));
  const afterA = checked(a, 'read', await read(a));
  const bWrite = checked(b, writeMember, await write(b, values.b));
  const final = checked(a, 'read', await read(a));
  // The skews still in force after the writes, as each holder reports its own clock.
  const after = await Promise.all([a.clock({ op: 'read' }), b.clock({ op: 'read' })]);
  const offsets = {
    aBefore: skews[0]!.offsetMs,
    bBefore: skews[1]!.offsetMs,
    aAfter: after[0]!.offsetMs,
    bAfter: after[1]!.offsetMs,
  };
  return { values, offsets, aWrite, afterA, bWrite, final };
}

/** The record the harness keeps for `--writer decide`: a write replaces it when the writer's decide says so. */
function keptRecord(s: Scenario) {
  let kept: { value: string; json: string } | null = null;
  return {
    async write(holder: Holder, value: string): Promise<CallOutcome> {
      const outcome = await holder.call('decide', [value, kept?.json ?? '']);
      const reply = outcome.value as DecideReply | undefined;
      if (outcome.ok && reply?.replaces) kept = { value, json: reply.incoming };
      s.history.add('note', holder.id, {
        text: `decide: ${reply?.replaces ? 'the write replaces the kept record' : 'the kept record stays'}`,
        incoming: reply?.incoming ?? null,
      });
      return outcome;
    },
    async read(): Promise<CallOutcome> {
      const t = s.now();
      return { ok: true, value: kept?.value ?? null, startedAt: t, endedAt: t };
    },
  };
}
