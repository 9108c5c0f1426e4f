/**
 * The Java and Go holder build cache is keyed by content, not by where a target lies
 * (src/build/holder-build-cache.ts): the same target copied into two checkouts is compiled once
 * and found by both, and a changed source is built again, into a directory of its own.
 * The targets are the protocol probes (test/fixtures/sdk/), which touch no store.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { goHolder } from '../src/build/go-holder.ts';
import { javaHolder, type HolderLaunch } from '../src/build/java-holder.ts';

const FIXTURES = join(import.meta.dirname, 'fixtures', 'sdk');
const scratch = mkdtempSync(join(tmpdir(), 'lock-oracles-build-cache-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The build directory a launch runs from: the Go binary's, or the first entry of Java's -cp. */
const buildDir = (launch: HolderLaunch) =>
  launch.args.includes('-cp') ? launch.args[launch.args.indexOf('-cp') + 1]!.split(':')[0]! : launch.command;

describe.each([
  { language: 'java', file: 'ProtocolProbe.java', build: javaHolder },
  { language: 'go', file: 'protocol_probe.go', build: goHolder },
])('$language holder builds', ({ language, file, build }) => {
  /** `file` copied into a directory of its own, as another clone of the project would hold it. */
  const checkout = (name: string) => {
    const dir = join(scratch, language, name);
    mkdirSync(dir, { recursive: true });
    copyFileSync(join(FIXTURES, file), join(dir, file));
    return join(dir, file);
  };

  it('are shared by two checkouts, and a changed source is built again', async () => {
    const first = await build(checkout('clone-a'));
    const second = await build(checkout('clone-b'));
    expect(second.cached).toBe(true);
    expect(buildDir(second)).toBe(buildDir(first));

    const changed = checkout('clone-c');
    writeFileSync(changed, `${readFileSync(changed, 'utf8')}\n// changed ${process.pid} ${Date.now()}\n`);
    const rebuilt = await build(changed);
    expect(rebuilt.cached).toBe(false);
    expect(buildDir(rebuilt)).not.toBe(buildDir(first));
  });
});
