/**
 * The parameter an oracle declares to take every fault that lands itself (src/faults/landing.ts)
 * at the moment its scenario names: its choices come from the fault registry, so a fault added in
 * its own file reaches the oracle's `--fault`, `--help` and docs with no oracle file changed.
 * `faultRunsOf` is an oracle's `--fault` table: its own `faultRuns`, then one entry per such fault.
 */
import type { ParamSpecs } from '../core/params.ts';
import { LANDING_FAULTS } from '../faults/registry.ts';
import { whyNotOn } from '../faults/landing.ts';
import type { StoreKind } from '../stores/types.ts';
import type { OracleDefinition } from './definition.ts';

/** No fault of the registry's lands itself on this run (the oracle's own variant plays). */
export const NO_LANDED_FAULT = 'none';

/** `landedFault`: add it to an oracle's params with the moment it lands at, in words ("at A's first write, …"). */
export function landedFaultParam(moment: string) {
  return {
    kind: 'choice',
    default: NO_LANDED_FAULT,
    choices: [NO_LANDED_FAULT, ...LANDING_FAULTS.map((f) => f.name)],
    doc: `a fault that lands itself, landed ${moment} (set by --fault NAME); ${LANDING_FAULTS.map((f) => `${f.name}: ${f.doc}`).join('; ')}`,
  } as const;
}

/** The oracle's `--fault` table: each fault's parameters (`--variant …`, or `--landed-fault NAME`). */
export function faultRunsOf(
  oracle: OracleDefinition<ParamSpecs>,
): Readonly<Record<string, Readonly<Record<string, string>>>> {
  const landed = 'landedFault' in oracle.params ? LANDING_FAULTS.map((f) => [f.name, { landedFault: f.name }]) : [];
  return { ...oracle.faultRuns, ...Object.fromEntries(landed) };
}

/**
 * Why the run's landed fault (`landedFault`) cannot land on this store and topology, for the
 * resolve stage (before any process starts); undefined when it can, or when the run lands none.
 */
export function landedFaultRefusal(
  oracle: OracleDefinition<ParamSpecs>,
  params: Readonly<Record<string, unknown>>,
  store: StoreKind,
  topology: string,
): string | undefined {
  if (!('landedFault' in oracle.params)) return undefined;
  const fault = LANDING_FAULTS.find((f) => f.name === params.landedFault);
  const why = fault && whyNotOn(fault, store, topology);
  return why && `${oracle.id} --fault ${fault.name}: ${why}`;
}
