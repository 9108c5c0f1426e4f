/** V319's parameters. */
const TRANSITION_DAYS =
  'Europe/Berlin:2025-03-30,Europe/Berlin:2025-10-26,America/New_York:2025-03-09,America/New_York:2025-11-02';

export const v319Params = {
  replicas: { kind: 'count', default: 3, min: 2, max: 8, doc: 'replica processes in the fleet' },
  days: { kind: 'text', default: TRANSITION_DAYS, doc: 'local days to simulate, Zone:YYYY-MM-DD, comma-separated' },
  perDay: { kind: 'count', default: 1, min: 0, doc: 'documented fires per local day across the fleet' },
  ttl: {
    kind: 'ms',
    default: 600_000,
    min: 1,
    max: 86_400_000,
    waited: false,
    doc: 'the fleet lock TTL the target is asked to use (env.ttlMs), in simulated time',
  },
  settleTimeout: {
    kind: 'ms',
    default: 3000,
    min: 10,
    doc: 'real ms a replica may take to finish the work one fire started',
  },
  inStep: {
    kind: 'ms',
    default: 1000,
    min: 1,
    doc: 'largest store-clock minus simulated-clock difference accepted as in step',
  },
  cpuBudget: {
    kind: 'ms',
    default: 60_000,
    min: 100,
    max: 600_000,
    waited: false,
    doc: "CPU ms (user + system, process.cpuUsage) a replica may spend on one simulated day's timers: a scheduler storming a million zero-delay timers through a day costs tens of seconds, a poller a fraction of one; past it the day stops where it got to and the days after it are not simulated",
  },
  hostTz: {
    kind: 'text',
    default: '',
    doc: "the replicas' TZ (e.g. UTC, a host not running in the job's zone); empty: each day's own zone",
  },
} as const;

/**
 * Real ms one simulated day may take: its replicas' CPU budgets one after the other (as on one
 * core) and half a minute for the round trips. A loaded machine that runs a day more slowly stops
 * it there, so the run ends before its deadline.
 */
export function dayRealBudgetMs(p: { cpuBudget: number; replicas: number }): number {
  return 30_000 + p.cpuBudget * p.replicas;
}
