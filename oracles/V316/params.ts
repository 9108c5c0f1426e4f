/** V316's parameters. */
export const v316Params = {
  ttl: { kind: 'ms', default: 1000, min: 50, doc: 'the timeout the target guards its operation with (env.ttlMs)' },
  step: {
    kind: 'ms',
    default: 10_000,
    min: 1,
    max: 86_400_000,
    waited: false,
    doc: 'how far the wall clock is stepped: A back, B forward',
  },
  tolerance: {
    kind: 'ms',
    default: 250,
    min: 1,
    doc: 'how far from --ttl a firing may land and still count as on time',
  },
  direction: {
    kind: 'choice',
    default: 'both',
    choices: ['both', 'back', 'forward'],
    doc: 'which steps to apply (back: A only; forward: B only)',
  },
} as const;
