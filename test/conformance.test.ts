/**
 * The conformance suite (src/holder/conformance.ts) passes the Python shim and the Node holder, and
 * fails a shim that skips a piece of the protocol, naming it: a copy of sdk/python/lock_oracles.py
 * whose effect returns a receipt for an indefinite outcome instead of raising, and one whose
 * handshake sends no runtime. Real processes, no store (the suite checks the protocol, not a lock).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compileHolderModules } from '../src/holder/holder.ts';
import { runConformance } from '../src/holder/conformance.ts';
import { PYTHON_SDK } from '../src/holder/holder-language.ts';

const PYTHON_TARGET = 'sdk/python/conformance_target.py';
const scratch = mkdtempSync(join(tmpdir(), 'lock-oracles-conformance-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The suite run against a copy of the Python shim with one edit; fails the test when the edit did not apply. */
async function brokenShim(name: string, from: string, to: string) {
  const source = readFileSync(PYTHON_SDK, 'utf8');
  expect(source).toContain(from);
  const shim = join(scratch, `${name}.py`);
  writeFileSync(shim, source.replace(from, to));
  const modules = await compileHolderModules(PYTHON_TARGET);
  return runConformance(PYTHON_TARGET, { ...modules, entry: shim });
}

describe('conformance', () => {
  it('passes the Python shim and the Node holder, every check', async () => {
    for (const target of [PYTHON_TARGET, 'test/fixtures/conformance-target.ts']) {
      const checks = await runConformance(target);
      expect(checks.filter((c) => !c.ok)).toEqual([]);
      expect(checks.map((c) => c.name)).toEqual(
        expect.arrayContaining([
          'handshake',
          'effect indefinite',
          'seam',
          'error: no-member',
          'close',
          'torn line, then end of fd 3',
        ]),
      );
    }
  });

  it("fails a shim that returns a receipt for an indefinite effect, naming effect's outcome", async () => {
    const checks = await brokenShim(
      'no-indefinite',
      'raise EffectIndefinite(reply.get("reason", "the effect\'s outcome is unknown"))',
      'return EffectReceipt(False, 0, reply.get("reason"))',
    );
    const failed = checks.filter((c) => !c.ok);
    expect(failed.map((c) => c.name)).toEqual(['effect indefinite']);
    expect(failed[0]!.problem).toMatch(
      /indefinite outcome came back as .*accepted.*: raise the SDK's indefinite error/,
    );
  });

  it('compares JSON values, not key order: a receipt with its members in another order passes', async () => {
    const checks = await brokenShim(
      'seq-first',
      'out = {"accepted": receipt.accepted, "seq": receipt.seq}',
      'out = {"seq": receipt.seq, "accepted": receipt.accepted}',
    );
    expect(checks.filter((c) => !c.ok)).toEqual([]);
    expect(checks.map((c) => c.name)).toEqual(expect.arrayContaining(['effect definite accepted']));
  });

  it('fails a shim whose handshake has no runtime, naming the field', async () => {
    const checks = await brokenShim('no-runtime', '"runtime": platform.python_version(),', '');
    const handshake = checks.find((c) => c.name === 'handshake');
    expect(handshake?.ok).toBe(false);
    expect(handshake?.problem).toMatch(/without "runtime"/);
  });
});
