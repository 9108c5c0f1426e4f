/**
 * The installable tool: `npm pack` of this repository installed into a scratch project (in a temp
 * dir) as a devDependency, beside the project's own ioredis (another version than the harness's).
 * There, with nothing pointing into this repository:
 * - `npx lock-oracles init` writes a target that imports from 'lock-oracles';
 * - the project's plain NodeNext tsconfig (strict, no skipLibCheck, no paths) typechecks and
 *   compiles targets and a script importing 'lock-oracles' and 'lock-oracles/vitest';
 * - `npx lock-oracles V313 --target ./lock.target.ts` FAILs the never-renewed lease, with the
 *   target's ioredis resolved from the project and its report under the project's reports/;
 * - the compiled script's expectOracle(...).toPass() PASSes the fenced job;
 * - nothing is written into the installed package (its prebuilt dist/ is used as it is, so a
 *   read-only install works).
 * npm installs from the local tarball and the npm cache (--prefer-offline).
 */
import { afterAll, describe, expect, test } from 'vitest';
import { execa } from 'execa';
import { copyFileSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { makeRunDir } from '../src/run-dir.ts';

const REPO = resolve(import.meta.dirname, '..');
const FIXTURE = join(REPO, 'test/fixtures/package-project');
const USER_IOREDIS = '5.8.2';
const scratch = makeRunDir('package');
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
  test('npx lock-oracles, init, the typed package import and the API work from the install', { timeout: 600_000 }, async () => {
    const packed = await execa('npm', ['pack', '--json', '--pack-destination', scratch.dir], { cwd: REPO, env: { npm_config_loglevel: 'error' } });
    const { filename, files } = (JSON.parse(packed.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>)[0]!;
    const paths = files.map((f) => f.path);
    expect(paths).toContain('dist/index.js');
    expect(paths).toContain('dist/types/src/index.d.ts');
    expect(paths).toContain('scenarios/holder-entry.ts');
    expect(paths).toContain('docker/clock-offset/clock-offset.c');
    expect(paths.some((p) => p.startsWith('test/'))).toBe(false);
    expect(new Set(paths.filter((p) => /^dist\/build-/.test(p)).map((p) => p.split('/')[1])).size).toBe(1); // only the current build

    const project = join(scratch.dir, 'project');
    await execa('mkdir', [project]);
    writeFileSync(
      join(project, 'package.json'),
      `${JSON.stringify({ name: 'scratch-project', private: true, type: 'module', devDependencies: { 'lock-oracles': `file:../${filename}`, ioredis: USER_IOREDIS, '@types/node': '20.19.43' } }, null, 2)}\n`,
    );
    for (const file of ['lock.target.ts', 'api.ts', 'tsconfig.json']) copyFileSync(join(FIXTURE, file), join(project, file));
    copyFileSync(join(REPO, 'docs/examples/job-shape.target.ts'), join(project, 'fixed.target.ts'));
    const env = { npm_config_loglevel: 'error', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
    await execa('npm', ['install', '--prefer-offline'], { cwd: project, env });
    const installed = join(project, 'node_modules/lock-oracles');
    const before = listing(installed);

    const init = await execa('npx', ['lock-oracles', 'init', '--client', 'ioredis', '--shape', 'binding', '--out', 'init.target.ts'], { cwd: project, env, reject: false });
    expect(init.exitCode, init.stderr).toBe(0);
    expect(init.stdout).toContain('Try: npx lock-oracles V313 --target init.target.ts');
    expect(readFileSync(join(project, 'init.target.ts'), 'utf8')).toContain("import { ioredisSetNx } from 'lock-oracles';");

    // The project's own compiler settings: typechecks every .ts file here and emits api.js.
    const tsc = await execa(join(REPO, 'node_modules/.bin/tsc'), ['-p', project], { cwd: project, reject: false });
    expect(tsc.exitCode, tsc.stdout).toBe(0);

    const cli = await execa('npx', ['lock-oracles', 'V313', '--target', './lock.target.ts', '--json'], { cwd: project, env, reject: false });
    expect(cli.exitCode, cli.stderr).toBe(1);
    const record = JSON.parse(cli.stdout) as { verdict: string; explanation: string; history: unknown[] };
    expect(record.verdict, record.explanation).toBe('FAIL');
    expect(JSON.stringify(record.history)).toContain(`ioredis ${USER_IOREDIS}`);
    expect(readdirSync(join(project, 'reports')).length).toBe(1);

    const api = await execa('node', ['api.js'], { cwd: project, reject: false });
    expect(api.exitCode, api.stderr).toBe(0);
    const result = JSON.parse(api.stdout.trim().split('\n').at(-1)!) as { verdict: string; reportPath: string; runOracle: string };
    expect(result).toMatchObject({ verdict: 'PASS', runOracle: 'function' });
    expect(result.reportPath.startsWith(join(project, 'reports'))).toBe(true);

    expect(listing(installed)).toEqual(before);
  });
});
