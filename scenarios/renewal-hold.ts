/**
 * A's next renewal held after its first write (V313 --variant renewal-wire): at A's wire proxy,
 * the renewal command held there (no process stop, no seam); on a store whose traffic runs between
 * the target's own nodes (a cluster: A has no wire proxy), the grant answering its node's renewal,
 * held on its link (./cluster-grant-hold.ts). Returns what was held and, when it landed, the stop.
 */
import type { CallOutcome } from '../src/holder/holder.ts';
import type { Latch } from '../src/holder/latch.ts';
import type { Scenario } from '../src/oracle/scenario.ts';
import { heldStop } from '../src/faults/stops.ts';
import type { WireProxy } from '../src/wire/proxy.ts';
import { holdGrantToA } from './cluster-grant-hold.ts';
import { landing, type RenewalHeldStop, type StoppedA } from './stop-landing.ts';

/** A held at its first write (`first`) is let go towards its next renewal, held where it goes out. */
export async function holdRenewalOfA(
  s: Scenario,
  timeoutMs: number,
  first: Latch,
  aJob: Promise<CallOutcome>,
  wireA: WireProxy | undefined,
): Promise<{ observed: RenewalHeldStop; stopped?: StoppedA }> {
  if (!wireA) return holdGrantToA(s, timeoutMs, first, aJob);
  const hold = wireA.hold(s.lockCommands('renewal'));
  first.release();
  const landed = await landing(s, timeoutMs, hold.reached, aJob);
  const held = landed === 'held' ? await hold.reached : undefined;
  const observed: RenewalHeldStop = {
    kind: 'renewal-wire',
    landed,
    held: held ? { command: held.command.text, atMs: held.atMs } : null,
    holdWhat: hold.record.what,
    lockKey: s.lockKey,
    lockReadable: s.lockUnreadable === undefined,
  };
  if (!held) {
    hold.release();
    await s.within(aJob, timeoutMs);
    return { observed };
  }
  const what = `held its renewal (${held.command.text.slice(0, 60)}) at the wire`;
  const stop = heldStop(hold, what, `A's job ended without renewing its lease (${hold.record.what})`);
  return { observed, stopped: { stop, since: held.atMs } };
}
