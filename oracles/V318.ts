/**
 * V318 — last-write-wins on wall-clock timestamps.
 *
 * Scenario: two writers with their own wall clocks, A skewed +--skew ms and B skewed −--skew ms
 * (only `Date` is fake in each), update one record in real order: A writes, A's write is read back,
 * then B writes.
 * Property: the later write in real order (B's) wins: the record reads B's value at the end.
 * Preconditions: each skew was in force when its writer wrote (installed before, unchanged until
 * after); both writes really happened, in the stated real order (A's returned and was read back
 * before B's began; B's returned).
 * Writers: `--writer store` (default) calls the target's write/read against the store (Redis,
 * Valkey or Postgres); `--writer decide` keeps the record in the harness and asks the target's pure
 * `decide(incoming, existing)` (with the record from `stamp`, built on the writer's clock) in each
 * writer's process whether a write replaces it.
 * Window: from the start of A's write to the end of B's, by the harness's monotonic clock; judged
 * only when that real gap is under 2 × --skew (so B's clock read earlier at its write than A's at
 * A's, however slow a loaded machine made the writes; else INCONCLUSIVE). No store lease is involved.
 * A writer has no lock to be refused: write(), read() or decide() throwing is the target's error (ERROR).
 */
import { defineOracle } from '../src/oracle/definition.ts';
import { type Check, nothingProven, firstLine } from '../src/core/judgement.ts';
import { throwIfTargetThrew, type CallOutcome, type Holder } from '../src/holder/holder.ts';
import type { DecideReply } from '../src/holder/holder-protocol.ts';

