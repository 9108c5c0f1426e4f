/** V314's parameters, shared by its definition and its two scenarios. */
import type { ParamValues } from '../../src/core/params.ts';

export const v314Params = {
  scenario: {
    kind: 'choice',
    default: 'pool',
    choices: ['pool', 'pooler'],
    doc: 'pool: unlock while a parallel query holds the other pooled connection; pooler: two holders through PgBouncer',
  },
  poolMode: {
    kind: 'choice',
    default: 'transaction',
    choices: ['transaction', 'session'],
    doc: "PgBouncer's pool_mode for the pooler scenario (transaction is the hazardous one)",
  },
  poolMax: {
    kind: 'count',
    default: 2,
    min: 2,
    max: 100,
    doc: "the size of the target's pool (targets read env.params.poolMax)",
  },
  timeout: { kind: 'ms', default: 5000, min: 100, doc: 'longest wait for any step' },
} as const;

export type V314Params = ParamValues<typeof v314Params>;
