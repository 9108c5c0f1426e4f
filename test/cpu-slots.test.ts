/**
 * Explore's slots (src/run/cpu-slots.ts): at least `floor` pieces at once, more up to `ceiling`
 * only while the CPU was idle enough since the last start. The idle share is handed in, so each
 * case fixes what the machine looked like; the pieces are real promises on real timers.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, test } from 'vitest';
import { cpuSlots, IDLE_FOR_ANOTHER, IDLE_FOR_TWO_MORE, idleMeter, SETTLE_MS } from '../src/run/cpu-slots.ts';

/** Runs `n` pieces that each last `ms`; returns the most that ran at once. */
async function peakOf(slots: ReturnType<typeof cpuSlots>, n: number, ms: number): Promise<number> {
  let running = 0;
  let most = 0;
  await Promise.all(
    Array.from({ length: n }, () =>
      slots(async () => {
        most = Math.max(most, ++running);
        await sleep(ms);
        running--;
      }),
    ),
  );
  expect(slots.peak).toBe(most);
  return most;
}

test('a busy CPU keeps the floor; an idle one lets more start, a settle interval at a time, up to the ceiling', async () => {
  expect(
    await peakOf(
      cpuSlots(2, 8, () => 0),
      6,
      4 * SETTLE_MS,
    ),
  ).toBe(2);
  expect(
    await peakOf(
      cpuSlots(2, 4, () => 1),
      8,
      6 * SETTLE_MS,
    ),
  ).toBe(4);
});

test('the level rises by one a window while the CPU has some room, by two while it is mostly idle', async () => {
  const levelAfterTwoWindows = async (share: number) => {
    const slots = cpuSlots(1, 9, () => share);
    const pieces = Array.from({ length: 9 }, () => slots(() => sleep(3 * SETTLE_MS)));
    await sleep(2.5 * SETTLE_MS);
    const level = slots.level;
    await Promise.all(pieces);
    return level;
  };
  expect(await levelAfterTwoWindows((IDLE_FOR_ANOTHER + IDLE_FOR_TWO_MORE) / 2)).toBe(3);
  expect(await levelAfterTwoWindows(1)).toBe(5);
});

test('a piece that ends is replaced at once up to the level, and a saturated CPU lowers the level to the floor', async () => {
  let share = 1;
  const slots = cpuSlots(1, 3, () => share);
  const starts: number[] = [];
  const began = performance.now();
  const piece = () =>
    slots(async () => {
      starts.push(performance.now() - began);
      await sleep(SETTLE_MS / 3);
    });
  // Twelve short pieces: the level reaches 3 and stays, so pieces start well faster than one per window.
  await Promise.all(Array.from({ length: 12 }, piece));
  expect(slots.level).toBe(3);
  expect(slots.peak).toBe(3);
  expect(starts.length).toBe(12);
  expect(starts[11]!).toBeLessThan(8 * SETTLE_MS);
  // Now the CPU is saturated: with pieces still running, the level falls by one a window down to the floor.
  share = 0;
  await Promise.all(Array.from({ length: 3 }, () => slots(() => sleep(4 * SETTLE_MS))));
  expect(slots.level).toBe(1);
});

test('the floor and the ceiling are checked, and the meter gives a share of the whole machine', () => {
  expect(() => cpuSlots(0, 2)).toThrow(/1 ≤ floor ≤ ceiling/);
  expect(() => cpuSlots(3, 2)).toThrow(/1 ≤ floor ≤ ceiling/);
  const idle = idleMeter()();
  expect(idle).toBeGreaterThanOrEqual(0);
  expect(idle).toBeLessThanOrEqual(1);
});