export default defineOracle({
  id: 'V318',
  title: 'Last-write-wins on wall-clock timestamps',
  class: 'CK-3 last-write-wins on wall-clock timestamps',
  scenario: 'Writer A (clock +skew) writes the record; then, later in real time, writer B (clock −skew) writes it.',
  property: "The later write in real order wins: the record ends with B's value.",
  stores: ['redis', 'valkey', 'postgres'],
  holders: ['A', 'B'],
  params: {
    skew: {
      kind: 'ms',
      default: 2000,
      min: 1,
      doc: "A's wall clock runs this far ahead of real time, B's this far behind",
    },
    writer: {
      kind: 'choice',
      default: 'store',
      choices: ['store', 'decide'],
      doc: "store: the target writes and reads the record itself (write/read); decide: the harness keeps the record and asks the target's decide(incoming, existing)",
    },
  },
  needs: (p) => (p.writer === 'decide' ? ['decide'] : ['write', 'read']),
  references: [
    { target: 'targets/clock/lww-wall-clock.ts', expect: 'FAIL' },
    { target: 'targets/clock/lww-hybrid-logical-clock.ts', expect: 'PASS' },
    { target: 'targets/clock/lww-version-counter.ts', expect: 'PASS' },
    { target: 'targets/postgres/lww-wall-clock.ts', expect: 'FAIL', store: 'postgres' },
    { target: 'targets/postgres/lww-hybrid-logical-clock.ts', expect: 'PASS', store: 'postgres' },
    { target: 'targets/clock/lww-decide-wall-clock.ts', expect: 'FAIL', params: { writer: 'decide' } },
    { target: 'targets/clock/lww-decide-hybrid-logical-clock.ts', expect: 'PASS', params: { writer: 'decide' } },
  ],

  async play(s, p) {
    const [a, b] = await Promise.all([s.holder('A'), s.holder('B')]);
    const preconditions: Check[] = [];
    const aValue = `A@+${p.skew}ms`;
    const bValue = `B@-${p.skew}ms`;

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

    const record = p.writer === 'decide' ? keptRecord() : undefined;
    const write = (holder: Holder, value: string) =>
      record ? record.write(holder, value) : holder.call('write', [value]);
    const read = (holder: Holder) => (record ? record.read() : holder.call('read'));
    // Nothing can refuse a writer: a throw is the target's own error, never an answer.
    const writeMember = record ? 'decide' : 'write';
    const checked = (holder: Holder, member: string, outcome: CallOutcome) => (
      throwIfTargetThrew(holder.id, member, outcome, '(a writer has no lock to be refused, so a throw is no answer)'),
      outcome
    );
    const aWrite = checked(a, writeMember, await write(a, aValue));
    const afterA = checked(a, 'read', await read(a));
    const bWrite = checked(b, writeMember, await write(b, bValue));
    const final = checked(a, 'read', await read(a));
    // The skews still in force after the writes, as each holder reports its own clock.
    const after = await Promise.all([a.clock({ op: 'read' }), b.clock({ op: 'read' })]);

    const skewHeld = [skews, after].every(
      (replies) => replies[0]!.offsetMs === p.skew && replies[1]!.offsetMs === -p.skew,
    );
    preconditions.push({
      name: "each writer's skew was in force when it wrote",
      held: skewHeld,
      detail: `A's offset ${skews[0]!.offsetMs} ms before and ${after[0]!.offsetMs} ms after the writes; B's ${skews[1]!.offsetMs} ms before and ${after[1]!.offsetMs} ms after`,
    });
    const inOrder =
      aWrite.ok && afterA.ok && afterA.value === aValue && bWrite.ok && aWrite.endedAt <= bWrite.startedAt;
    preconditions.push({
      name: "both writes happened, A's before B's in real time",
      held: inOrder,
      detail: inOrder
        ? `A wrote (${aWrite.startedAt}–${aWrite.endedAt} ms) and its value was read back; B wrote later (${bWrite.startedAt}–${bWrite.endedAt} ms)`
        : `A's write ${aWrite.ok ? 'returned' : `threw (${firstLine(aWrite.error)})`}, ${readBack()}; B's write ${bWrite.ok ? `returned at ${bWrite.endedAt} ms` : `threw (${firstLine(bWrite.error)})`}`,
    });

    // The skew only matters if it outweighs the real time between the writes: B's clock at its
    // write must read earlier than A's did at A's write, or a wall-clock LWW is right by luck.
    const realGap = bWrite.endedAt - aWrite.startedAt;
    preconditions.push({
      name: "B's clock read earlier at its write than A's at A's",
      held: 2 * p.skew > realGap,
      detail: `the writes were at most ${realGap.toFixed(1)} ms apart in real time against a clock gap of ${2 * p.skew} ms (A +${p.skew}, B −${p.skew})${2 * p.skew > realGap ? '' : ': raise --skew'}`,
    });

    const held = final.ok && final.value === bValue;
    const bEvents = s.history.filter((e) => e.holder === 'B' && (e.kind === 'call-end' || e.kind === 'call-error'));
    return {
      preconditions,
      counts: {
        skewMs: p.skew,
        realGapMs: Math.round((bWrite.startedAt - aWrite.endedAt) * 1000) / 1000,
        laterWriteWon: held ? 1 : 0,
      },
      property: {
        name: 'the later write (in real order) wins',
        held,
        detail: held
          ? `the record reads ${JSON.stringify(bValue)}, B's later write`
          : `the record reads ${JSON.stringify(final.value ?? final.error)}, not B's later write ${JSON.stringify(bValue)}`,
        offending: held ? [] : bEvents,
      },
      explanation: explain(),
    };

    /** The record the harness keeps for `--writer decide`: a write replaces it when the writer's decide says so. */
    function keptRecord() {
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

    function readBack(): string {
      if (!afterA.ok) return `reading the record back threw (${firstLine(afterA.error)})`;
      const value = JSON.stringify(afterA.value ?? null);
      return afterA.value === aValue
        ? `its value was read back`
        : `the record read back ${value}, not A's ${JSON.stringify(aValue)}: A's write is not in the record`;
    }

    function explain(): string {
      const unproven = nothingProven(preconditions);
      if (unproven) return unproven;
      return held
        ? `A (clock +${p.skew} ms) wrote the record, then B (clock −${p.skew} ms) wrote it ${(bWrite.startedAt - aWrite.endedAt).toFixed(1)} ms later in real time, and B's value stands although B's clock read ${2 * p.skew} ms earlier than A's: with this skew, the later write in real order won.`
        : `A (clock +${p.skew} ms) wrote the record, then B (clock −${p.skew} ms) wrote it ${(bWrite.startedAt - aWrite.endedAt).toFixed(1)} ms later in real time, but the record still reads A's value: ` +
            `the conflict was resolved by comparing wall-clock timestamps, and B's clock being ${2 * p.skew} ms behind A's made its later write look older. Order writes with a version counter, a sequence from the store, or a hybrid logical clock.`;
    }
  },
});
