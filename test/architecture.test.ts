/**
 * The engine's layering, checked on its import graph (static and dynamic imports, types included):
 * a lower layer never imports a higher one, no folder of src/ is in an import cycle with another,
 * nothing but the public entry points lies at src/'s root, no oracle imports a module of the store
 * families or the topologies (an oracle declares what it needs; the families offer it, and the faults
 * they contribute come from src/faults/registry.ts), and no oracle branches on a store, family or
 * topology name.
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

  it('no two files import each other (directly or round a cycle)', () => {
    const graph = new Map<string, string[]>();
    for (const { from, to } of EDGES) graph.set(from, [...(graph.get(from) ?? []), to]);
    // Tarjan's strongly connected components: any with two files or more is a circle.
    const index = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const circles: string[][] = [];
    const connect = (file: string): void => {
      index.set(file, index.size);
      low.set(file, index.get(file)!);
      stack.push(file);
      for (const next of graph.get(file) ?? []) {
        if (!index.has(next)) {
          connect(next);
          low.set(file, Math.min(low.get(file)!, low.get(next)!));
        } else if (stack.includes(next)) low.set(file, Math.min(low.get(file)!, index.get(next)!));
      }
      if (low.get(file) !== index.get(file)) return;
      const component: string[] = [];
      for (let top = stack.pop()!; ; top = stack.pop()!) {
        component.push(top);
        if (top === file) break;
      }
      if (component.length > 1) circles.push(component.sort());
    };
    for (const file of FILES) if (!index.has(file)) connect(file);
    expect(circles).toEqual([]);
  });

  it("src/'s root holds only the public entry points", () => {
    const root = readdirSync(join(ROOT, 'src')).filter((name) => statSync(join(ROOT, 'src', name)).isFile());
    expect(root.sort()).toEqual(['index.ts', 'vitest.ts']);
  });

  it('no oracle imports a module of the store families or the topologies', () => {
    const familySpecific = /^src\/families\/|^src\/stores\/topology|^src\/wire\/(resp|pg)-framer/;
    const found = EDGES.filter(
      ({ from, to }) => from.startsWith('oracles/') && familySpecific.test(relative(ROOT, join(ROOT, to))),
    ).map(({ from, to }) => `${from} imports ${to}`);
    expect(found).toEqual([]);
  });

  it('no oracle branches on a store, family or topology name (a string it compares or looks up, or family.ownNodes)', () => {
    const found = FILES.filter((f) => f.startsWith('oracles/')).flatMap((file) =>
      branchesOnNames(file).map((line) => `${file}:${line}`),
    );
    const files = [...new Set(found.map((at) => at.replace(/:\d+$/, '')))].sort();
    // Still branching: issue 31 step 2 moves these choices into the faults and families that own them.
    // Fixing one removes it here; a new one fails this test.
    expect(files).toEqual(STILL_BRANCHING);
  });
});

/** Store kinds, family names and topology kinds: what an oracle must not compare a string against. */
const NAMES = new Set([
  ...['redis', 'valkey', 'postgres', 'pgbouncer', 'fs', 'cluster'],
  ...['single', 'replicated', 'sentinel', 'redlock'],
]);

const STILL_BRANCHING: string[] = [];

/** The lines of `file` where a name of NAMES is compared (===, !==, case) or looked for (includes), or ownNodes read. */
function branchesOnNames(file: string): number[] {
  const source = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const lines: number[] = [];
  const visit = (node: ts.Node): void => {
    const onName = ts.isStringLiteral(node) && NAMES.has(node.text) && isBranch(node);
    // `family.ownNodes`: the cluster family, asked for by the capability only it has.
    const onCluster = ts.isPropertyAccessExpression(node) && node.name.text === 'ownNodes';
    if (onName || onCluster) lines.push(source.getLineAndCharacterOfPosition(node.getStart()).line + 1);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return lines;
}

function isBranch(literal: ts.StringLiteral): boolean {
  const parent = literal.parent;
  if (ts.isCaseClause(parent)) return true;
  if (ts.isBinaryExpression(parent)) {
    const op = parent.operatorToken.kind;
    const other = (parent.left === literal ? parent.right : parent.left).getText();
    // A boundary's kind 'fs' (a filesystem call) is the exploration's vocabulary, not a store.
    if (/(^|\.)boundary\.kind$|^b\.kind$/.test(other)) return false;
    return op === ts.SyntaxKind.EqualsEqualsEqualsToken || op === ts.SyntaxKind.ExclamationEqualsEqualsToken;
  }
  return (
    ts.isCallExpression(parent) &&
    ts.isPropertyAccessExpression(parent.expression) &&
    parent.expression.name.text === 'includes'
  );
}
