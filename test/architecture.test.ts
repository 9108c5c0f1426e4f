/**
 * The engine's layering, checked on its import graph (static and dynamic imports, types included):
 * a lower layer never imports a higher one, no folder of src/ is in an import cycle with another,
 * nothing but the public entry points lies at src/'s root, and no oracle imports a module of one
 * store family (an oracle declares what it needs; the families offer it, src/stores/families/).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');

/** The layers, lowest first: a module may import its own layer and those below it. */
const LAYERS: string[][] = [
  ['src/core', 'targets/contract.ts'],
  ['src/build', 'src/process'],
  ['src/stores'],
  ['src/wire'],
  ['src/families'],
  ['src/holder'],
  ['src/faults'],
  ['src/oracle', 'src/judging'],
  ['scenarios'],
  ['oracles'],
  ['src/report'],
  ['src/run'],
  ['src/explore'],
  ['src/selfcheck', 'src/settle', 'src/prove'],
  ['src/cli'],
  ['src/index.ts', 'src/vitest.ts', 'targets/adapters'],
];

function unitOf(file: string): string | undefined {
  return LAYERS.flat().find((unit) => file === unit || file.startsWith(`${unit}/`));
}
function layerOf(unit: string): number {
  return LAYERS.findIndex((layer) => layer.includes(unit));
}

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = `${dir}/${name}`;
    if (statSync(join(ROOT, path)).isDirectory()) return sources(path);
    return /\.ts$/.test(name) && !/\.d\.ts$/.test(name) ? [path] : [];
  });
}

const FILES = ['src', 'oracles', 'scenarios', 'targets/contract.ts', 'targets/adapters'].flatMap((p) =>
  p.endsWith('.ts') ? [p] : sources(p),
);

/** Every relative import of a file, resolved to a repository path. */
function importsOf(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(join(ROOT, file), 'utf8'), true, true);
  return info.importedFiles
    .map((i) => i.fileName)
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => normalize(join(dirname(file), spec)));
}

const EDGES = FILES.flatMap((from) => importsOf(from).map((to) => ({ from, to })));

describe('architecture', () => {
  it('finds the import graph (a check that reads nothing cannot fail)', () => {
    expect(FILES.length).toBeGreaterThan(100);
    expect(EDGES.length).toBeGreaterThan(300);
  });

  it('every module belongs to a layer', () => {
    expect(FILES.filter((f) => unitOf(f) === undefined)).toEqual([]);
  });

  it('no module imports a layer above its own', () => {
    const upward = EDGES.flatMap(({ from, to }) => {
      const a = unitOf(from);
      const b = unitOf(to);
      if (!a || !b) return [];
      return layerOf(b) > layerOf(a) ? [`${from} (${a}) imports ${to} (${b})`] : [];
    });
    expect(upward).toEqual([]);
  });

  it('no two folders import each other (directly or round a cycle)', () => {
    const folder = (f: string) => (f.startsWith('oracles/') ? 'oracles' : dirname(f));
    const graph = new Map<string, Set<string>>();
    for (const { from, to } of EDGES) {
      const [a, b] = [folder(from), folder(to)];
      if (a === b || (!b.startsWith('src') && !b.startsWith('oracles') && !b.startsWith('scenarios'))) continue;
      if (b.startsWith(`${a}/`) || a.startsWith(`${b}/`)) continue; // a folder and its own subfolders are one unit
      graph.set(a, (graph.get(a) ?? new Set()).add(b));
    }
    const cycles: string[] = [];
    const reaches = (start: string, goal: string, seen = new Set<string>()): boolean =>
      [...(graph.get(start) ?? [])].some(
        (next) => next === goal || (!seen.has(next) && (seen.add(next), reaches(next, goal, seen))),
      );
    for (const [a, targets] of graph)
      for (const b of targets) if (reaches(b, a)) cycles.push(`${a} -> ${b} -> ... -> ${a}`);
    expect(cycles).toEqual([]);
  });

  it("src/'s root holds only the public entry points", () => {
    const root = readdirSync(join(ROOT, 'src')).filter((name) => statSync(join(ROOT, 'src', name)).isFile());
    expect(root.sort()).toEqual(['index.ts', 'vitest.ts']);
  });

  it('no oracle imports a module of one store family', () => {
    const familySpecific = /^src\/families\/[^/]+\/|^src\/wire\/(resp|pg)-framer/;
    const found = EDGES.filter(
      ({ from, to }) => from.startsWith('oracles/') && familySpecific.test(relative(ROOT, join(ROOT, to))),
    ).map(({ from, to }) => `${from} imports ${to}`);
    expect(found).toEqual([]);
  });
});
