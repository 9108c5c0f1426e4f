/** The effect gate (src/holder/effect-gate.ts): which effects it holds, and that held ones go on in the order sent. */
import { describe, expect, it } from 'vitest';
import { EffectGate } from '../src/holder/effect-gate.ts';

/** Offer effects 1..n to the gate; returns the order in which they went on to the resource. */
async function offer(gate: EffectGate, n: number, releaseAfter: number): Promise<number[]> {
  const delivered: number[] = [];
  const passing = Array.from({ length: n }, (_, i) =>
    (async () => {
      await gate.admit(i, { name: `write ${i + 1}` });
      delivered.push(i + 1);
    })(),
  );
  await new Promise((resolve) => setImmediate(resolve)); // every effect not held has gone on by now
  expect(delivered.length).toBe(releaseAfter);
  gate.release();
  await Promise.all(passing);
  return delivered;
}

describe('EffectGate', () => {
  it('from k on: holds the kth effect and every one after it, then delivers them in the order sent', async () => {
    const gate = new EffectGate('A', { nth: 2, scope: 'from' });
    expect(await offer(gate, 4, 1)).toEqual([1, 2, 3, 4]);
    expect(gate.heldCount).toBe(3);
    expect((await gate.reached).detail).toEqual({ name: 'write 2' });
  });

  it('one: holds only the kth effect; the ones after it pass it', async () => {
    const gate = new EffectGate('A', { nth: 2, scope: 'one' });
    expect(await offer(gate, 3, 2)).toEqual([1, 3, 2]);
    expect(gate.heldCount).toBe(1);
  });

  it('released before its effect came: holds nothing', async () => {
    const gate = new EffectGate('A', { nth: 1, scope: 'from' });
    gate.release();
    expect(gate.admit(0, {})).toBeUndefined();
    expect(gate.isReached).toBe(false);
    expect(gate.armed).toBe(false);
  });
});
