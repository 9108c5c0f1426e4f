/** V311's parameters, the patience bound they give, and their checks across each other. */
import { contendersParam } from '../../scenarios/contenders.ts';
import { defaultDeadlineMs, type ParamValues } from '../../src/core/params.ts';

export const v311Params = {
  ttl: { kind: 'ms', default: 300, min: 20, doc: 'lock TTL the target is asked to use' },
  variant: {
    kind: 'choice',
    default: 'after-acquire',
    choices: ['after-acquire', 'between-commands'],
    doc: 'after-acquire: kill A once acquire returned; between-commands: kill A at seam "acquire:after-set"',
  },
  grace: { kind: 'ms', default: 300, min: 0, doc: 'how long past the TTL B may still need (ε)' },
  patience: {
    kind: 'ms',
    default: 0,
    min: 0,
    max: 600_000,
    doc: "how long from A's take the contenders keep trying a lock still held at TTL + grace, before the run says it never freed; 0 (the default) is max(4 × TTL, TTL + grace + 2000 ms): a file lock's library may stamp its mtime a second ahead or add a margin to its stale time",
  },
  strictTtl: {
    kind: 'choice',
    default: 'off',
    choices: ['off', 'on'],
    bare: 'on',
    doc: '--strict-ttl (or --strict-ttl on): a lock that frees only later than TTL + grace FAILs (it frees, but not within its TTL); off: it PASSes, its lifetime reported',
  },
  timeout: {
    kind: 'ms',
    default: 5000,
    min: 100,
    doc: 'longest wait for A (or an explored contender) to reach its point',
  },
  contenders: contendersParam,
  poolerReset: {
    kind: 'choice',
    default: 'discard-all',
    choices: ['discard-all', 'none'],
    doc: "--store pgbouncer (session pooling): the server_reset_query PgBouncer runs when a client leaves — discard-all (its default: DISCARD ALL drops that session's advisory locks) or none (the server session goes back to the pool with them)",
  },
} as const;

type V311Params = ParamValues<typeof v311Params>;

/** The server_reset_query --pooler-reset asks PgBouncer for. */
export const SERVER_RESET_QUERY = { 'discard-all': 'DISCARD ALL', none: '' } as const;

/**
 * The patience bound (ms from A's take): --patience, or by default max(4 × TTL, TTL + grace + 2000).
 * A few TTLs cover a stale rule that scales the TTL; the 2 s cover a fixed margin on a short TTL
 * (proper-lockfile's mtime stamped up to a second ahead, a library re-checking staleness each second).
 */
export function patienceMs(p: Pick<V311Params, 'ttl' | 'grace' | 'patience'>): number {
  return p.patience > 0 ? p.patience : Math.max(4 * p.ttl, p.ttl + p.grace + 2000);
}

/** --patience, when given, must leave a watch past TTL + grace. */
export function validateV311(p: V311Params): string[] {
  if (p.patience === 0 || p.patience > p.ttl + p.grace) return [];
  return [
    `--patience ${p.patience} is not longer than --ttl ${p.ttl} + --grace ${p.grace}: the contenders would stop at TTL + grace, so a lock that frees late could not be told from one that never frees. Give more than ${p.ttl + p.grace} ms, or leave --patience out (max(4 × TTL, TTL + grace + 2000 ms))`,
  ];
}

/** The default --deadline: the usual one, with the patience the run may really wait counted. */
export function deadlineV311(p: V311Params): number {
  return defaultDeadlineMs(v311Params, { ...p, patience: patienceMs(p) });
}
