/** V310's parameters. */
export const v310Params = {
  ttl: { kind: 'ms', default: 200, min: 20, doc: 'lock TTL the target is asked to use' },
  variant: {
    kind: 'choice',
    default: 'pause',
    choices: ['pause', 'narrow'],
    doc: 'pause: SIGSTOP A before its release; narrow: hold A inside its release, after its check, before its delete',
  },
  hold: {
    kind: 'choice',
    default: 'wire',
    choices: ['wire', 'seam'],
    doc: 'narrow: where A is held; wire: its delete command (DEL/UNLINK/deleting script) at its wire proxy, no target change; seam: env.seam("release:before-delete")',
  },
  timeout: { kind: 'ms', default: 5000, min: 100, doc: 'longest wait for any step' },
} as const;
