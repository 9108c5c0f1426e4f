/**
 * How V315 cuts A off from the store while its process keeps running, as a Stop (src/faults/stops.ts):
 * in force (`reached`) once applied, `release()` lifts it. Its wire record counts the commands it
 * stopped and the reconnects it refused; a kill also says how many connections the store closed.
 * A file store has no wire: A's filesystem calls are held there instead (blackhole, partition).
 */
import type { Holder } from '../../src/holder/holder.ts';
import type { Scenario } from '../../src/oracle/scenario.ts';
import type { Stop } from '../../src/faults/stops.ts';
import type { WireProxy } from '../../src/wire/proxy.ts';
import type { WireFaultRecord } from '../../src/wire/records.ts';
import { UsageError } from '../../src/core/errors.ts';
import { landFault } from '../../src/oracle/land-fault.ts';
import { cutFaultName } from './params.ts';

export interface Cut extends Stop {
  /** The proxy fault in force: its record counts what it stopped. */
  readonly record: WireFaultRecord;
  /** Connections the store closed (--fault connection-killed), else 0. */
  readonly killed: number;
}

/** A fault in force with its record, until lifted. */
interface CutHandle {
  record: WireFaultRecord;
  lift(): void;
}

/**
 * Cuts A off by `fault`: blackhole, partition (a blackhole, and A's writes held on their way to the
 * resource), drop (reconnects refused), or connection-killed (alias kill: the registry's fault, the
 * store closes A's connections, reconnects refused). With no wire (a file store) the blackhole holds A's filesystem calls.
 */
export async function cutOff(s: Scenario, a: Holder, wire: WireProxy | undefined, fault: string): Promise<Cut> {
  const blackhole = (): CutHandle => (wire ? wire.blackhole() : s.fsBoundaries(a.id).blackhole());
  if (fault === 'blackhole') return inForce(blackhole(), fault);
  if (fault === 'partition') {
    // A's writes from its next one on wait on their way to the resource too; delivered first on release.
    const gate = a.gateEffects({ nth: 1, scope: 'from' });
    const cut = blackhole();
    return inForce({ record: cut.record, lift: () => (gate.release(), cut.lift()) }, fault);
  }
  if (!wire)
    throw new UsageError(
      `--fault ${fault} drops A's connections, which a ${s.store.kind} store does not have: its calls can be held (--fault blackhole or partition)`,
    );
  if (fault === 'drop') return inForce(wire.drop({ refuseNew: true }), fault);
  // connection-killed (its old name here: kill) lands itself: src/faults/generic/connection-killed.ts.
  const killed = await landFault(s, cutFaultName(fault), a, wire);
  if (!killed.record) throw new Error(`--fault ${fault} landed with no record at A's wire proxy to count what it cut`);
  return inForce(
    { record: killed.record, lift: () => killed.lift() },
    killed.facts.action,
    Number(killed.facts.killed),
  );
}

/** An explored point A is held at, with everything else A sends blackholed: one cut, in force until the point is let go. */
export function cutAtPoint(s: Scenario, a: Holder, at: Stop, wire: WireProxy | undefined, what: string): Cut {
  const rest = wire ? wire.blackhole() : s.fsBoundaries(a.id).blackhole();
  // In force until let go, even once the held command's connection is gone (a failover's kill closes it).
  let released = false;
  return {
    what,
    killed: 0,
    record: rest.record,
    reached: at.reached,
    missed: at.missed,
    release: () => ((released = true), at.release(), rest.lift()),
    get isReleased() {
      return released;
    },
  };
}

function inForce(handle: CutHandle, what: string, killed = 0): Cut {
  let lifted = false;
  return {
    what,
    killed,
    record: handle.record,
    reached: Promise.resolve(handle.record),
    missed: 'never: a cut is in force once it is applied',
    release: () => ((lifted = true), handle.lift()),
    get isReleased() {
      return lifted;
    },
  };
}
