/**
 * What a cold `--help` and `list` load (issue 35: a CLI that starts at once; the figures are
 * `npm run bench`'s, not a test's): the compiled CLI and the list command, with every module they
 * import statically, import no package (no ioredis, esbuild, pg, testcontainers: those load with
 * the command that uses them), and the build keeps the listing `list` prints, so `list` prints
 * what the oracles' definitions say without loading them. A run of one oracle loads no store's
 * client library before it begins: each is required when the harness first talks to its store.
 * Read from the current build's files.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { execa } from 'execa';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const REPO = resolve(import.meta.dirname, '..');
let cli: string;

beforeAll(async () => {
  await execa('node', ['bin/lock-oracles.js', '--help'], { cwd: REPO }); // the build is current
  cli = join(REPO, (JSON.parse(readFileSync(join(REPO, 'dist/build.json'), 'utf8')) as { cli: string }).cli);
}, 120_000);

/** Every file `file` imports statically (itself included), and the packages they import or require. */
function staticGraph(file: string, files = new Set<string>(), packages = new Set<string>()) {
  if (files.has(file)) return { files, packages };
  files.add(file);
  const code = readFileSync(file, 'utf8').split('\n//# sourceMappingURL=')[0]!;
  for (const match of code.matchAll(/^(?:import|export)\b[^;]*?\bfrom\s*"([^"]+)"|^import\s*"([^"]+)"/gms)) {
    const spec = (match[1] ?? match[2])!;
    if (spec.startsWith('.')) staticGraph(resolve(dirname(file), spec), files, packages);
    else if (!spec.startsWith('node:')) packages.add(spec);
  }
  for (const [, name] of code.matchAll(/__lockOraclesRequire\("([^"]+)"\)/g))
    if (!name!.startsWith('node:')) packages.add(name!);
  return { files, packages };
}

describe('a cold --help and list', () => {
  test('the compiled CLI imports no package before a command asks for one', () => {
    const { files, packages } = staticGraph(cli);
    expect(files.size).toBeGreaterThan(1); // it did follow the imports
    expect([...packages]).toEqual([]);
  });

  test('the list command imports no package, and reads the listing the build made', async () => {
    const listChunk = readFileSync(cli, 'utf8').match(/import\("(\.\.\/chunks\/list-[^"]+)"\)/)?.[1];
    expect(listChunk).toBeDefined();
    const { packages } = staticGraph(resolve(dirname(cli), listChunk!));
    expect([...packages]).toEqual([]);
    const listing = join(dirname(dirname(cli)), 'listing.json');
    expect(existsSync(listing)).toBe(true);
    const { text } = JSON.parse(readFileSync(listing, 'utf8')) as { text: Record<string, string> };
    const printed = await execa('node', ['bin/lock-oracles.js', 'list'], { cwd: REPO });
    expect(printed.stdout.trimEnd()).toBe(Object.values(text).join('\n').trimEnd());
    expect(Object.keys(text)).toContain('V310');
  });
});

test("a run of one oracle loads no store's client library before it begins", () => {
  const runChunk = readFileSync(cli, 'utf8').match(/import\("(\.\.\/chunks\/run-[^"]+)"\)/)?.[1];
  expect(runChunk).toBeDefined();
  const run = staticGraph(resolve(dirname(cli), runChunk!));
  const oracle = staticGraph(join(dirname(dirname(cli)), 'oracles', 'V310.js'));
  expect(run.files.size).toBeGreaterThan(1); // it did follow the imports
  // picocolors: the progress lines' colours, 3 KB.
  expect([...run.packages]).toEqual(['picocolors']);
  expect([...oracle.packages]).toEqual([]);
});
