/**
 * `prove` on a scratch git repository with three commits of one lock helper: a job that writes
 * once (V313 cannot judge it: INCONCLUSIVE), a lease with no renewal (FAIL) and the fix that
 * checks its renewal before each write (PASS). A real before/after pair is accepted; a pair whose
 * after-side still FAILs and one whose before-side is INCONCLUSIVE are rejected, saying which side broke.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { execa } from 'execa';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Proof } from '../src/prove/prove.ts';

const REPO = resolve(import.meta.dirname, '..');

const TARGET = `import { Redis } from 'ioredis';
import { runJob } from './helper.ts';

let redis: Redis;
export default {
  connect: async ({ url }: { url: string }) => { redis = new Redis(url); },
  job: (env: any) => runJob(redis, env),
  close: async () => { await redis.quit(); },
};
`;
const helper = (body: string) => `import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

const RENEW = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function runJob(redis: Redis, env: any): Promise<void> {
  const token = randomUUID();
  if ((await redis.set(env.key, token, 'PX', env.ttlMs, 'NX')) === null) return;
  ${body}
}
`;
const ONE_WRITE = helper(`await env.effect('write');`);
const NO_RENEWAL = helper(`for (let i = 0; i < 3; i++) { await env.effect('write', { value: i }); await sleep(20); }`);
const RENEW_CHECKED = helper(`for (let i = 0; i < 3; i++) {
    if ((await redis.eval(RENEW, 1, env.key, token, env.ttlMs)) !== 1) return;
    await env.effect('write', { value: i });
    await sleep(20);
  }`);

let scratch: string;
const commits: Record<'oneWrite' | 'noRenewal' | 'renewChecked', string> = {
  oneWrite: '',
  noRenewal: '',
  renewChecked: '',
};

const git = (...args: string[]) => execa('git', args, { cwd: scratch });
const prove = (...args: string[]) =>
  execa(
    'npx',
    ['tsx', join(REPO, 'src/cli/main.ts'), 'prove', 'V313', '--target', 'lock.target.ts', '--quiet', ...args],
    { cwd: scratch, reject: false, timeout: 110_000 },
  );
const proofIn = (dir: string) => JSON.parse(readFileSync(join(scratch, dir, 'proof.json'), 'utf8')) as Proof;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'prove-scratch-'));
  writeFileSync(join(scratch, 'package.json'), '{ "type": "module", "private": true }\n');
  writeFileSync(join(scratch, '.gitignore'), 'node_modules\nproof-*\n');
  symlinkSync(join(REPO, 'node_modules'), join(scratch, 'node_modules'), 'dir'); // the project's own ioredis
  writeFileSync(join(scratch, 'lock.target.ts'), TARGET);
  await git('init', '-q');
  for (const [name, body] of [
    ['oneWrite', ONE_WRITE],
    ['noRenewal', NO_RENEWAL],
    ['renewChecked', RENEW_CHECKED],
  ] as const) {
    writeFileSync(join(scratch, 'helper.ts'), body);
    await git('add', '-A');
    await git('-c', 'user.name=t', '-c', 'user.email=t@localhost', 'commit', '-qm', name);
    commits[name] = (await git('rev-parse', 'HEAD')).stdout.trim();
  }
});

describe('prove', () => {
  test('accepts a real pair: every before-run (no renewal) FAILs, every after-run (the working tree, fixed) PASSes', async () => {
    writeFileSync(join(scratch, 'helper.ts'), `${RENEW_CHECKED}// reviewed\n`); // uncommitted: the after side is dirty
    const { exitCode, stderr } = await prove(
      '--before-ref',
      commits.noRenewal,
      '--runs',
      '2',
      '--out-dir',
      'proof-accepted',
    );
    expect(stderr).toMatch(/VALID PROOF/);
    expect(exitCode).toBe(0);
    const proof = proofIn('proof-accepted');
    expect(proof.valid).toBe(true);
    expect(proof.before.runs.map((r) => r.verdict)).toEqual(['FAIL', 'FAIL']);
    expect(proof.after.runs.map((r) => r.verdict)).toEqual(['PASS', 'PASS']);
    expect([proof.before.commit, proof.before.dirty, proof.before.ref]).toEqual([
      commits.noRenewal,
      false,
      commits.noRenewal,
    ]);
    expect([proof.after.commit, proof.after.dirty, proof.after.ref]).toEqual([
      commits.renewChecked,
      true,
      'working tree',
    ]);
    expect(proof.before.target).toEqual({ path: 'lock.target.ts', sha256: sha256(TARGET) });
    expect(proof.before.helpers).toEqual([{ path: 'helper.ts', sha256: sha256(NO_RENEWAL) }]);
    expect(proof.after.helpers).toEqual([{ path: 'helper.ts', sha256: sha256(`${RENEW_CHECKED}// reviewed\n`) }]);
    expect(proof.store.kind).toBe('redis');
    expect(proof.params.ttl).toBe(300);
    for (const run of [...proof.before.runs, ...proof.after.runs])
      expect(existsSync(join(scratch, 'proof-accepted', run.evidence, 'evidence.json'))).toBe(true);
    expect(readFileSync(join(scratch, 'proof-accepted', 'proof.md'), 'utf8')).toMatch(
      /^# V313 proof VALID\n[\s\S]*## before: [0-9a-f]{40} — expected FAIL on every run: held[\s\S]*\*\*dirty\*\*/,
    );
    // The temporary worktree is gone again.
    expect((await git('worktree', 'list')).stdout.trim().split('\n')).toHaveLength(1);
    await git('checkout', '--', 'helper.ts');
  });

  test('rejects a pair whose after-side still FAILs', async () => {
    const { exitCode, stderr } = await prove(
      '--before-ref',
      commits.noRenewal,
      '--after-ref',
      commits.noRenewal,
      '--runs',
      '1',
      '--out-dir',
      'proof-after-fails',
    );
    expect(exitCode).toBe(1);
    expect(stderr).toMatch(
      /NOT A PROOF {2}Not a proof: the after side \([0-9a-f]{40}\) must PASS on every run, and run 1 gave FAIL, expected PASS/,
    );
    const proof = proofIn('proof-after-fails');
    expect([proof.valid, proof.before.held, proof.after.held]).toEqual([false, true, false]);
  });

  test('rejects a pair whose before-side is INCONCLUSIVE (it proved nothing), without running the after side', async () => {
    const { exitCode, stderr } = await prove(
      '--before-ref',
      commits.oneWrite,
      '--after-ref',
      commits.renewChecked,
      '--runs',
      '2',
      '--out-dir',
      'proof-before-inconclusive',
    );
    expect(exitCode).toBe(1);
    expect(stderr).toMatch(
      /Not a proof: the before side \([0-9a-f]{40}\) must FAIL on every run, and run 1 was INCONCLUSIVE, so it proved nothing/,
    );
    const proof = proofIn('proof-before-inconclusive');
    expect(proof.before.runs.map((r) => r.verdict)).toEqual(['INCONCLUSIVE']);
    expect(proof.after.runs).toEqual([]);
    expect(proof.after.broke).toMatch(/not run/);
  });
});
