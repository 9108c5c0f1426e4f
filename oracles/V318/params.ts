/** V318's parameters. */
export const v318Params = {
  skew: {
    kind: 'ms',
    default: 2000,
    min: 1,
    doc: "A's wall clock runs this far ahead of real time, B's this far behind",
  },
  writer: {
    kind: 'choice',
    default: 'store',
    choices: ['store', 'decide'],
    doc: "store: the target writes and reads the record itself (write/read); decide: the harness keeps the record and asks the target's decide(incoming, existing)",
  },
} as const;
