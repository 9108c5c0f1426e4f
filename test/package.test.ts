/**
 * The installable tool: the run's one `npm pack` of this repository (test/package-tarball.ts)
 * installed into a scratch project (in a temp dir) as a devDependency, beside the project's own
 * ioredis (another version than the harness's).
 * There, with nothing pointing into this repository:
 * - `npx lock-oracles init` writes a target that imports from 'lock-oracles';
 * - the install does not carry the reference targets' libraries: `references` names the `npm i -D`
 *   line that adds them;
 * - the project's plain NodeNext tsconfig (strict, no skipLibCheck, no paths) typechecks and
 *   compiles targets and a script importing 'lock-oracles' and 'lock-oracles/vitest';
 * - `npx lock-oracles V313 --target ./lock.target.ts` FAILs the never-renewed lease, with the
 *   target's ioredis resolved from the project and its report under the project's reports/;
 * - the compiled script's expectOracle(...).toPass() PASSes the fenced job;
 * - nothing is written into the installed package (its prebuilt dist/ is used as it is, so a
 *   read-only install works).
 * Then the CI workflow of docs/settle-and-prove.md (docs/ci/settle.yml) runs there: its `run:` steps, taken from
 * the parsed YAML, each in bash as Actions runs it, settle a rows file with one Confirmed, one
 * Refuted and one Unconfirmed row; the job summary gets the Markdown table.
 * npm installs from the local tarball and the npm cache (prefer-offline).
 */
import { afterAll, describe, expect, inject, test } from 'vitest';
import { execa } from 'execa';
import { copyFileSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { parse } from 'yaml';
import { join, relative, resolve } from 'node:path';
import { makeRunDir } from '../src/process/run-dir.ts';
import { compileModule } from '../src/build/compile-module.ts';
import { pathToFileURL } from 'node:url';
import { packedFrom } from './package-tarball.ts';

const REPO = resolve(import.meta.dirname, '..');
const FIXTURE = join(REPO, 'test/fixtures/package-project');
const USER_IOREDIS = '5.8.2';
const scratch = makeRunDir('package');
const project = join(scratch.dir, 'project');
const npmEnv = {
  npm_config_loglevel: 'error',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
  npm_config_prefer_offline: 'true',
};
afterAll(() => scratch.remove());

/** Every file under `dir` (its own node_modules left out) with its size and mtime. */
function listing(dir: string, root = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : listing(path, root);
    const { size, mtimeMs } = statSync(path);
    return [`${relative(root, path)} ${size} ${mtimeMs}`];
  });
}

