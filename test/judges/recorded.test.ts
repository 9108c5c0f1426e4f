/**
 * Every judge fixture (a real run, recorded) is judged again by its oracle's pure judge, with no
 * store and no process: the verdict, each precondition and the property come out as the real run
 * had them. A judge that depended on anything but its recorded input would drift here.
 */
import { describe, expect, it } from 'vitest';
import { fixtures, rejudge } from './recorded.ts';

const all = fixtures();

describe('judge fixtures', () => {
  it('has recorded runs to judge (a suite with none checks nothing)', () => {
    expect(all.length).toBeGreaterThan(0);
  });

  it.each(all.map(({ name, fixture }) => [name, fixture] as const))(
    '%s is judged as the real run was',
    async (_, fixture) => {
      const { verdict, judgement } = await rejudge(fixture);
      expect(verdict, judgement.explanation).toBe(fixture.verdict);
      expect(judgement.preconditions.map(({ name, held }) => ({ name, held }))).toEqual(fixture.preconditions);
      expect(judgement.property.held).toBe(fixture.propertyHeld);
    },
  );
});
