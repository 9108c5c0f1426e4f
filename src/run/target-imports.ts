/**
 * The libraries a target imports, in its own language's terms, for the store choice
 * (store-choice.ts): a Node target's npm packages, read through its own files by esbuild's
 * resolution; a Python target's top-level modules (`import kazoo.client`, `from redis import …`),
 * read through the sibling modules it imports; a Java target's imported classes (`import
 * org.apache.curator.…;`), read in it and the .java files beside it, which its build compiles with it
 * (src/build/java-holder.ts); a Go target's import paths (`"github.com/gomodule/redigo/redis"`).
 * Only what the source imports: a Java target that reaches pgjdbc only by a `jdbc:postgresql:` URL
 * through java.sql names no library here.
 * A Node target's packages are remembered across processes beside its compiled module
 * (compile-module.ts's cache), with the modification time of every file esbuild read: a fresh CLI
 * whose target did not change starts no esbuild for them (its service's start was ~100 ms on a run's
 * critical path, before the store could start).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { HolderLanguage } from '../holder/holder-language.ts';
import { CACHE, inputTimes, unchanged } from '../build/compile-module.ts';

/** The packages a Node target imports, itself or through its own files (not through packages), by esbuild's resolution. */
export async function packagesImportedBy(targetPath: string): Promise<Set<string>> {
  const record = join(
    CACHE,
    `imports-${createHash('sha256').update(resolve(targetPath)).digest('hex').slice(0, 24)}.json`,
  );
  const known = readImportsRecord(record);
  if (known && unchanged(known.inputs)) return known.packages;
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [targetPath],
    bundle: true,
    write: false,
    metafile: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    logLevel: 'silent',
  });
  const imported = new Set<string>();
  for (const output of Object.values(result.metafile.outputs))
    for (const { path, external } of output.imports) {
      if (!external || path.startsWith('node:') || path.startsWith('.')) continue;
      imported.add(path.startsWith('@') ? path.split('/').slice(0, 2).join('/') : path.split('/')[0]!);
    }
  writeImportsRecord(record, imported, inputTimes(result.metafile.inputs));
  return imported;
}

interface ImportsRecord {
  packages: Set<string>;
  /** Every file esbuild read for it, with its modification time then. */
  inputs: Map<string, number>;
}

function readImportsRecord(path: string): ImportsRecord | undefined {
  try {
    const { packages, inputs } = JSON.parse(readFileSync(path, 'utf8')) as {
      packages: string[];
      inputs: Array<[string, number]>;
    };
    return { packages: new Set(packages), inputs: new Map(inputs) };
  } catch {
    return undefined;
  }
}

/** Written whole under another name and renamed, so a reader never sees half a record. */
function writeImportsRecord(path: string, packages: Set<string>, inputs: Map<string, number>): void {
  const staging = `${path}.${process.pid}`;
  try {
    mkdirSync(CACHE, { recursive: true });
    writeFileSync(staging, JSON.stringify({ packages: [...packages], inputs: [...inputs] }));
    renameSync(staging, path);
  } catch {
    /* a read-only or full temp dir: the next process scans the imports again */
  }
}

/**
 * What a target in `language` imports: npm packages, Python modules, Java classes or Go import paths.
 * Read once per file and modification time in a process (a batch's runs of one target ask each time).
 */
export function librariesImportedBy(targetPath: string, language: HolderLanguage): Promise<Set<string>> {
  let key: string;
  try {
    key = `${language} ${targetPath} ${statSync(targetPath).mtimeMs}`;
  } catch (error) {
    return Promise.reject(error as Error);
  }
  let read = readOnce.get(key);
  if (!read) readOnce.set(key, (read = readImports(targetPath, language)));
  return read;
}

const readOnce = new Map<string, Promise<Set<string>>>();

async function readImports(targetPath: string, language: HolderLanguage): Promise<Set<string>> {
  if (language === 'node') return packagesImportedBy(targetPath);
  if (language === 'python') return pythonModules(targetPath, new Set());
  if (language === 'java') return new Set(javaSources(targetPath).flatMap(javaImports));
  return new Set(goImports(readFileSync(targetPath, 'utf8')));
}

/** Whether `imported` is `library` or inside it (a Python submodule, a Java package's class, a Go package's subpackage). */
export function isWithin(imported: string, library: string): boolean {
  return imported === library || imported.startsWith(`${library}.`) || imported.startsWith(`${library}/`);
}

/** The modules a Python file imports, following the ones that are files beside it (a helper module of the target's). */
function pythonModules(file: string, seen: Set<string>): Set<string> {
  const modules = new Set<string>();
  if (seen.has(file)) return modules;
  seen.add(file);
  const source = readFileSync(file, 'utf8');
  const named = [
    ...[...source.matchAll(/^\s*import\s+([\w., ]+)/gm)].flatMap((m) => m[1]!.split(',')),
    ...[...source.matchAll(/^\s*from\s+([\w.]+)\s+import\b/gm)].map((m) => m[1]!),
  ].map((name) => name.trim().split(/\s+/)[0]!);
  for (const name of named.filter(Boolean)) {
    modules.add(name);
    const sibling = join(dirname(file), `${name.split('.')[0]}.py`);
    if (existsSync(sibling)) for (const inner of pythonModules(sibling, seen)) modules.add(inner);
  }
  return modules;
}

/** A Java target and the .java files beside it (its build compiles them together). */
function javaSources(file: string): string[] {
  const dir = dirname(file);
  return readdirSync(dir)
    .filter((name) => name.endsWith('.java'))
    .map((name) => readFileSync(join(dir, name), 'utf8'));
}

function javaImports(source: string): string[] {
  return [...source.matchAll(/^\s*import\s+(?:static\s+)?([\w.]+(?:\.\*)?)\s*;/gm)].map((m) => m[1]!);
}

/** A Go file's import paths: `import "p"`, `import x "p"` and the lines of an `import ( … )` block. */
function goImports(source: string): string[] {
  const single = [...source.matchAll(/^import\s+(?:[\w.]+\s+)?"([^"]+)"/gm)].map((m) => m[1]!);
  const blocks = [...source.matchAll(/^import\s*\(([^)]*)\)/gm)].flatMap((m) =>
    [...m[1]!.matchAll(/^\s*(?:[\w.]+\s+)?"([^"]+)"/gm)].map((line) => line[1]!),
  );
  return [...single, ...blocks];
}
