/**
 * V311's scenario: A takes the lock and is killed (SIGKILL) right after its acquire returned
 * (--variant after-acquire), or stopped at the seam acquire:after-set (--variant between-commands)
 * or an explored point and killed there; B then retries for TTL + grace from when A took the key.
 * Records what happened (V311Observations); judges nothing.
 */
import type { ParamValues } from '../../src/core/params.ts';
import type { LockState } from '../../src/families/family.ts';
import { acquireWithin } from '../../scenarios/retry-acquire.ts';
import { armPoint } from '../../src/oracle/arm-point.ts';
import type { Scenario } from '../../src/oracle/scenario.ts';
import { latchStop } from '../../src/oracle/stops.ts';
import type { V311Observations } from './observations.ts';
import type { v311Params } from './params.ts';

export async function playV311(s: Scenario, p: ParamValues<typeof v311Params>): Promise<V311Observations> {
  // An explored point (--explore) stops A inside its acquire like the seam, at its own boundary.
  const point = s.point;
  const wireA = point ? await s.wire('A') : undefined;
  const [a, b] = await Promise.all([s.holder('A', wireA ? { url: wireA.url } : {}), s.holder('B')]);
  const o: V311Observations = {
    point: point ?? null,
    stop: null,
    heldSince: null,
    atKill: null,
    exit: null,
    afterKill: null,
    b: null,
    stuck: null,
  };
  const acquireStartedAt = s.now();

  if (p.variant === 'after-acquire') {
    const lease = await a.acquire();
    o.heldSince = s.now();
    if (lease) o.atKill = await beforeKill('A acquired; about to kill A');
  } else {
    const seam = point ? undefined : a.holdSeam('acquire:after-set');
    const stop = seam
      ? latchStop(seam, 'A held at env.seam("acquire:after-set")', SEAM_MISSED)
      : armPoint(point!, a, wireA, s.lockKey);
    const acquire = a.acquire();
    const first = await s.within(
      Promise.race([stop.reached.then(() => 'seam' as const), acquire.then(() => 'done' as const)]),
      p.timeout,
    );
    o.stop = {
      outcome: first === 'seam' ? 'reached' : first === 'done' ? 'finished' : 'timed-out',
      missed: stop.missed,
    };
    if (first !== 'seam') return o;
    o.heldSince = seam?.hit?.t ?? s.now();
    o.atKill = await beforeKill(
      point
        ? `A stopped at ${point.boundary.part}#${point.boundary.index}; about to kill A`
        : 'A held after creating the key; about to kill A',
    );
  }
  if (!o.atKill?.exists) return o;

  s.progress(`killing A (SIGKILL) while it holds the lock (${p.variant})`);
  const exit = await a.kill();
  o.exit = { signal: exit.signal ?? null, code: exit.code ?? null, t: exit.t };
  const afterKill = await s.observeLock('right after the kill');
  o.afterKill = { ...lockState(afterKill), receivedAt: afterKill.receivedAt };
  const budget = Math.max(0, o.heldSince + p.ttl + p.grace - s.now());
  s.progress(`B retries for up to ${budget.toFixed(0)} ms (TTL ${p.ttl} + grace ${p.grace} from when A took the key)`);
  const got = await acquireWithin(b, () => s.now(), budget, Math.max(5, Math.round(p.ttl / 10)));
  o.stuck = got.lease ? null : lockState(await s.observeLock('B gave up'));
  o.b = {
    granted: got.lease !== null,
    attempts: got.attempts,
    lastAttemptAt: got.lastAttemptAt ?? 0,
    endedAt: got.grantedAt ?? s.now(),
  };
  return o;

  /** The key read right before the kill, with how the harness words it had it found nothing. */
  async function beforeKill(label: string) {
    const state = lockState(await s.observeLock(label));
    return { ...state, notFound: s.lockNotFound('while A held the lock', s.now() - acquireStartedAt) };
  }
}

/** The reading itself (its PTTL: -1 for no expiry), without the harness times an ObservedLock adds. */
function lockState({ where, exists, value, pttlMs }: LockState): LockState {
  return { where, exists, value, pttlMs };
}

const SEAM_MISSED =
  'A\'s acquire returned without reaching env.seam("acquire:after-set"): the target has no such seam, so the kill could not land between its commands';