describe('npm pack, installed into a scratch project', () => {
  test(
    'npx lock-oracles, init, the typed package import and the API work from the install',
    { timeout: 600_000 },
    async () => {
      const { tarball, files: paths } = packedFrom(inject('packed'));
      expect(paths).toContain('dist/index.js');
      expect(paths).toContain('dist/types/src/index.d.ts');
      expect(paths).toContain('src/holder/holder-entry.ts');
      expect(paths).toContain('docker/clock-offset/clock-offset.c');
      expect(paths.some((p) => p.startsWith('test/'))).toBe(false);
      expect(new Set(paths.filter((p) => /^dist\/build-/.test(p)).map((p) => p.split('/')[1])).size).toBe(1); // only the current build

      await execa('mkdir', [project]);
      writeFileSync(
        join(project, 'package.json'),
        `${JSON.stringify({ name: 'scratch-project', private: true, type: 'module', devDependencies: { 'lock-oracles': `file:${tarball}`, ioredis: USER_IOREDIS, '@types/node': '20.19.43' } }, null, 2)}\n`,
      );
      for (const file of ['lock.target.ts', 'one-write.target.ts', 'api.ts', 'tsconfig.json', 'lock-rows.json'])
        copyFileSync(join(FIXTURE, file), join(project, file));
      copyFileSync(join(REPO, 'docs/examples/job-shape.target.ts'), join(project, 'fixed.target.ts'));
      const env = npmEnv;
      await execa('npm', ['install'], { cwd: project, env });
      const installed = join(project, 'node_modules/lock-oracles');
      const before = listing(installed);

      const init = await execa(
        'npx',
        ['lock-oracles', 'init', '--client', 'ioredis', '--shape', 'binding', '--out', 'init.target.ts'],
        { cwd: project, env, reject: false },
      );
      expect(init.exitCode, init.stderr).toBe(0);
      expect(init.stdout).toContain('Try: npx lock-oracles V313 --target init.target.ts');
      expect(readFileSync(join(project, 'init.target.ts'), 'utf8')).toContain(
        "import { ioredisSetNx } from 'lock-oracles';",
      );
      // The reference targets' libraries are not the tool's dependencies: installed, `references`
      // names the line that adds the ones its targets need (this project has only ioredis).
      const references = await execa('npx', ['lock-oracles', 'references', 'V310'], {
        cwd: project,
        env,
        reject: false,
      });
      expect(references.exitCode).toBe(2);
      const line = references.stderr.match(/npm i -D( \S+@\S+)+/)?.[0] ?? '';
      for (const name of ['redis', 'redlock', 'lockfile', 'redis-semaphore']) expect(line).toContain(` ${name}@`);
      expect(line).not.toContain(' ioredis@');
      expect(existsSync(join(installed, '../redlock'))).toBe(false);
      const help = await execa('npx', ['lock-oracles', '--help'], { cwd: project, env, reject: false });
      expect(help.stdout).toContain('npx lock-oracles <ID> --target <path>'); // usage speaks of the installed command
      expect(help.stdout).not.toContain('npm run oracle');

      // The project's own compiler settings: typechecks every .ts file here and emits api.js.
      const tsc = await execa(join(REPO, 'node_modules/.bin/tsc'), ['-p', project], { cwd: project, reject: false });
      expect(tsc.exitCode, tsc.stdout).toBe(0);

      const cli = await execa('npx', ['lock-oracles', 'V313', '--target', './lock.target.ts', '--json'], {
        cwd: project,
        env,
        reject: false,
      });
      expect(cli.exitCode, cli.stderr).toBe(1);
      const record = JSON.parse(cli.stdout) as { verdict: string; explanation: string; history: unknown[] };
      expect(record.verdict, record.explanation).toBe('FAIL');
      expect(JSON.stringify(record.history)).toContain(`ioredis ${USER_IOREDIS}`);
      expect(readdirSync(join(project, 'reports')).length).toBe(1);
      // What the holders imported: the installed package and the project's ioredis, by file URL.
      const compiled = readFileSync(await compileModule(join(project, 'lock.target.ts')), 'utf8');
      expect(compiled).toContain(pathToFileURL(join(project, 'node_modules/lock-oracles/dist/index.js')).href);
      expect(compiled).toContain(join(project, 'node_modules/ioredis/')); // CommonJS: required by its path

      const api = await execa('node', ['api.js'], { cwd: project, reject: false });
      expect(api.exitCode, api.stderr).toBe(0);
      const result = JSON.parse(api.stdout.trim().split('\n').at(-1)!) as {
        verdict: string;
        reportPath: string;
        runOracle: string;
        replaySchedule: string;
      };
      expect(result).toMatchObject({ verdict: 'PASS', runOracle: 'function', replaySchedule: 'function' });
      expect(result.reportPath.startsWith(join(project, 'reports'))).toBe(true);

      expect(listing(installed)).toEqual(before);
    },
  );

  test(
    'the CI workflow (docs/ci/settle.yml): its run steps settle one Confirmed, one Refuted and one Unconfirmed row',
    { timeout: 600_000 },
    async () => {
      const workflow = parse(readFileSync(join(REPO, 'docs/ci/settle.yml'), 'utf8')) as {
        on: Record<string, unknown>;
        jobs: Record<
          string,
          {
            env?: Record<string, string>;
            steps: Array<{ name?: string; run?: string; uses?: string; env?: Record<string, string> }>;
          }
        >;
      };
      expect(Object.keys(workflow.on)).toContain('pull_request');
      const job = Object.values(workflow.jobs)[0]!;
      expect(job.steps.map((step) => step.uses?.split('@')[0]).filter(Boolean)).toEqual([
        'actions/checkout',
        'actions/upload-artifact',
      ]);
      const runs = job.steps.filter((step) => step.run !== undefined);
      expect(runs.map((step) => step.run!.split(' ')[0])).toEqual(['npm', 'bash', 'npx']);

      const summary = join(scratch.dir, 'step-summary.md');
      writeFileSync(summary, '');
      const exits: number[] = [];
      for (const step of runs) {
        // Actions runs a `run:` step as `bash --noprofile --norc -eo pipefail {0}` in the checkout.
        const result = await execa('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step.run!], {
          cwd: project,
          env: { ...npmEnv, ...job.env, ...step.env, GITHUB_STEP_SUMMARY: summary, CI: 'true' },
          reject: false,
        });
        exits.push(result.exitCode ?? -1);
        if (result.exitCode !== 0 && step !== runs.at(-1))
          throw new Error(`step "${step.name}" exited ${result.exitCode}:\n${result.stderr}`);
      }
      expect(exits).toEqual([0, 0, 1]); // --fail-on confirmed: R1 is Confirmed

      const settled = JSON.parse(readFileSync(join(project, 'reports/settled.json'), 'utf8')) as {
        scanner: string;
        rows: Array<{ id: string; status: string; reason?: string }>;
      };
      expect(settled.scanner).toBe('coordination-scan');
      expect(Object.fromEntries(settled.rows.map((row) => [row.id, row.status]))).toEqual({
        R1: 'Confirmed',
        R2: 'Refuted',
        R3: 'Unconfirmed',
      });
      expect(settled.rows[2]!.reason).toBeTruthy();
      const table = readFileSync(summary, 'utf8');
      expect(table).toContain('### lock-oracles settle: 1 Confirmed, 1 Refuted, 1 Unconfirmed');
      for (const [id, status] of [
        ['R1', 'Confirmed'],
        ['R2', 'Refuted'],
        ['R3', 'Unconfirmed'],
      ])
        expect(table).toMatch(new RegExp(`^\\| ${id} \\|[^\\n]*\\| \\*\\*${status}\\*\\*[^|]*\\|`, 'm'));
      expect(existsSync(join(project, 'reports/junit.xml'))).toBe(true);
    },
  );
});
