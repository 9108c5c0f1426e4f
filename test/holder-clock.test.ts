/**
 * A holder's own clock, in a real holder process: the wall mode moves Date only (monotonic time
 * stays real) and is stepped by the harness; the simulated mode runs fake timers as the harness
 * advances them and holds still until the work they started has settled.
 */
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { History } from '../src/core/history.ts';
import { Resource } from '../src/core/resource.ts';
import { FaultLog } from '../src/core/fault-log.ts';
import { compileHolderModules, Holder } from '../src/holder/holder.ts';

const PROBE = await compileHolderModules(fileURLToPath(new URL('./fixtures/clock-probe.ts', import.meta.url)));

function startHolder(id: string) {
  const history = new History();
  const resource = new Resource();
  const holder = new Holder(id, PROBE, { history, resource, faults: new FaultLog(history) });
  return { holder, history, resource };
}

async function sample(holder: Holder) {
  const outcome = await holder.call('read');
  return JSON.parse(String(outcome.value)) as { wall: number; mono: number; zone: string };
}

const started: Holder[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((h) => h.close()));
});

describe('holder wall clock', () => {
  it('steps Date back and forward while performance.now keeps real time, and records each step', async () => {
    const { holder, history } = startHolder('A');
    started.push(holder);
    await holder.init({ url: 'redis://127.0.0.1:1', key: 'k', ttlMs: 1, params: {} });

    await holder.clock({ op: 'install-wall', offsetMs: 5000 });
    const skewed = await sample(holder);
    expect(skewed.wall - Date.now()).toBeGreaterThan(4000);
    expect(skewed.wall - Date.now()).toBeLessThan(6000);

    const back = await holder.clock({ op: 'step', deltaMs: -10_000 });
    expect(back.offsetMs).toBe(-5000);
    const after = await sample(holder);
    expect(after.wall - skewed.wall).toBeLessThan(-8000);
    expect(after.mono).toBeGreaterThan(skewed.mono);
    expect(after.mono - skewed.mono).toBeLessThan(5000);

    await holder.clock({ op: 'set-offset', offsetMs: 0 });
    expect(Math.abs((await sample(holder)).wall - Date.now())).toBeLessThan(1000);
    const steps = history.filter((e) => e.kind === 'clock-step');
    expect(steps.map((e) => e.detail.op)).toEqual(['install-wall', 'step', 'set-offset']);
  });

  it('gives two holders two independent clocks', async () => {
    const a = startHolder('A');
    const b = startHolder('B');
    started.push(a.holder, b.holder);
    await Promise.all([a, b].map((h) => h.holder.init({ url: 'redis://127.0.0.1:1', key: 'k', ttlMs: 1, params: {} })));
    await a.holder.clock({ op: 'install-wall', offsetMs: -2000 });
    await b.holder.clock({ op: 'install-wall', offsetMs: 2000 });
    const [wa, wb] = await Promise.all([sample(a.holder), sample(b.holder)]);
    expect(wb.wall - wa.wall).toBeGreaterThan(3000);
  });
});

describe('holder simulated clock', () => {
  it('runs a timer only when advanced, in the zone asked for, and settles the work it started', async () => {
    const { holder, resource } = startHolder('R1');
    started.push(holder);
    await holder.init({ url: 'redis://127.0.0.1:1', key: 'k', ttlMs: 1, params: {} });
    const start = Date.UTC(2025, 9, 26, 0, 0, 0);
    const installed = await holder.clock({ op: 'install-sim', startMs: start, zone: 'Europe/Berlin' });
    expect(installed.wallMs).toBe(start);
    expect((await sample(holder)).zone).toBe('Europe/Berlin');
    await holder.call('schedule');
    const quiet = await holder.clock({ op: 'advance', toMs: start + 59_999, settleTimeoutMs: 2000 });
    expect(quiet.fired).toBe(0);
    expect(resource.effects()).toHaveLength(0);
    expect(quiet.nextTimerMs).toBe(start + 60_000);

    const fired = await holder.clock({ op: 'advance', toMs: start + 3_600_000, settleTimeoutMs: 2000 });
    expect(fired.fired).toBe(1);
    expect(fired.work).toBeGreaterThan(0);
    expect(fired.settled).toBe(true);
    // The effect round trip finished before the reply: the clock stood still until it had.
    expect(resource.effects().map((e) => e.value)).toEqual([start + 60_000]);
    expect(fired.wallMs).toBe(start + 3_600_000);
  });
  it('runs on alone to the first instant that starts work, leaves that work for a settle, and goes no further', async () => {
    const { holder, resource } = startHolder('R1');
    started.push(holder);
    await holder.init({ url: 'redis://127.0.0.1:1', key: 'k', ttlMs: 1, params: {} });
    const start = Date.UTC(2025, 2, 30, 0, 0, 0);
    await holder.clock({ op: 'install-sim', startMs: start, zone: 'Europe/Berlin' });
    await holder.call('schedule');
    const stopped = await holder.clock({
      op: 'advance',
      toMs: start + 3_600_000,
      settleTimeoutMs: 2000,
      untilWork: true,
    });
    expect(stopped).toMatchObject({ fired: 1, workLeft: true, nowMs: start + 60_000, wallMs: start + 60_000 });
    expect(stopped.work).toBeGreaterThan(0);
    const settled = await holder.clock({ op: 'settle', settleTimeoutMs: 2000 });
    expect(settled).toMatchObject({ settled: true, nowMs: start + 60_000, nextTimerMs: null });
    // The effect was reported at the instant the timer fired: the clock stood still until then.
    expect(resource.effects().map((e) => e.value)).toEqual([start + 60_000]);
    const rest = await holder.clock({ op: 'advance', toMs: start + 3_600_000, settleTimeoutMs: 2000, untilWork: true });
    expect(rest).toMatchObject({ fired: 0, work: 0, workLeft: false, nowMs: start + 3_600_000 });
  });
});
