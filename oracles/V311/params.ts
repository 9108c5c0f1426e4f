/** V311's parameters. */
import { contendersParam } from '../../scenarios/contenders.ts';

export const v311Params = {
  ttl: { kind: 'ms', default: 300, min: 20, doc: 'lock TTL the target is asked to use' },
  variant: {
    kind: 'choice',
    default: 'after-acquire',
    choices: ['after-acquire', 'between-commands'],
    doc: 'after-acquire: kill A once acquire returned; between-commands: kill A at seam "acquire:after-set"',
  },
  grace: { kind: 'ms', default: 300, min: 0, doc: 'how long past the TTL B may still need (ε)' },
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

/** The server_reset_query --pooler-reset asks PgBouncer for. */
export const SERVER_RESET_QUERY = { 'discard-all': 'DISCARD ALL', none: '' } as const;
