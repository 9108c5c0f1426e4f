/**
 * The README's worked examples, one per shape, are files (docs/examples/ and the fromWithLock user
 * project in test/fixtures/user-project/): the README shows each file verbatim, and each gets the
 * verdict the README promises on its oracle.
 */
import { describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { runOracle } from '../src/run/run-oracle.ts';

const readme = readFileSync('README.md', 'utf8');

describe('README worked examples', () => {
  test.each([
    'docs/examples/lock-shape.target.ts',
    'docs/examples/job-shape.target.ts',
    'docs/examples/leader-shape.target.ts',
    'test/fixtures/user-project/lock-fixed.target.ts',
    'test/fixtures/user-project/src/lock-helper-fixed.ts',
    'test/oracle-api.test.ts',
    'docs/ci/settle.yml',
  ])('the README shows %s verbatim', (file) => {
    expect(readme).toContain(readFileSync(file, 'utf8').trim());
  });

  test.each([
    ['V310', 'docs/examples/lock-shape.target.ts'],
    ['V313', 'docs/examples/job-shape.target.ts'],
    ['V315', 'docs/examples/leader-shape.target.ts'],
  ] as const)('%s PASSes %s with every precondition held', async (oracle, target) => {
    const record = await runOracle({ oracle, target });
    expect(record.verdict, record.explanation).toBe('PASS');
    expect(record.preconditions.every((c) => c.held)).toBe(true);
  });
});
