/**
 * The generated oracle docs are current: the README's oracle table and every docs/oracles/Vnnn.md
 * page are exactly what scripts/docs.ts renders from the oracle definitions (else: run npm run docs),
 * no page is left for an oracle that is gone, and the README stays a map (at most 400 lines).
 */
import { describe, expect, test } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PAGES_DIR, ROOT, renderAll, renderOraclePage, renderOracleTable, shortScenario } from '../scripts/docs.ts';
import { loadAllOracles } from '../src/run/registry.ts';

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const STALE = 'is not what the generator writes: run npm run docs';

describe('generated docs', async () => {
  const files = await renderAll(readme);

  test.each([...files.keys()])('%s is current', (path) => {
    const actual = existsSync(join(ROOT, path)) ? readFileSync(join(ROOT, path), 'utf8') : '(missing)';
    expect(actual, `${path} ${STALE}`).toBe(files.get(path));
  });

  test('docs/oracles/ holds one page per oracle and nothing else', () => {
    const pages = readdirSync(join(ROOT, PAGES_DIR)).map((f) => `${PAGES_DIR}/${f}`);
    expect(pages.sort(), `${PAGES_DIR}/ ${STALE}`).toEqual([...files.keys()].filter((p) => p !== 'README.md').sort());
  });

  test('every README row is short and links its page', async () => {
    const oracles = await loadAllOracles();
    const rows = renderOracleTable(oracles).split('\n').slice(2);
    expect(rows).toHaveLength(oracles.length);
    for (const [i, row] of rows.entries()) {
      expect(row).toContain(`[${oracles[i]!.id}](${PAGES_DIR}/${oracles[i]!.id}.md)`);
      for (const c of row.split(/(?<!\\)\|/)) expect(c.length, row).toBeLessThan(200);
    }
  });

  test('a long scenario is shortened at a sentence or a word', () => {
    expect(shortScenario('Short. Two.')).toBe('Short. Two.');
    expect(shortScenario(`${'a'.repeat(100)}. ${'b '.repeat(100)}`)).toBe(`${'a'.repeat(100)}.`);
    const cut = shortScenario('word '.repeat(60));
    expect(cut.length).toBeLessThanOrEqual(180);
    expect(cut.endsWith('word…')).toBe(true);
  });

  test('declared preconditions are listed by name, and their absence is said', async () => {
    const [oracle] = await loadAllOracles();
    const declared = { ...oracle!, preconditions: [{ name: 'a-held', checks: 'A held the lock.' }] };
    expect(renderOraclePage(declared)).toContain('- **a-held**: A held the lock.');
    expect(renderOraclePage(declared)).not.toContain('Not yet declared');
    const none = { ...oracle!, preconditions: [] };
    expect(renderOraclePage(none)).toContain('Not yet declared');
  });

  test('README.md is a map: at most 400 lines', () => {
    expect(readme.trimEnd().split('\n').length).toBeLessThanOrEqual(400);
  });
});
