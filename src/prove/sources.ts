/**
 * What exactly was run on one side of a proof: the target file and every local file it imports
 * (found by esbuild's import graph; packages stay out), each with its sha256, and the git commit
 * and dirty state of the checkout they came from.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { build } from 'esbuild';
import { execa } from 'execa';

export interface SourceFile {
  /** Relative to the checkout's root (the git top level, else the target's directory). */
  path: string;
  sha256: string;
}

export interface SideSource {
  /** The git checkout the target was read from (a temporary worktree for a --*-ref side). */
  root: string;
  commit: string | null;
  /** true when the target or a file it imports differs from that commit (uncommitted changes). */
  dirty: boolean;
  target: SourceFile;
  /** The local files the target imports, directly or not (not packages). */
  helpers: SourceFile[];
}

export async function describeSources(targetPath: string): Promise<SideSource> {
  const target = resolve(targetPath);
  const root = (await git(dirname(target), ['rev-parse', '--show-toplevel'])) ?? dirname(target);
  const result = await build({
    entryPoints: [target],
    absWorkingDir: root,
    bundle: true,
    write: false,
    metafile: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    logLevel: 'silent',
  });
  const files = Object.keys(result.metafile.inputs).map((path) => resolve(root, path));
  const hash = (file: string): SourceFile => ({
    path: relative(root, file),
    sha256: createHash('sha256').update(readFileSync(file)).digest('hex'),
  });
  const commit = await git(root, ['rev-parse', 'HEAD']);
  const changed = commit
    ? await git(root, ['status', '--porcelain', '--', ...files.map((f) => relative(root, f))])
    : null;
  return {
    root,
    commit,
    dirty: Boolean(changed),
    target: hash(target),
    helpers: files.filter((f) => f !== target).map(hash),
  };
}

/** stdout of a git command, or null when it fails (not a repository, no commits). */
export async function git(cwd: string, args: string[]): Promise<string | null> {
  const { exitCode, stdout } = await execa('git', args, { cwd, reject: false });
  return exitCode === 0 ? stdout.trim() : null;
}
