/**
 * A flock lock on the fs store (storeKey's `flock: true`): the harness reads the kernel's own locks
 * in /proc/locks for the file's inode (src/families/fs/kernel-locks.ts) and judges the lock held
 * only while one is granted there, not by the file's existence. The parser on /proc/locks' text,
 * then a real flock(2) taken by a real python3 process, read held, and read free once that process
 * is SIGKILLed (the file stays).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { deviceOf, kernelLocksOn, parseProcLocks } from '../src/families/fs/kernel-locks.ts';
import { readFileLock } from '../src/families/fs/view.ts';
import { storeKeyProblem } from '../src/holder/store-key-shape.ts';

describe('/proc/locks', () => {
  test('parses granted FLOCK, POSIX and OFD locks; skips waiters and leases', () => {
    const text = [
      '1: OFDLCK ADVISORY  READ -1 00:06:3 0 EOF',
      '2: FLOCK  ADVISORY  WRITE 10491 fe:00:2154552 0 EOF',
      '2: -> FLOCK  ADVISORY  WRITE 10500 fe:00:2154552 0 EOF',
      '3: POSIX  ADVISORY  WRITE 77 00:2a:99 0 EOF',
      '4: LEASE  ACTIVE    READ 12 fe:00:5 0 EOF',
      '',
    ].join('\n');
    expect(parseProcLocks(text)).toEqual([
      { type: 'OFDLCK', mode: 'READ', pid: -1, major: 0, minor: 6, ino: 3 },
      { type: 'FLOCK', mode: 'WRITE', pid: 10491, major: 0xfe, minor: 0, ino: 2154552 },
      { type: 'POSIX', mode: 'WRITE', pid: 77, major: 0, minor: 0x2a, ino: 99 },
    ]);
  });

  test("reads a stat's st_dev as the kernel prints it (glibc's major/minor)", () => {
    expect(deviceOf(0xfe00)).toEqual({ major: 254, minor: 0 });
    expect(deviceOf(0x2a)).toEqual({ major: 0, minor: 42 });
    // minor 300 = 0x12c: its low byte in bits 0-7, the rest from bit 20 on.
    expect(deviceOf((8 << 8) | 0x2c | (0x1 << 20))).toEqual({ major: 8, minor: 300 });
  });

  test('storeKey may declare a flock lock, a boolean', () => {
    expect(storeKeyProblem({ path: 'k.lock', flock: true })).toBeUndefined();
    expect(storeKeyProblem({ path: 'k.lock', flock: 'yes' } as never)).toMatch(/flock\?/);
  });
});

describe('a real flock on the fs store', () => {
  let dir: string | undefined;
  let holder: ReturnType<typeof spawn> | undefined;
  afterEach(() => {
    if (holder?.exitCode === null && holder.signalCode === null) holder.kill('SIGKILL');
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('is held while a live process holds it and free once it is killed; the file stays', async () => {
    dir = mkdtempSync(join(tmpdir(), 'lock-oracles-kernel-locks-'));
    const path = join(dir, 'k.lock');
    writeFileSync(path, '');
    const lock = { path: 'k.lock', flock: true };
    const unlocked = await readFileLock(dir, lock);
    expect(unlocked).toMatchObject({ exists: false, pttlMs: -2, kind: 'file', kernelLocks: [] });
    expect(unlocked.free).toMatch(/lists no lock/);

    holder = spawn(
      '/usr/bin/python3',
      [
        '-c',
        'import fcntl, sys, time\nf = open(sys.argv[1], "a")\nfcntl.flock(f, fcntl.LOCK_EX)\nprint("locked", flush=True)\ntime.sleep(60)',
        path,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    // A whole line: print's text and its newline may reach the pipe as two chunks.
    const [line] = (await once(createInterface({ input: holder.stdout! }), 'line')) as [string];
    expect(line).toBe('locked');
    const held = await readFileLock(dir, lock);
    expect(held).toMatchObject({
      exists: true,
      pttlMs: -1,
      kernelLocks: [{ type: 'FLOCK', mode: 'WRITE', pid: holder.pid }],
    });
    expect((await kernelLocksOn(path))?.locks).toEqual([{ type: 'FLOCK', mode: 'WRITE', pid: holder.pid }]);

    holder.kill('SIGKILL');
    await once(holder, 'exit');
    const afterKill = await readFileLock(dir, lock);
    expect(existsSync(path)).toBe(true);
    expect(afterKill).toMatchObject({ exists: false, pttlMs: -2, kind: 'file', kernelLocks: [] });
  });

  test('a file that is not there is no lock', async () => {
    dir = mkdtempSync(join(tmpdir(), 'lock-oracles-kernel-locks-'));
    expect(await readFileLock(dir, { path: 'gone.lock', flock: true })).toMatchObject({ exists: false, kind: 'none' });
    expect(await kernelLocksOn(join(dir, 'gone.lock'))).toBeNull();
  });
});
