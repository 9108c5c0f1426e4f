/** V312's parameters. */
export const v312Params = {
  ttl: { kind: 'ms', default: 5000, min: 100, doc: "lease TTL; must outlast A's whole job" },
  steps: { kind: 'count', default: 3, min: 1, max: 1000, doc: 'writes the reference jobs make (env.params.steps)' },
  stepMs: {
    kind: 'ms',
    default: 5,
    min: 1,
    doc: 'work between two writes in the reference jobs (env.params.stepMs)',
  },
  timeout: { kind: 'ms', default: 5000, min: 100, doc: 'longest wait for any step' },
} as const;
