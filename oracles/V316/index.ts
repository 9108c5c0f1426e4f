/**
 * V316 — a wall-clock duration guards a timeout or a lease.
 *
 * Scenario: each holder gets its own wall clock (only `Date` is fake; monotonic time and timers are
 * real) and runs one operation guarded by the target's timeout of --ttl ms. Halfway through, the
 * harness steps holder A's wall clock back by --step ms and holder B's forward by --step ms.
 * Property: each guard fires at the right monotonic time: --ttl ms after the operation began,
 * within --tolerance ms, measured on the holder's own monotonic clock from the moment its call
 * began to the moment it reported the timeout (so the IPC latency of a loaded machine, which
 * delays the call's start and the report's arrival at the harness, is not counted against it).
 * Preconditions: each step landed mid-operation (after the operation began, before its limit, before
 * its guard fired, and while the operation was still running); each operation was still running
 * when its limit came, or its guard fired (one that returns on its own first never needed its guard).
 * Window: each operation from its start to --ttl + 2 × --tolerance ms later (a firing is timed on the
 * holder's own monotonic clock, so a late IPC cannot move it); no store lease is involved. A guard
 * silent by then is asked twice for its clock (its event loop goes round, running a timer due while
 * its process was starved) before it counts as not firing. A firing late by more than --tolerance
 * counts only when its clock was stepped back by about that much (within --tolerance of the step):
 * a process starved of CPU fires a correct guard late, never early, and not by the step (else
 * INCONCLUSIVE, when no other firing counts).
 * timeout() that throws without having reported its timeout is the target's error (ERROR).
 * Files: play.ts runs the scenario and records V316Observations (observations.ts); judge.ts judges
 * them, a pure function; params.ts declares the parameters.
 */
import { defineOracle } from '../../src/oracle/definition.ts';
import { judgeV316, V316_PRECONDITIONS } from './judge.ts';
import { v316Params } from './params.ts';
import { playV316 } from './play.ts';

export default defineOracle({
  id: 'V316',
  title: 'Wall-clock duration guarding a timeout or lease',
  class: 'CK-1 wall-clock duration guarding a timeout or lease',
  scenario:
    "Each holder runs an operation guarded by the target's timeout; halfway through, A's wall clock is stepped back and B's forward (only Date moves; monotonic time stays real).",
  property: 'Each timeout fires --ttl ms after its operation began on the monotonic clock, within --tolerance ms.',
  stores: ['redis', 'valkey'],
  holders: ['A', 'B'],
  params: v316Params,
  preconditions: V316_PRECONDITIONS,
  needs: () => ['timeout'],
  validate: (p) =>
    p.tolerance * 2 >= p.ttl
      ? [
          `--tolerance (${p.tolerance}) must be under half of --ttl (${p.ttl}), or an early firing at the mid-operation step would count as on time`,
        ]
      : [],
  references: [
    { target: 'targets/clock/timeout-wall-clock.ts', expect: 'FAIL' },
    { target: 'targets/clock/timeout-deadline-wall-clock.ts', expect: 'FAIL' },
    { target: 'targets/clock/timeout-monotonic.ts', expect: 'PASS' },
    { target: 'targets/clock/timeout-abort-signal.ts', expect: 'PASS' },
  ],
  // Each good reference with its guard removed must FAIL (lock-oracles selfcheck).
  mutations: [
    {
      of: 'targets/clock/timeout-monotonic.ts',
      guard: 'the monotonic clock (elapsed time read from Date.now())',
      edits: [
        ['const start = performance.now();', 'const start = Date.now();'],
        ['if (performance.now() - start > env.ttlMs)', 'if (Date.now() - start > env.ttlMs)'],
      ],
    },
  ],

  play: playV316,
  judge: judgeV316,
});
