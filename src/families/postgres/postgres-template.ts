/**
 * A Postgres data dir initialised once per machine and copied per run.
 *
 * `initdb` costs about half a second; copying its 39 MB result costs about 50 ms (see
 * docs/benchmarks.md). The template lives under <tmpdir>/lock-oracles-cache/. Two processes may
 * race to create it: each initialises into its own temp dir and renames it into place, which is
 * atomic, so a reader only ever sees a complete template; the loser discards its copy.
 */
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, chmodSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanupDir, cleanupProcess } from '../../process/cleanup.ts';
import { dieWithHarness } from '../../process/die-with-harness.ts';
import type { PostgresBinaries } from './postgres-binaries.ts';
import { giveTo, runAs, type ServerUser } from '../../stores/server-user.ts';

const CACHE = join(tmpdir(), 'lock-oracles-cache');

/** Run initdb into `dataDir` (which must not exist or be empty): superuser "postgres", trust auth. */
export async function initCluster(bin: PostgresBinaries, user: ServerUser | undefined, dataDir: string): Promise<void> {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  chmodSync(dataDir, 0o700);
  giveTo(user, dataDir);
  const { execa } = await import('execa');
  const result = await execa(
    bin.initdb,
    ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync', '--no-instructions'],
    { ...runAs(user), reject: false, all: true, stdin: 'ignore' },
  );
  if (result.exitCode !== 0) {
    throw new Error(
      `initdb into ${dataDir} failed (exit code ${result.exitCode}). Its output:\n${result.all}\n` +
        `Check that ${user?.name ?? 'the current user'} can write there.`,
    );
  }
}

/** The path of the machine's template data dir for this major version, creating it if absent. */
export async function ensureTemplate(
  bin: PostgresBinaries,
  user: ServerUser | undefined,
  cache = CACHE,
): Promise<string> {
  const template = join(cache, `pg${bin.major}-template`);
  if (existsSync(template)) return checkedOwner(template, user);
  mkdirSync(cache, { recursive: true, mode: 0o755 });
  const staging = mkdtempSync(join(cache, `pg${bin.major}-template.init-`));
  const removeStaging = cleanupDir(staging);
  try {
    await initCluster(bin, user, staging);
    renameSync(staging, template);
  } catch (error) {
    const lostRace = ['ENOTEMPTY', 'EEXIST'].includes((error as NodeJS.ErrnoException).code ?? '');
    if (!lostRace) throw error;
  } finally {
    await removeStaging();
  }
  return template;
}

function checkedOwner(template: string, user: ServerUser | undefined): string {
  const owner = statSync(template).uid;
  const expected = user?.uid ?? process.getuid?.();
  if (expected !== undefined && owner !== expected) {
    throw new Error(
      `the cached Postgres template ${template} belongs to uid ${owner}, but the server runs as uid ${expected}. ` +
        `Remove it (rm -rf ${template}); the next run recreates it.`,
    );
  }
  return template;
}

/**
 * Copy the template to `dataDir`, keeping owner and modes (Postgres insists on 0700 and its owner).
 * The copy is registered for cleanup (and dies with the harness): an interrupted run kills it
 * before its dir is removed, or it would go on writing into a dir already cleaned up.
 */
export async function copyTemplate(template: string, dataDir: string): Promise<void> {
  const { execa } = await import('execa');
  const [command, args] = dieWithHarness('cp', ['-a', template, dataDir]);
  const copy = execa(command, args, { reject: false, all: true, stdin: 'ignore' });
  const unregister = cleanupProcess(`copy of ${template}`, copy.pid, async () => {
    copy.kill('SIGKILL');
    await copy;
  });
  const result = await copy;
  await unregister();
  if (result.exitCode !== 0) {
    rmSync(dataDir, { recursive: true, force: true });
    throw new Error(`copying the Postgres template ${template} to ${dataDir} failed:\n${result.all}`);
  }
}
