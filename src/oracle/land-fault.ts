/**
 * Lands a fault from the registry on a holder at the moment the oracle names, through the fault's
 * own `land` (src/faults/landing.ts): the oracle says when and on whom, the fault file says how.
 * A fault that cannot land in this scenario is the user's to change: a usage error with its reason.
 */
import { UsageError } from '../core/errors.ts';
import type { ExploreFault } from '../core/fault.ts';
import type { Holder } from '../holder/holder.ts';
import { faultNamed } from '../faults/registry.ts';
import { landsItself, type Landed } from '../faults/landing.ts';
import type { WireProxy } from '../wire/proxy.ts';
import type { Scenario } from './scenario.ts';

export async function landFault(
  s: Scenario,
  name: ExploreFault,
  holder: Holder,
  wire: WireProxy | undefined,
): Promise<Landed> {
  const fault = faultNamed(name);
  if (!landsItself(fault))
    throw new Error(`fault ${name} has no landing of its own yet: it is landed by the oracle's flow`);
  const landing = await fault.land({
    holder,
    wire,
    view: () => s.view(),
    store: s.store,
    lockLocation: s.lockLocation,
    ttlMs: s.ttlMs,
    faults: s.faults,
  });
  if (!landing.reached) throw new UsageError(`--fault ${name}: ${landing.why}`);
  return landing;
}
