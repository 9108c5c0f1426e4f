/**
 * Lands a fault from the registry on a holder at the moment the oracle names, through the fault's
 * own `land` (src/faults/landing.ts): the oracle says when and on whom, the fault file says how.
 * `landFault`: a fault that cannot land in this scenario is the user's to change, a usage error with
 * its reason; `tryLandFault` returns that answer instead.
 */
import { UsageError } from '../core/errors.ts';
import type { ExploreFault } from '../core/fault.ts';
import type { Holder } from '../holder/holder.ts';
import { faultNamed } from '../faults/registry.ts';
import { landsItself, type Landed, type Landing, type LandingContext } from '../faults/landing.ts';
import type { WireProxy } from '../wire/proxy.ts';
import { cutsOff, type StoreCutOff } from '../families/fault-landing.ts';
import type { Scenario } from './scenario.ts';

export async function landFault(
  s: Scenario,
  name: ExploreFault,
  holder: Holder,
  wire: WireProxy | undefined,
): Promise<Landed> {
  const landing = await tryLandFault(s, name, holder, wire);
  if (!landing.reached) throw new UsageError(`--fault ${name}: ${landing.why}`);
  return landing;
}

/**
 * The same, for an oracle that judges a landing that did not happen (a lease that outlived the
 * bound, no ping sent): the not-applicable answer is returned, for the run to end INCONCLUSIVE
 * with its reason. The stores it never lands on are refused before the run (landedFaultRefusal).
 */
export async function tryLandFault(
  s: Scenario,
  name: ExploreFault,
  holder: Holder,
  wire: WireProxy | undefined,
): Promise<Landing> {
  const fault = faultNamed(name);
  if (!landsItself(fault))
    throw new Error(`fault ${name} has no landing of its own yet: it is landed by the oracle's flow`);
  return fault.land(landingContext(s, holder, wire));
}

/** What a fault that lands itself is offered in this scenario, on `holder`. */
export function landingContext(s: Scenario, holder: Holder, wire: WireProxy | undefined): LandingContext {
  return {
    holder,
    wire,
    view: () => s.view(),
    store: s.store,
    lockLocation: s.lockLocation,
    ttlMs: s.ttlMs,
    faults: s.faults,
    nodes: s.startedNodes,
  };
}

/**
 * Cuts `holder` off from the store by the store's own cut-off (StoreFamily.cutOff: a cluster
 * partitions the holder's node from the others), in force until lifted; a usage error with its
 * reason when it cannot land.
 */
export async function cutOffByStore(s: Scenario, cutOff: StoreCutOff, holder: Holder): Promise<Landed> {
  const landing = await cutOff.cutOff(landingContext(s, holder, undefined));
  if (!landing.reached) throw new UsageError(`${cutOff.name}: ${landing.why}`);
  return landing;
}

/** The store's own cut-off (its family's `cutOff`, from the registry); undefined where a holder's wire or filesystem calls are cut instead. */
export function storeCutOff(s: Scenario): StoreCutOff | undefined {
  const name = s.family.cutOff;
  if (name === undefined) return undefined;
  const fault = faultNamed(name);
  if (!cutsOff(fault))
    throw new Error(
      `the ${s.family.name} family's cutOff, ${name}, is a fault that cannot cut a holder off (it has no cutOff)`,
    );
  return fault;
}
