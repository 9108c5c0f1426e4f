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
} as const;
