/** V318's parameters. */
export const v318Params = {
  // A skew is a clock offset, never waited out: a device clock a year ahead is a real fault.
  skew: {
    kind: 'ms',
    default: 2000,
    min: 1,
    max: 100 * 365 * 24 * 3_600_000,
    waited: false,
    doc: "A's wall clock runs this far ahead of real time, B's this far behind (up to 100 years)",
  },
  writer: {
    kind: 'choice',
    default: 'store',
    choices: ['store', 'decide'],
    doc: "store: the target writes and reads the record itself (write/read); decide: the harness keeps the record and asks the target's decide(incoming, existing)",
  },
} as const;
