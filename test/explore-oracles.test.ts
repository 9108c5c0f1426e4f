/**
 * --explore on every explorable oracle, in `npm test`: its first bad reference FAILs with a minimal
 * schedule and its first good one PASSes every point, on the oracle's own store (test/explore-split.ts;
 * the check is test/explore-references.ts). The rest of each oracle's explored references run in
 * `npm run test:explore` (test/explored/), which .ci/run runs: this file checks that each explorable
 * oracle has its file there, so a new one (V320) cannot be left out of either.
 */
import { existsSync, readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { loadAllOracles } from '../src/run/registry.ts';
import { exploreReferences } from '../src/oracle/explore-spec.ts';
import { exploreReferencesOf } from './explore-references.ts';
import { exploredIn } from './explore-split.ts';

const explorable = (await loadAllOracles()).filter((oracle) => oracle.explore);

test.each(explorable.map((oracle) => [oracle.id, oracle] as const))(
  '%s: one bad and one good reference explored here, the rest in test/explored/',
  (id, oracle) => {
    const references = exploreReferences(oracle);
    const suites = exploredIn(oracle, references);
    const here = references.filter((_r, index) => suites[index] === 'npm test');
    expect(here.map((r) => r.expect).sort()).toEqual(['FAIL', 'PASS']);
    const file = new URL(`./explored/explore-${id}.test.ts`, import.meta.url);
    expect(existsSync(file), `test/explored/explore-${id}.test.ts is missing`).toBe(true);
    expect(readFileSync(file, 'utf8')).toContain(`exploreReferencesOf('${id}', {`);
    expect(readFileSync(file, 'utf8')).toContain(`suite: 'test:explore'`);
  },
);

for (const oracle of explorable) await exploreReferencesOf(oracle.id, { suite: 'npm test' });
