/**
 * A holder's pings held at its wire proxy until the server ends its session, while the holder runs
 * on: the proxy stops A's stream in front of its next ping (everything A sends after it waits
 * behind it, as on a connection that stalled), so the server hears nothing from A's session for its
 * timeout and expires it, deleting its ephemeral nodes; A's process is never stopped. This is
 * Curator Tech Note 10's case without a JVM pause, and what lands on an explored point where A is
 * held at a reply or a seam while its client keeps pinging (a session does not lapse there). The
 * landing: `holdPingsUntilExpired`, through `land` at the moment the oracle names (--fault
 * hold-pings), bounded by twice the session's granted timeout + 5 s; not applicable on a topology,
 * nor on another family's store (the ZooKeeper family's fault, StoreFamily.faults).
 */
import type { WireProxy } from '../../../wire/proxy.ts';
import { liveSessions } from '../four-letter.ts';
import { ZK_RENEWAL } from '../commands.ts';
import type { LandableFault } from '../../fault-landing.ts';
import { holderSession } from './holder-session.ts';

export const HOLD_PINGS: LandableFault = {
  name: 'hold-pings',
  rank: 92,
  words: 'its pings held until its session ended',
  doc: "A's pings (its session's keepalive) are held at its wire proxy, with all A sends after them, until the server expires A's session; A's process runs on",
  at: ['command', 'seam', 'effect'],
  topologies: ['single'],
  stores: ['zookeeper'],
  inWords: (_, at) =>
    `from ${at} on, A's pings were held at its wire proxy until the server expired its session, A still running`,
  async land(ctx) {
    const found = holderSession('hold-pings', "holds a ZooKeeper session's pings", ctx);
    if ('reached' in found) return found;
    const { wire, session } = found;
    const { holder, store, faults } = ctx;
    const id = `0x${session.id.toString(16)}`;
    const record = faults.apply('wire', holder.id, `hold pings of session ${id} until it expires`, { session: id });
    try {
      const landed = await holdPingsUntilExpired(wire, store.port, id, 2 * session.timeoutMs + 5000);
      const heldMs = Math.round(landed.expiredAtMs - landed.heldAtMs);
      faults.lift(record, { heldMs });
      return {
        reached: true,
        took: true,
        words: `A's pings were held at its wire proxy for ${heldMs} ms until the server expired its session ${id}, while A ran on`,
        facts: { action: `hold pings of session ${id} until it expired`, session: id, heldMs },
        lift: () => undefined,
      };
    } catch (error) {
      faults.lift(record, { why: (error as Error).message });
      return { reached: false, why: (error as Error).message };
    }
  },
};

/**
 * Hold A's next ping at `proxy` until the server on 127.0.0.1:`port` no longer tracks `session`
 * ("0x…"), polling its `dump` every `pollMs`; then release what was held (the server answers it
 * with the session's end). Rejects when the session outlives `withinMs` (the fault did not land).
 */
export async function holdPingsUntilExpired(
  proxy: WireProxy,
  port: number,
  session: string,
  withinMs: number,
  pollMs = 20,
): Promise<{ heldAtMs: number; expiredAtMs: number }> {
  const hold = proxy.hold(ZK_RENEWAL);
  const deadline = performance.now() + withinMs;
  const noPing = setTimeout(() => hold.cancel(`A sent no ping within ${withinMs} ms`), withinMs);
  try {
    const held = await hold.reached;
    clearTimeout(noPing);
    while ((await liveSessions(port)).has(session)) {
      if (performance.now() > deadline)
        throw new Error(`hold-pings: session ${session} still alive ${withinMs} ms after its ping was held`);
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
    return { heldAtMs: held.atMs, expiredAtMs: proxy.log.now() };
  } finally {
    clearTimeout(noPing);
    hold.release();
  }
}
