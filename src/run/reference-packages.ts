/**
 * The libraries the reference targets import (proper-lockfile, redlock, node-redis, cron, ws, …)
 * are the repository's devDependencies, not the installed tool's dependencies: `npm i -D
 * lock-oracles` carries what the harness itself needs (docs/dependencies.md). Before `references`
 * or `selfcheck` runs a shipped reference target, this finds the packages those targets import
 * that do not resolve from where the target lies, and names the `npm i -D` line that installs them
 * (the versions the repository pins, from the package's own package.json), instead of every run
 * ending in an ERROR from a holder that could not load its target. `init` asks the same of the
 * target it writes.
 */
import { existsSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { REPO_ROOT } from '../core/invocation.ts';
import { UsageError } from '../core/errors.ts';

/** Module specifiers in a TypeScript source: `from 'x'`, `import 'x'`, `import('x')`, `require('x')`, `createRequire(…)('x')`. */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*|\)\s*\(\s*)['"]([^'"\n]+)['"]/g;

/** The package a bare specifier names (`@scope/name` or `name`), or undefined for a relative path, a builtin or this package. */
function packageOf(specifier: string, self: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/') || isBuiltin(specifier)) return undefined;
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
  return name === self ? undefined : name;
}

/** Every package the file and the files it imports by relative path (within the package) name. */
export function packagesImported(file: string, self: string, seen = new Set<string>()): Set<string> {
  const found = new Set<string>();
  // A Java, Go or Python target's imports are its toolchain's, never npm packages (setup-system.sh installs them).
  if (seen.has(file) || !existsSync(file) || !/\.[cm]?[jt]sx?$/.test(file)) return found;
  seen.add(file);
  for (const [, specifier] of readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
    const name = packageOf(specifier!, self);
    if (name) found.add(name);
    else if (specifier!.startsWith('.'))
      for (const inner of packagesImported(resolve(dirname(file), specifier!), self, seen)) found.add(inner);
  }
  return found;
}

/** Whether node finds `name` from `dir`: a node_modules/<name> folder here or in a folder above. */
function resolvesFrom(dir: string, name: string): boolean {
  for (let at = dir; ; at = dirname(at)) {
    if (existsSync(join(at, 'node_modules', name, 'package.json'))) return true;
    if (dirname(at) === at) return false;
  }
}

/** The packages `file` (and the files it imports by relative path) names that node would not find from where it lies, sorted. */
export function unresolvedPackages(file: string, self: string): string[] {
  return [...packagesImported(file, self)].filter((name) => !resolvesFrom(dirname(file), name)).sort();
}

/**
 * Throws a usage error naming the `npm i -D` line when a shipped reference target among `targets`
 * (paths relative to the package root `root`) imports a package that is not installed.
 */
export function checkReferencePackages(targets: readonly string[], root = REPO_ROOT): void {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    name: string;
    devDependencies?: Record<string, string>;
  };
  const missing = new Set<string>();
  for (const target of new Set(targets)) {
    const file = isAbsolute(target) ? target : join(root, target);
    if (!file.startsWith(join(root, 'targets'))) continue; // the user's own targets use the user's packages
    for (const name of unresolvedPackages(file, manifest.name)) missing.add(name);
  }
  if (!missing.size) return;
  const install = [...missing]
    .sort()
    .map((name) => (manifest.devDependencies?.[name] ? `${name}@${manifest.devDependencies[name]}` : name));
  throw new UsageError(
    `the reference targets import libraries this install does not carry (${[...missing].sort().join(', ')}): ` +
      `an install of lock-oracles brings what the harness needs, the references' libraries are the repository's dev dependencies. Install them into this project first:\n` +
      `  npm i -D ${install.join(' ')}`,
  );
}
