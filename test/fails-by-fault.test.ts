/** An exploration's failing points counted by fault kind (src/oracle/fails-by-fault.ts): pure, no store. */
import { expect, test } from 'vitest';
import type { ExploredPoint, ExploreFault } from '../src/oracle/explore-point.ts';
import { tallyByFault, tallySentence } from '../src/oracle/fails-by-fault.ts';

const point = (label: string, fault: ExploreFault, verdict: ExploredPoint['verdict'], notApplicable?: string) =>
  ({
    label,
    fault,
    verdict,
    boundary: { part: 'job', index: 1, kind: 'effect', name: 'write', nth: 1, text: 'effect write' },
    command: 'effect write',
    reason: '',
    wallMs: 0,
    runId: label,
    ...(notApplicable ? { notApplicable } : {}),
  }) as ExploredPoint;

test('counts the judged points of each fault and names the failing ones, failing kinds first in the sentence', () => {
  const tallies = tallyByFault([
    point('a', 'pause', 'PASS'),
    point('b', 'partition', 'FAIL'),
    point('c', 'hold-before', 'PASS'),
    point('d', 'partition', 'PASS'),
    point('e', 'partition', 'FAIL'),
    point('f', 'hold-before', 'INCONCLUSIVE', 'A already holds the lock there'),
  ]);
  expect(tallies).toEqual([
    { fault: 'hold-before', ran: 1, failed: [] },
    { fault: 'pause', ran: 1, failed: [] },
    { fault: 'partition', ran: 3, failed: ['b', 'e'] },
  ]);
  expect(tallySentence(tallies)).toBe('Failing points by fault: partition 2 of 3, hold-before 0 of 1, pause 0 of 1.');
});
