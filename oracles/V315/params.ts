/** V315's parameters. */
import { contendersParam } from '../../scenarios/contenders.ts';
import { CONNECTION_KILLED } from '../../src/faults/generic/connection-killed.ts';
import { STORE_CUT_OFFS } from '../../src/faults/registry.ts';

export const v315Params = {
  ttl: { kind: 'ms', default: 300, min: 20, doc: 'leader lease the target is asked to use' },
  stepMs: {
    kind: 'ms',
    default: 20,
    min: 1,
    doc: 'time between two leader writes in the reference targets (env.params.stepMs)',
  },
  fault: {
    kind: 'choice',
    default: 'blackhole',
    choices: ['blackhole', 'partition', 'drop', 'connection-killed', 'kill', 'failover'],
    doc: `how A is cut off: blackhole (its proxy delivers nothing either way, the connection stays open), partition (a blackhole, and A's writes from its next one on held on their way to the resource, delivered in order when the cut is lifted), drop (its proxy resets its connections and refuses reconnects), connection-killed (the registry's fault: ${CONNECTION_KILLED.doc}; kill is its old name, still taken), failover (--topology replicated or sentinel: the master's replication held from before A leads, at A's first write its store traffic held at its proxy, the master SIGKILLed and a replica promoted, so B leads there at once inside A's lease; A goes on once B wrote); where the store cuts a holder off its own way, blackhole is that cut-off: ${STORE_CUT_OFFS.map((f) => `${f.name} (${f.stores.map((store) => `--store ${store}`).join(', ')}: ${f.doc})`).join('; ')}`,
  },
  observe: {
    kind: 'ms',
    default: 300,
    min: 0,
    doc: "how long A stays cut off after B's first write, watching for A's writes",
  },
  timeout: {
    kind: 'ms',
    default: 5000,
    min: 100,
    doc: 'longest wait for any step (A leading, B taking over, the loops stopping)',
  },
  contenders: contendersParam,
} as const;

/** The cut --fault names, its old names read as the new ones (kill: connection-killed). */
export function cutFaultName(fault: string): string {
  return fault === 'kill' ? CONNECTION_KILLED.name : fault;
}
