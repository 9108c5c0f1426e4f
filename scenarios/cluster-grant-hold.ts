/**
 * A's renewal held on a cluster store (--store cluster; V313 --variant renewal-wire there): A's lock lives in its node's
 * delegation, which the node renews by asking the key's home; the home's grant answering that
 * renewal (the message the target declares as its grant) is held on the link from the home to A's
 * node until A's lease lapsed by the home's own clock and B took the lock and wrote; then it goes on
 * and A's node reads it. A node that anchors the grant's deadline where it sent the request discards
 * it as outlived; one that anchors it at the reply's arrival admits A beside B.
 */
import type { CallOutcome } from '../src/holder/holder.ts';
import type { Latch } from '../src/holder/latch.ts';
import type { Scenario } from '../src/oracle/scenario.ts';
import { heldStop } from '../src/faults/stops.ts';
import { landing, type RenewalHeldStop, type StoppedA } from './stop-landing.ts';

export async function holdGrantToA(
  s: Scenario,
  timeoutMs: number,
  first: Latch,
  aJob: Promise<CallOutcome>,
): Promise<{ observed: RenewalHeldStop; stopped?: StoppedA }> {
  const nodes = await s.nodes();
  const aNode = nodes.nodeOf('A').id;
  const at = `the link to A's node ${aNode}`;
  const base = { kind: 'renewal-wire' as const, lockKey: s.lockKey, lockReadable: s.lockUnreadable === undefined, at };
  const grant = nodes.declaration.grant;
  if (!grant) {
    first.release();
    await s.within(aJob, timeoutMs);
    const holdWhat = "the target's node declares no grant message (node(env) → { grant: { type: 'grant' } })";
    return { observed: { ...base, landed: 'ended', held: null, holdWhat } };
  }
  const hold = s.links!.hold({ to: aNode, contains: grant });
  first.release();
  const landed = await landing(s, timeoutMs, hold.reached, aJob);
  const held = landed === 'held' ? await hold.reached : undefined;
  const command = held
    ? `${held.message.text.slice(0, 80)}, ${held.message.from}→${held.message.to} #${held.message.n}`
    : '';
  const observed: RenewalHeldStop = {
    ...base,
    landed,
    held: held ? { command, atMs: held.atMs } : null,
    holdWhat: hold.what,
  };
  if (!held) {
    hold.release();
    await s.within(aJob, timeoutMs);
    return { observed };
  }
  const stop = heldStop(
    hold,
    `held the grant to its node on the link (${command})`,
    `A's job ended without its node renewing (${hold.what})`,
  );
  return { observed, stopped: { stop, since: held.atMs } };
}
