/**
 * `init` writes a target that loads and runs: in a scratch project with its own helper, the file
 * it writes gets a real verdict (not INCONCLUSIVE) on the Quick start's oracle, V313.
 */
import { afterAll, describe, expect, test } from 'vitest';
import { execa } from 'execa';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runOracle } from '../src/run/run-oracle.ts';

const REPO = resolve(import.meta.dirname, '..');
const init = (cwd: string, args: string[]) =>
  execa(join(REPO, 'node_modules/.bin/tsx'), [join(REPO, 'src/cli/main.ts'), 'init', ...args], {
    cwd,
    reject: false,
    stdin: 'ignore',
    timeout: 60_000,
    env: { INIT_CWD: cwd },
  });

const projects: string[] = [];
afterAll(() => {
  for (const dir of projects) rmSync(dir, { recursive: true, force: true });
});

/** A project of the user's: its own package.json, node_modules and lock helper. */
function scratchProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'lock-oracles-init-'));
  projects.push(dir);
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'));
  mkdirSync(join(dir, 'src'));
  copyFileSync(join(REPO, 'test/fixtures/user-project/src/lock-helper.ts'), join(dir, 'src/lock-helper.ts'));
  return dir;
}

describe('lock-oracles init', () => {
  test('without a terminal it asks nothing: the missing flags are a usage error naming them', async () => {
    const run = await init(scratchProject(), []);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/init needs --client \(ioredis \| node-redis/);
  });

  test('--shape with-lock binds the project helper; the file gets a real V313 verdict; an existing file is kept', async () => {
    const dir = scratchProject();
    const run = await init(dir, ['--client', 'ioredis', '--shape', 'with-lock', '--helper', 'src/lock-helper.ts']);
    expect(run.exitCode, run.stderr).toBe(0);
    const source = readFileSync(join(dir, 'lock.target.ts'), 'utf8');
    expect(source).toMatch(/import \{ withLock \} from '\.\/src\/lock-helper\.ts';/);
    expect(source).toMatch(/export default fromWithLock\(\(\{ url \}\) => new Redis\(url\), withLock\);/);
    const record = await runOracle({ oracle: 'V313', target: join(dir, 'lock.target.ts') });
    expect(record.verdict, record.explanation).toBe('FAIL');

    const again = await init(dir, ['--client', 'ioredis', '--shape', 'with-lock', '--helper', 'src/lock-helper.ts']);
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toMatch(/lock\.target\.ts exists; pass --force/);
  });

  test('--shape binding for node-redis writes the ready SET NX PX binding, which loads and FAILs V313 (no renewal)', async () => {
    const dir = scratchProject();
    const run = await init(dir, ['--client', 'node-redis', '--shape', 'binding', '--out', 'redis.target.ts']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/Try: npm run oracle -- V313 --target redis\.target\.ts/);
    expect(run.stdout).not.toContain('npm i -D'); // the project has redis
    const record = await runOracle({ oracle: 'V313', target: join(dir, 'redis.target.ts') });
    expect(record.verdict, record.explanation).toBe('FAIL');
  });

  test('a target whose client library the project lacks says the npm i -D line that adds it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lock-oracles-init-'));
    projects.push(dir);
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n'); // no node_modules
    const run = await init(dir, ['--client', 'redlock', '--shape', 'binding', '--out', 'lock.target.ts']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toContain(
      'It imports ioredis, redlock, not installed where it lies yet: npm i -D ioredis redlock',
    );
  });
});

describe('lock-oracles init --lang python', () => {
  test("writes lock_target.py binding redis-py's Lock, which V311 FAILs (its default timeout=None)", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lock-oracles-init-python-'));
    projects.push(dir);
    const run = await init(dir, ['--lang', 'python', '--client', 'redis-py']);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain('wrote lock_target.py');
    expect(readFileSync(join(dir, 'lock_target.py'), 'utf8')).toContain('TIMEOUT = None');
    const record = await runOracle({ oracle: 'V311', target: join(dir, 'lock_target.py'), params: {} });
    expect(record.verdict).toBe('FAIL');
  });

  test('a Node client with --lang python is a usage error naming the Python one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lock-oracles-init-python-'));
    projects.push(dir);
    const run = await init(dir, ['--lang', 'python', '--client', 'ioredis']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('--client redis-py');
  });
});
