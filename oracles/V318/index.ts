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
 * Files: play.ts runs the scenario and records V318Observations (observations.ts); judge.ts judges
 * them, a pure function; params.ts declares the parameters.
 */
import { defineOracle } from '../../src/oracle/definition.ts';
import { judgeV318, V318_PRECONDITIONS } from './judge.ts';
import { v318Params } from './params.ts';
import { playV318 } from './play.ts';

export default defineOracle({
  id: 'V318',
  title: 'Last-write-wins on wall-clock timestamps',
  class: 'CK-3 last-write-wins on wall-clock timestamps',
  scenario: 'Writer A (clock +skew) writes the record; then, later in real time, writer B (clock −skew) writes it.',
  property: "The later write in real order wins: the record ends with B's value.",
  stores: ['redis', 'valkey', 'postgres'],
  holders: ['A', 'B'],
  params: v318Params,
  preconditions: V318_PRECONDITIONS,
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

  play: playV318,
  judge: judgeV318,
});
