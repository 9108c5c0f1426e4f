/**
 * The docs' worked examples, one per shape, are files (docs/examples/ and the fromWithLock user
 * project in test/fixtures/user-project/): the page that explains each (docs/writing-targets.md,
 * docs/settle-and-prove.md; the README for the fromWithLock target) shows it verbatim, and each
 * gets the verdict the docs promise on its oracle.
 */
import { describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { runOracle } from '../src/run/run-oracle.ts';

/** Markdown with its indentation dropped, so a code block inside a list item still shows a file verbatim. */
const page = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .map((line) => line.trimStart())
    .join('\n');
const unindented = (file: string) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => line.trimStart())
    .join('\n');

describe('worked examples in the docs', () => {
  test.each([
    ['docs/writing-targets.md', 'docs/examples/lock-shape.target.ts'],
    ['docs/writing-targets.md', 'docs/examples/job-shape.target.ts'],
    ['docs/writing-targets.md', 'docs/examples/leader-shape.target.ts'],
    ['docs/writing-targets.md', 'test/fixtures/user-project/lock-fixed.target.ts'],
    ['docs/writing-targets.md', 'test/fixtures/user-project/src/lock-helper-fixed.ts'],
    ['README.md', 'test/fixtures/user-project/lock-fixed.target.ts'],
    ['docs/settle-and-prove.md', 'test/oracle-api.test.ts'],
    ['docs/settle-and-prove.md', 'docs/ci/settle.yml'],
  ])('%s shows %s verbatim', (doc, file) => {
    expect(page(doc)).toContain(unindented(file));
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
