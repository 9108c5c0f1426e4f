/**
 * The hostile fixtures (test/fixtures/targets/): targets and parameters built to trip the harness
 * (a fault that cannot land, a contract broken, a call that never returns), each with the verdict
 * an honest harness gives it. The test suite pins the same verdicts with their evidence; selfcheck
 * replays them beside the reference matrix, under load when asked.
 */
import type { Verdict } from '../core/judgement.ts';
import type { StoreKind } from '../stores/types.ts';

export interface HostileCase {
  oracle: string;
  target: string;
  params?: Record<string, string | number>;
  store?: StoreKind;
  /** A shorter deadline for a fixture that hangs on purpose. */
  deadlineMs?: number;
  expect: Verdict;
  /** What the fixture does, in a few words. */
  why: string;
}

const fixture = (name: string) => `test/fixtures/targets/${name}.ts`;
/** Long enough for three holders to load on a loaded two-core machine (test/trust-stops.test.ts). */
const HANG_DEADLINE_MS = 15_000;

export const HOSTILE_CASES: readonly HostileCase[] = [
  {
    oracle: 'V310',
    target: fixture('lock-correct-slow-acquire'),
    params: { variant: 'pause' },
    expect: 'INCONCLUSIVE',
    why: "a correct lock whose acquire outlasts the TTL: B's lease closes before the judgement",
  },
  {
    oracle: 'V310',
    target: fixture('lock-correct-slow-acquire'),
    params: { variant: 'narrow' },
    expect: 'INCONCLUSIVE',
    why: 'a correct lock whose acquire outlasts the TTL (narrow)',
  },
  { oracle: 'V310', target: fixture('acquire-returns-42'), expect: 'ERROR', why: 'acquire() returns 42, not a lease' },
  { oracle: 'V310', target: fixture('acquire-throws'), expect: 'ERROR', why: 'acquire() throws' },
  {
    oracle: 'V310',
    target: fixture('lock-no-seams'),
    params: { variant: 'narrow', hold: 'seam' },
    expect: 'INCONCLUSIVE',
    why: 'no seam to hold at',
  },
  {
    oracle: 'V310',
    target: fixture('release-get-compare-pexpire'),
    params: { variant: 'narrow', hold: 'wire' },
    expect: 'INCONCLUSIVE',
    why: 'no DEL on the wire to hold',
  },
  {
    oracle: 'V311',
    target: fixture('lock-no-seams'),
    params: { variant: 'between-commands' },
    expect: 'INCONCLUSIVE',
    why: 'one command: nothing between commands to kill at',
  },
  {
    oracle: 'V311',
    target: fixture('slow-denial'),
    expect: 'PASS',
    why: "a correct lock whose denial outlasts B's TTL + grace: B takes it in the watch, late, not never",
  },
  {
    oracle: 'V311',
    target: fixture('slow-denial'),
    params: { strictTtl: 'on' },
    expect: 'INCONCLUSIVE',
    why: "the same held to its TTL (--strict-ttl): no try of B's at TTL + grace came on the lapsed key",
  },
  {
    oracle: 'V311',
    target: fixture('acquire-refused-by-own-clock'),
    expect: 'INCONCLUSIVE',
    why: "B refuses a lock its SET took (its own clock): A's key had lapsed",
  },
  {
    oracle: 'V312',
    target: fixture('job-throws-before-lock'),
    expect: 'ERROR',
    why: 'job() throws before it takes the lock',
  },
  {
    oracle: 'V312',
    target: fixture('job-never-writes'),
    params: { timeout: 1000 },
    expect: 'INCONCLUSIVE',
    why: 'a job that never writes',
  },
  {
    oracle: 'V312',
    target: fixture('job-waits-then-keeps-lease'),
    params: { ttl: 1000 },
    expect: 'INCONCLUSIVE',
    why: "waits out P's lease, then writes on the free lock (its own token in the key)",
  },
  {
    oracle: 'V313',
    target: fixture('job-long-lease'),
    params: { timeout: 1200 },
    expect: 'INCONCLUSIVE',
    why: 'a lease longer than the run: B never gets in',
  },
  {
    oracle: 'V313',
    target: fixture('job-retakes-free-lock'),
    expect: 'INCONCLUSIVE',
    why: "re-takes the lock only after B's lease lapsed",
  },
  {
    oracle: 'V313',
    target: fixture('job-retakes-free-lock'),
    params: { contender: 'come-and-go' },
    expect: 'INCONCLUSIVE',
    why: 'after B came and went, re-takes the free lock with a new token',
  },
  {
    oracle: 'V313',
    target: fixture('postgres/job-retakes-free-row'),
    store: 'postgres',
    expect: 'INCONCLUSIVE',
    why: "re-takes its lease row only after B's lapsed (Postgres, read on the declared row)",
  },
  {
    oracle: 'V313',
    target: fixture('postgres/job-retakes-free-row-undeclared'),
    store: 'postgres',
    expect: 'INCONCLUSIVE',
    why: 'the same, its lease row not declared: the window cannot be read',
  },
  {
    oracle: 'V313',
    target: fixture('job-one-write'),
    expect: 'INCONCLUSIVE',
    why: 'a job with one write: nothing left after the pause',
  },
  {
    oracle: 'V314',
    target: fixture('postgres/query-off-pool'),
    expect: 'INCONCLUSIVE',
    why: "a parallel query that never occupies A's pool",
  },
  {
    oracle: 'V314',
    target: fixture('postgres/b-always-denied'),
    params: { scenario: 'pooler' },
    expect: 'INCONCLUSIVE',
    why: "B denied by something other than A's lock",
  },
  {
    oracle: 'V315',
    target: fixture('leader/fixed-long-lease'),
    params: { ttl: 100, timeout: 600 },
    expect: 'INCONCLUSIVE',
    why: 'a leader lease longer than the run',
  },
  {
    oracle: 'V315',
    target: fixture('leader/b-stops-renewing'),
    expect: 'INCONCLUSIVE',
    why: 'A writes only on a lock B let lapse',
  },
  {
    oracle: 'V316',
    target: fixture('clock/timeout-monotonic-starved'),
    expect: 'INCONCLUSIVE',
    why: 'a monotonic guard in a process starved of CPU 400 ms as it falls due: late, not by the step',
  },
  {
    oracle: 'V316',
    target: fixture('clock/timeout-fast-operation'),
    params: { ttl: 400, tolerance: 100 },
    expect: 'INCONCLUSIVE',
    why: 'an operation that returns before its timeout',
  },
  {
    oracle: 'V317',
    target: fixture('clock/lease-takeover-only'),
    store: 'postgres',
    expect: 'INCONCLUSIVE',
    why: 'takes over but never holds',
  },
  {
    oracle: 'V317',
    target: fixture('clock/slow-b-acquire'),
    store: 'redis',
    expect: 'INCONCLUSIVE',
    why: "B's early try lands after A's lease lapsed on time",
  },
  {
    oracle: 'V318',
    target: fixture('clock/lww-rejects-future-stamps'),
    expect: 'INCONCLUSIVE',
    why: 'rejects the skewed write',
  },
  {
    oracle: 'V318',
    // The bad LWW target with a 20 ms read-back between the writes: the plain one's writes can come
    // under 2 ms apart on a fast machine, and a 1 ms skew then crosses the clocks (a right FAIL).
    target: fixture('clock/lww-wall-clock-slow-read'),
    params: { skew: 1 },
    expect: 'INCONCLUSIVE',
    why: 'a skew smaller than the real gap between the writes',
  },
  {
    oracle: 'V319',
    target: fixture('clock/cron-never-started'),
    params: { replicas: 2, days: 'Europe/Berlin:2025-03-30' },
    expect: 'INCONCLUSIVE',
    why: 'a scheduler never armed',
  },
  {
    oracle: 'V319',
    target: fixture('clock/cron-poller-stalls-late'),
    params: { days: 'Europe/Berlin:2025-06-01' },
    expect: 'INCONCLUSIVE',
    why: "a replica stalls after 200 working advances: the store's clock drifts out of step",
  },
  {
    oracle: 'V310',
    target: fixture('release-then-crash'),
    expect: 'INCONCLUSIVE',
    why: 'a holder that exits inside a correct release',
  },
  {
    oracle: 'V310',
    target: fixture('extend-refused-by-own-clock'),
    params: { variant: 'narrow' },
    expect: 'PASS',
    why: 'a correct lock whose extend refuses by its own clock (redlock after a slow acquire)',
  },
  { oracle: 'V310', target: fixture('chatty-lock'), expect: 'PASS', why: 'a correct lock that prints on stdout' },
  {
    oracle: 'V310',
    target: fixture('members-throw'),
    expect: 'ERROR',
    why: "B's extend() throws on its own live lease",
  },
  {
    oracle: 'V313',
    target: fixture('job-throws-for-a'),
    params: { timeout: 1000 },
    expect: 'ERROR',
    why: "A's job() throws before its acquire on a free lock",
  },
  {
    oracle: 'V313',
    target: fixture('job-throws-lock-lost'),
    expect: 'PASS',
    why: 'a correct job that throws "lock lost" when its renewal is refused',
  },
  {
    oracle: 'V315',
    target: fixture('postgres/leader/b-stops-renewing'),
    store: 'postgres',
    expect: 'INCONCLUSIVE',
    why: 'A writes only on a lease row B let lapse (Postgres)',
  },
  {
    oracle: 'V315',
    target: fixture('postgres/leader/cached-flag-undeclared'),
    store: 'postgres',
    expect: 'INCONCLUSIVE',
    why: 'a real bug whose lease row is not declared: the window cannot be read',
  },
  {
    oracle: 'V315',
    target: fixture('leader/b-throws-waiting'),
    expect: 'ERROR',
    why: "B's leader() throws while waiting to lead",
  },
  { oracle: 'V318', target: fixture('members-throw'), expect: 'ERROR', why: 'write() throws' },
  {
    oracle: 'V310',
    target: fixture('hang/import-never-settles'),
    deadlineMs: HANG_DEADLINE_MS,
    expect: 'ERROR',
    why: 'an import that never settles',
  },
  {
    oracle: 'V318',
    target: fixture('hang/write-never-settles'),
    deadlineMs: HANG_DEADLINE_MS,
    expect: 'ERROR',
    why: 'a write() that never settles',
  },
  {
    oracle: 'V319',
    target: fixture('hang/schedule-never-settles'),
    deadlineMs: HANG_DEADLINE_MS,
    expect: 'ERROR',
    why: 'a schedule() that never settles',
  },
  {
    oracle: 'V319',
    target: fixture('hang/schedule-busy-loop'),
    deadlineMs: HANG_DEADLINE_MS,
    expect: 'ERROR',
    why: 'a scheduler that busy-loops',
  },
];
