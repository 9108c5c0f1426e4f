/**
 * The run's resource scope (src/run/stages/run-scope.ts): what a run started is released newest
 * first, each once, with how the run ended; a failing release does not keep the others from
 * running; a run being released starts nothing more.
 */
import { describe, expect, test, vi } from 'vitest';
import { RunScope, type Ending } from '../src/run/stages/run-scope.ts';

describe('a run scope', () => {
  test('releases newest first, each once, telling each how the run ended', async () => {
    const scope = new RunScope();
    const released: string[] = [];
    for (const what of ['stores', 'holders', 'scenario'])
      scope.add(what, (ending: Ending) => {
        released.push(`${what}:${ending}`);
      });
    await scope.release('deadline');
    await scope.release('finished');
    expect(released).toEqual(['scenario:deadline', 'holders:deadline', 'stores:deadline']);
  });

  test('waits for each release before the next, so the store outlives the holders that close against it', async () => {
    const scope = new RunScope();
    const order: string[] = [];
    scope.add('store', () => order.push('store stopped'));
    scope.add('holder', async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      order.push('holder closed');
    });
    await scope.release('finished');
    expect(order).toEqual(['holder closed', 'store stopped']);
  });

  test('a release that throws or rejects is said on stderr and does not stop the ones after it', async () => {
    const scope = new RunScope();
    const released: string[] = [];
    scope.add('store', () => released.push('store'));
    scope.add('holders', () => Promise.reject(new Error('close failed')));
    scope.add('scenario', () => {
      throw new Error('closer threw');
    });
    const said: string[] = [];
    const write = vi.spyOn(process.stderr, 'write').mockImplementation((text) => said.push(String(text)) > 0);
    try {
      await expect(scope.release('interrupted')).resolves.toBeUndefined();
    } finally {
      write.mockRestore();
    }
    expect(released).toEqual(['store']);
    expect(said).toEqual([
      'releasing scenario at the end of the run failed: closer threw\n',
      'releasing holders at the end of the run failed: close failed\n',
    ]);
  });

  test('a run being released starts nothing more', async () => {
    const scope = new RunScope();
    expect(scope.open).toBe(true);
    const releasing = scope.release('finished');
    expect(scope.open).toBe(false);
    expect(() => scope.add('a late holder', () => undefined)).toThrow(
      /the run has ended, so a late holder is not started/,
    );
    await releasing;
  });
});
