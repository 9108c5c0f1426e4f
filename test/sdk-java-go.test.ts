/**
 * The Java and Go shims (sdk/java/LockOracles.java, sdk/go/lockoracles.go) driven through every
 * request kind of docs/holder-protocol.md, as real JVM and Go processes on real fds 3 and 4: the
 * handshake, init with storeKey, acquire/extend/release with leases, the error codes, the
 * selftest probes (effect's definite and indefinite outcomes, a held seam, log, raise), a bad
 * line, a torn last line then end of file, close; that a target's prints stay off fd 4; that a
 * second build is cached; that the conformance suite (src/holder/conformance.ts) passes both; that
 * a compile error and a missing toolchain are usage errors naming the fix; and that no holder
 * outlives a harness killed with kill -9. The targets
 * (test/fixtures/sdk/) touch no store: this is the protocol, not a lock.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { goHolder } from '../src/build/go-holder.ts';
import { javaHolder } from '../src/build/java-holder.ts';
import { holderLanguage } from '../src/holder/holder-language.ts';
import { writeJavaGoTarget } from '../src/cli/commands/init-java-go.ts';
import { runConformance } from '../src/holder/conformance.ts';
import { dieWithHarness } from '../src/process/die-with-harness.ts';

const FIXTURES = join(import.meta.dirname, 'fixtures', 'sdk');
const TARGETS = { java: join(FIXTURES, 'ProtocolProbe.java'), go: join(FIXTURES, 'protocol_probe.go') } as const;
const started: ChildProcess[] = [];
const compiledHolder = (language: 'java' | 'go', target: string) =>
  language === 'java' ? javaHolder(target) : goHolder(target);
const scratch = mkdtempSync(join(tmpdir(), 'lock-oracles-sdk-test-'));
mkdirSync(join(scratch, 'init'));

afterAll(() => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(scratch, { recursive: true, force: true });
});

type Message = Record<string, unknown>;

/** A holder process and both ends of its protocol, with every message it sent kept in order. */
class Holder {
  readonly messages: Message[] = [];
  stdout = '';
  readonly exited: Promise<number | null>;
  readonly #in: Writable;
  #waiters: Array<() => void> = [];

  constructor(readonly child: ChildProcess) {
    started.push(child);
    this.#in = child.stdio[3] as Writable;
    this.#in.on('error', () => undefined);
    let buffered = '';
    (child.stdio[4] as Readable).on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      let newline: number;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        this.messages.push(JSON.parse(buffered.slice(0, newline)) as Message);
        buffered = buffered.slice(newline + 1);
        for (const wake of this.#waiters.splice(0)) wake();
      }
    });
    child.stdout?.on('data', (chunk: Buffer) => (this.stdout += chunk.toString('utf8')));
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  }

  /** Waits until the target's stdout (its log, not the protocol) has shown `text`. */
  async printed(text: string): Promise<void> {
    while (!this.stdout.includes(text))
      await new Promise<void>((wake) => this.child.stdout!.once('data', () => wake()));
  }

  send(message: Message): void {
    this.#in.write(`${JSON.stringify(message)}\n`);
  }

  raw(text: string, end = false): void {
    this.#in.write(text);
    if (end) this.#in.end();
  }

  /** The first message that `match` accepts, waiting for it (the test's own timeout bounds the wait). */
  async next(match: (m: Message) => boolean): Promise<Message> {
    for (;;) {
      const found = this.messages.find(match);
      if (found) return found;
      await new Promise<void>((wake) => this.#waiters.push(wake));
    }
  }

  result(id: number): Promise<Message> {
    return this.next((m) => m.t === 'result' && m.id === id);
  }

  async request(message: Message): Promise<Message> {
    this.send(message);
    return this.result(message.id as number);
  }
}

async function startHolder(language: 'java' | 'go'): Promise<Holder> {
  const launch = await compiledHolder(language, TARGETS[language]);
  const [command, args] = dieWithHarness(launch.command, launch.args);
  const child = spawn(command, args, {
    stdio: ['ignore', 'pipe', 'pipe', 'pipe', 'pipe'],
    env: {
      ...process.env,
      LOCK_ORACLES_PROTOCOL: '1',
      LOCK_ORACLES_HOLDER: 'A',
      LOCK_ORACLES_TARGET: TARGETS[language],
    },
  });
  return new Holder(child);
}

const INIT = { url: 'redis://127.0.0.1:1', key: 'lock:probe', ttlMs: 2000, params: { rounds: 3 } };

