/**
 * A Go target's holder: `go build` builds the target (lock_target.go, `package main`, calling
 * lockoracles.Run) against the Go shim (sdk/go/lockoracles.go, imported as "lockoracles") in
 * GOPATH mode, offline: GOPATH is a cache directory that links the shim in, then Debian's
 * /usr/share/gocode (golang-github-gomodule-redigo-dev and the rest), with GOPROXY=off and
 * GOFLAGS=-mod=mod. The binary is cached by content (holder-build-cache.ts: the shim's source, the
 * target's, the Go toolchain and the sources of every package it imports from /usr/share/gocode,
 * theirs in turn), so a second run builds nothing, from any checkout; the holder is the binary itself. A build error is a usage error (exit 2) with go's own lines.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../core/errors.ts';
import { cachedHolderBuild, contentDigest } from './holder-build-cache.ts';
import type { HolderLaunch } from './java-holder.ts';
import { requireTool } from './toolchain.ts';

const SDK_DIR = fileURLToPath(new URL('../../sdk/go/', import.meta.url));
/** Where Debian's golang-*-dev packages put their sources. */
const DEBIAN_GOCODE = '/usr/share/gocode';

/** Builds (or finds cached) `target` and returns the command line that runs its binary. */
export async function goHolder(target: string): Promise<HolderLaunch> {
  const go = requireTool('go', 'Go', 'golang-go');
  const file = resolve(target);
  const source = readFileSync(file, 'utf8');
  const gopath = shimGopath();
  const build = await cachedHolderBuild(
    'go',
    [readFileSync(join(SDK_DIR, 'lockoracles.go'), 'utf8'), source, go.stamp, ...importedSources(source)],
    async (dir) => {
      const { execa } = await import('execa');
      const built = await execa(go.path, ['build', '-o', join(dir, 'holder'), basename(file)], {
        cwd: dirname(file),
        reject: false,
        all: true,
        env: {
          GO111MODULE: 'off',
          GOPATH: `${gopath}:${DEBIAN_GOCODE}`,
          GOPROXY: 'off',
          GOFLAGS: '-mod=mod',
          GOCACHE: join(tmpdir(), 'lock-oracles-cache', 'go-build'),
        },
      });
      if (built.exitCode !== 0) {
        const missing = /cannot find package "([^"]+)"/.exec(built.all ?? '')?.[1];
        throw new UsageError(
          `go build could not build ${target}:\n${built.all}\n  To fix: ` +
            (missing
              ? `install the package's Debian source (apt-cache search golang-${missing.split('/').slice(-2).join('-')}) so that it is under ${DEBIAN_GOCODE}/src`
              : 'correct the line go names'),
        );
      }
    },
  );
  return { command: join(build.dir, 'holder'), args: [], cached: build.cached };
}

/**
 * The content of every package `source` imports from Debian's gocode, and of theirs in turn (a
 * package upgraded by apt rebuilds its users), each as "import path, file, digest" lines. The
 * standard library's imports are the toolchain's (its stamp is in the key), the shim's are its own.
 */
function importedSources(source: string): string[] {
  const parts: string[] = [];
  const seen = new Set<string>();
  const visit = (code: string) => {
    for (const path of goImports(code)) {
      const dir = join(DEBIAN_GOCODE, 'src', path);
      if (seen.has(path) || !existsSync(dir)) continue;
      seen.add(path);
      for (const name of readdirSync(dir)
        .filter((f) => f.endsWith('.go'))
        .sort()) {
        parts.push(`${path}\0${name}\0${contentDigest(join(dir, name))}`);
        visit(readFileSync(join(dir, name), 'utf8'));
      }
    }
  };
  visit(source);
  return parts;
}

/** The import paths of a Go file: `import "x"` and every quoted path of an `import ( … )` block. */
function goImports(code: string): string[] {
  const single = [...code.matchAll(/^import\s+(?:\w+\s+)?"([^"]+)"/gm)].map((m) => m[1]!);
  const blocks = [...code.matchAll(/^import\s*\(([^)]*)\)/gm)].flatMap((m) =>
    [...m[1]!.matchAll(/"([^"]+)"/g)].map((q) => q[1]!),
  );
  return [...single, ...blocks];
}

/** A GOPATH whose src/lockoracles is the shim's directory, so that a target imports "lockoracles". */
function shimGopath(): string {
  // One per checkout: two checkouts' shims never share a link.
  const checkout = createHash('sha256').update(SDK_DIR).digest('hex').slice(0, 12);
  const gopath = join(tmpdir(), 'lock-oracles-cache', `gopath-${checkout}`);
  const link = join(gopath, 'src', 'lockoracles');
  if (!existsSync(link)) {
    mkdirSync(dirname(link), { recursive: true });
    try {
      symlinkSync(SDK_DIR, link);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return gopath;
}
