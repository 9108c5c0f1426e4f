/**
 * A target at another git revision: a temporary, detached worktree of the project checked out at
 * the ref, reusing the project's own node_modules (linked, never installed), removed on every
 * exit path.
 */
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { onCleanup } from '../process/cleanup.ts';
import { UsageError } from '../core/errors.ts';
import { git } from './sources.ts';

export interface CheckedOut {
  /** The target's path inside the worktree. */
  target: string;
  commit: string;
  remove(): Promise<void>;
}

export async function checkoutTargetAt(targetPath: string, ref: string): Promise<CheckedOut> {
  const target = resolve(targetPath);
  const root = await git(dirname(target), ['rev-parse', '--show-toplevel']);
  if (!root)
    throw new UsageError(
      `--before-ref/--after-ref need the target in a git repository; ${targetPath} is not in one (use --before <file> --after <file>)`,
    );
  const commit = await git(root, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  if (!commit) throw new UsageError(`"${ref}" is not a commit in ${root} (git rev-parse --verify ${ref} failed)`);
  const inRepo = relative(root, target);
  if ((await git(root, ['cat-file', '-e', `${commit}:${inRepo}`])) === null) {
    throw new UsageError(`${inRepo} does not exist at ${ref} (${commit.slice(0, 12)}): nothing to run on that side`);
  }
  const parent = mkdtempSync(join(tmpdir(), 'lock-oracles-prove-'));
  const dir = join(parent, 'checkout');
  const added = await git(root, ['worktree', 'add', '--detach', dir, commit]);
  if (added === null) throw new Error(`git worktree add ${dir} ${commit} failed in ${root}`);
  const remove = onCleanup(`git worktree ${dir}`, async () => {
    await git(root, ['worktree', 'remove', '--force', dir]);
    rmSync(parent, { recursive: true, force: true });
  });
  // The project's own node_modules, from the target's directory up to the root: linked, not installed.
  for (let at = dirname(inRepo); ; at = dirname(at)) {
    const modules = join(root, at, 'node_modules');
    if (existsSync(modules) && !existsSync(join(dir, at, 'node_modules')) && existsSync(join(dir, at)))
      symlinkSync(modules, join(dir, at, 'node_modules'), 'dir');
    if (at === '.' || at === '') break;
  }
  return { target: join(dir, inRepo), commit, remove };
}