describe.each(['java', 'go'] as const)('the %s shim', (language) => {
  it('is chosen by the target file extension', () => {
    expect(holderLanguage(TARGETS[language], '')).toBe(language);
    expect(holderLanguage('lock_target.txt', language)).toBe(language);
  });

  it('answers every request kind of the protocol', async () => {
    const holder = await startHolder(language);
    const ready = await holder.next((m) => m.t === 'ready');
    expect(holder.messages[0]).toBe(ready);
    expect(ready).toMatchObject({ protocol: 1, language, pid: holder.child.pid, name: `${language} protocol probe` });
    expect(typeof ready.runtime).toBe('string');
    expect(ready.members).toEqual(expect.arrayContaining(['storeKey', 'acquire', 'release', 'extend']));
    expect(ready.members).not.toContain('job');

    expect(await holder.request({ t: 'call', id: 1, member: 'acquire', args: [] })).toMatchObject({
      ok: false,
      code: 'not-ready',
    });
    expect(await holder.request({ t: 'init', id: 2, init: INIT })).toMatchObject({
      ok: true,
      value: { storeKey: { key: 'lock:probe' } },
    });

    const acquired = await holder.request({ t: 'call', id: 3, member: 'acquire', args: [] });
    expect(acquired).toMatchObject({ ok: true, value: { leaseId: 1, token: 'token-A', fence: 1 } });
    expect(acquired.ended as number).toBeGreaterThanOrEqual(acquired.began as number);
    await holder.printed('printed by the target');
    expect(await holder.request({ t: 'call', id: 4, member: 'extend', args: [500], leaseId: 1 })).toMatchObject({
      ok: true,
      value: true,
    });
    expect(await holder.request({ t: 'call', id: 5, member: 'release', args: [], leaseId: 1 })).toMatchObject({
      ok: true,
      value: null,
    });
    expect(await holder.request({ t: 'call', id: 6, member: 'release', args: [], leaseId: 99 })).toMatchObject({
      ok: false,
      code: 'unknown-lease',
    });
    expect(await holder.request({ t: 'call', id: 7, member: 'job', args: [] })).toMatchObject({
      ok: false,
      code: 'no-member',
    });

    // effect: accepted, rejected, then indefinite — the last must be raised, never returned as a receipt.
    const outcomes = [
      { outcome: 'definite', receipt: { accepted: true, seq: 1 } },
      { outcome: 'definite', receipt: { accepted: false, seq: 2, reason: 'fence 1 is older than 2' } },
      { outcome: 'indefinite', reason: 'the harness ended the run with this effect held' },
    ];
    const seen: Message[] = [];
    for (const [i, reply] of outcomes.entries()) {
      const id = 10 + i;
      holder.send({ t: 'selftest', id, op: 'effect', name: 'write', detail: { fence: i + 1 } });
      const effect = await holder.next((m) => m.t === 'effect' && (m.detail as Message).fence === i + 1);
      expect(effect).toMatchObject({ name: 'write', detail: { fence: i + 1 } });
      holder.send({ t: 'effect-reply', id: effect.id, ...reply });
      seen.push(((await holder.result(id)) as { value: Message }).value);
    }
    expect(seen).toEqual([
      { accepted: true, seq: 1 },
      { accepted: false, seq: 2, reason: 'fence 1 is older than 2' },
      { raised: 'indefinite' },
    ]);

    // seam: the probe does not return while the reply is withheld.
    holder.send({ t: 'selftest', id: 20, op: 'seam', name: 'release:before-delete' });
    const seam = await holder.next((m) => m.t === 'seam');
    expect(seam.name).toBe('release:before-delete');
    await new Promise((wait) => setTimeout(wait, 300));
    expect(holder.messages.some((m) => m.t === 'result' && m.id === 20)).toBe(false);
    holder.send({ t: 'seam-reply', id: seam.id });
    expect(await holder.result(20)).toMatchObject({ ok: true, value: null });

    expect(await holder.request({ t: 'selftest', id: 21, op: 'log', message: 'hello from the probe' })).toMatchObject({
      ok: true,
    });
    expect(holder.messages).toContainEqual(expect.objectContaining({ t: 'log', message: 'hello from the probe' }));
    const raised = await holder.request({ t: 'selftest', id: 22, op: 'raise', message: 'the probe raised' });
    expect(raised).toMatchObject({ ok: false, code: 'threw' });
    expect(raised.error).toContain('the probe raised');

    holder.raw('this is not json\n');
    await holder.next((m) => m.code === 'bad-message');
    expect(await holder.request({ t: 'clock', id: 23, command: { kind: 'install-sim' } })).toMatchObject({
      ok: false,
      code: 'unsupported',
    });

    // The target's print (a result-shaped line with id 1) never reached fd 4: id 1 was answered once.
    expect(holder.messages.filter((m) => m.t === 'result' && m.id === 1)).toHaveLength(1);

    // A torn last line, then end of file: ignored, and the holder exits 0.
    holder.raw('{"t":"call","id":50,"member":"acquire","args":[]}', true);
    expect(await holder.exited).toBe(0);
    expect(holder.messages.some((m) => m.id === 50)).toBe(false);
  });

  it('passes the conformance suite, every check', async () => {
    const checks = await runConformance(TARGETS[language]);
    expect(checks.filter((c) => !c.ok)).toEqual([]);
    expect(checks.map((c) => c.name)).toEqual(
      expect.arrayContaining(['handshake', 'effect indefinite', 'seam', 'close']),
    );
  });

  it('answers close, then exits 0', async () => {
    const holder = await startHolder(language);
    await holder.request({ t: 'init', id: 1, init: INIT });
    expect(await holder.request({ t: 'close', id: 2 })).toMatchObject({ ok: true, value: null });
    expect(await holder.exited).toBe(0);
  });

  it('is built once: the second build is cached', async () => {
    await compiledHolder(language, TARGETS[language]);
    expect((await compiledHolder(language, TARGETS[language])).cached).toBe(true);
  });

  it('does not outlive a harness killed with kill -9', async () => {
    const launch = await compiledHolder(language, TARGETS[language]);
    const [command, args] = dieWithHarness(launch.command, launch.args);
    // A stand-in harness: a node process that starts the holder with its pipes, then is SIGKILLed.
    const harness = spawn(
      process.execPath,
      [
        '-e',
        `const c = require('node:child_process').spawn(${JSON.stringify(command)}, ${JSON.stringify(args)}, { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] });
         c.stdio[4].once('data', () => console.log(c.pid)); setInterval(() => {}, 1000);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    started.push(harness);
    const pid = Number(
      await new Promise<string>((resolve) => harness.stdout!.once('data', (d: Buffer) => resolve(d.toString()))),
    );
    expect(alive(pid)).toBe(true);
    harness.kill('SIGKILL');
    for (let i = 0; i < 100 && alive(pid); i++) await new Promise((wait) => setTimeout(wait, 50));
    expect(alive(pid)).toBe(false);
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('init --lang java|go', () => {
  it('writes a whole target that builds, and refuses to overwrite one', async () => {
    const java = writeJavaGoTarget('java', join(scratch, 'init', 'LockTarget.java'));
    const go = writeJavaGoTarget('go', join(scratch, 'init', 'lock_target.go'));
    expect((await javaHolder(java)).args).toContain('LockTarget');
    expect((await goHolder(go)).command).toMatch(/holder$/);
    expect(() => writeJavaGoTarget('go', go)).toThrow(/already exists/);
    expect(() => writeJavaGoTarget('java', join(scratch, 'init', 'Other.java'))).toThrow(/LockTarget\.java/);
  });
});

describe('a Java or Go target that cannot be built', () => {
  it('names the file and line of a compile error', async () => {
    const java = join(scratch, 'Broken.java');
    writeFileSync(java, 'public class Broken {\n  public Object acquire(LockOracles.Env env) { return null }\n}\n');
    await expect(compiledHolder('java', java)).rejects.toThrow(/Broken\.java:2: error: ';' expected/);
    const go = join(scratch, 'broken.go');
    writeFileSync(go, 'package main\n\nimport "lockoracles"\n\nfunc main() { lockoracles.Run(nil) undefinedName }\n');
    await expect(compiledHolder('go', go)).rejects.toThrow(/broken\.go:5:\d+/);
  });

  it('names a classpath jar that does not exist, and how to get it', async () => {
    const java = join(scratch, 'MissingJar.java');
    writeFileSync(java, '//CLASSPATH /usr/share/java/no-such-library.jar\npublic class MissingJar {}\n');
    await expect(javaHolder(java)).rejects.toThrow(/no-such-library\.jar, which does not exist[^]*npm run setup/);
  });

  it('names the install line when the toolchain is missing', async () => {
    const path = process.env.PATH;
    process.env.PATH = scratch;
    try {
      await expect(compiledHolder('java', TARGETS.java)).rejects.toThrow(/apt-get install openjdk-17-jdk-headless/);
      await expect(compiledHolder('go', TARGETS.go)).rejects.toThrow(/apt-get install golang-go/);
    } finally {
      process.env.PATH = path;
    }
  });
});
