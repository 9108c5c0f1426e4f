/**
 * `--fault NAME` on a plain run: the oracle's parameters that land that fault (its `faultRuns`:
 * `--fault node-restart` is `--variant quorum --node-fault restart`). An oracle whose own parameter
 * is called `fault` (V315: how A is cut off) takes it as that parameter. An oracle with a `landedFault`
 * parameter also runs every fault that lands itself (src/oracle/landed-fault.ts).
 */
import { UsageError } from '../../core/errors.ts';
import { optionName, type ParamSpecs } from '../../core/params.ts';
import type { OracleDefinition } from '../../oracle/definition.ts';
import { faultRunsOf } from '../../oracle/landed-fault.ts';

export function withFaultOption(
  oracle: OracleDefinition<ParamSpecs>,
  params: Record<string, string>,
  exploring: boolean,
): Record<string, string> {
  const { fault, ...rest } = params;
  if (fault === undefined || 'fault' in oracle.params) return params;
  const runs = faultRunsOf(oracle);
  if (exploring)
    throw new UsageError(
      `--fault picks one fault for a plain run; --explore lands every fault that applies (${oracle.id} --help lists them by store)`,
    );
  const chosen = runs[fault];
  if (!chosen)
    throw new UsageError(
      Object.keys(runs).length
        ? `${oracle.id} --fault ${fault}: not one of its faults (${Object.keys(runs).join(', ')})`
        : `${oracle.id} takes no --fault: its scenario lands one fault (${oracle.id} --help)`,
    );
  for (const [name, value] of Object.entries(chosen))
    if (rest[name] !== undefined && rest[name] !== value)
      throw new UsageError(
        `${oracle.id} --fault ${fault} is ${faultRunText(chosen)}: it cannot run with ${optionName(name)} ${rest[name]}`,
      );
  return { ...rest, ...chosen };
}

/** `--variant quorum --node-fault restart` */
export function faultRunText(params: Readonly<Record<string, string>>): string {
  return Object.entries(params)
    .map(([name, value]) => `${optionName(name)} ${value}`)
    .join(' ');
}
