/**
 * A holder's filesystem calls under the fs store's directory are boundaries with no seam in the
 * target (src/holder/fs-preload.ts): sync, callback (through graceful-fs too) and promise forms are
 * each reported and traced in the history; a hold before a call really keeps the call from running
 * (a sync one blocks the holder's whole thread: it answers nothing else meanwhile), and a hold of
 * its result keeps a call that ran from returning. Real holder processes on a real directory.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { FaultLog } from '../src/core/fault-log.ts';
import { History } from '../src/core/history.ts';
import { Resource } from '../src/core/resource.ts';
import { startStore } from '../src/families/start-store.ts';
import { compileHolderModules, Holder, type HolderModules } from '../src/holder/holder.ts';
import { Scenario } from '../src/oracle/scenario.ts';
import { heldStop } from '../src/faults/stops.ts';
import type { StartedStore } from '../src/stores/types.ts';

const TARGET = 'test/fixtures/targets/fs-forms.ts';
let modules: HolderModules;
beforeAll(async () => {
  modules = await compileHolderModules(TARGET);
}, 60_000);

let running: { s: Scenario; store: StartedStore } | undefined;
afterEach(async () => {
  await running?.s.close();
  await running?.store.stop();
  running = undefined;
});

async function scenario(): Promise<Scenario> {
  const store = await startStore({ kind: 'fs' });
  const history = new History();
  const ctx = { history, resource: new Resource(), faults: new FaultLog(history) };
  const s = new Scenario({
    store,
    key: 'k',
    ttlMs: 200,
    params: {},
    ...ctx,
    spawnHolder: async (id) => new Holder(id, modules, ctx),
    progress: () => undefined,
  });
  running = { s, store };
  return s;
}

const lockDir = (s: Scenario) => join(fileURLToPath(s.store.url), 'k.lock');
const fsEvents = (s: Scenario) => s.history.filter((e) => e.kind === 'fs').map((e) => e.detail);
/** Whether holder A answers another call within `ms` (its thread is free), or not (it is blocked). */
const answers = async (s: Scenario, ms: number) =>
  (await s.within((await s.holder('A')).call('query', ['ping']), ms)) !== undefined;

describe('filesystem calls as boundaries', () => {
  test('every form is reported and traced: sync, callback through graceful-fs, promise; with its flags and result', async () => {
    const s = await scenario();
    const a = await s.holder('A');
    const lease = (await a.acquire())!;
    expect((await a.extend(lease, 200)).extended).toBe(true);
    expect((await a.release(lease)).ok).toBe(true);
    const calls = fsEvents(s).filter((e) => e.phase === 'call');
    expect(calls).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ call: 'mkdir k.lock', form: 'sync' }),
        expect.objectContaining({ call: 'writeFile k.lock/owner', form: 'sync', flags: 'wx' }),
        expect.objectContaining({ call: 'utimes k.lock', form: 'promise' }),
        expect.objectContaining({ call: 'unlink k.lock/owner', form: 'callback' }),
        expect.objectContaining({ call: 'rmdir k.lock', form: 'callback' }),
      ]),
    );
    expect(fsEvents(s)).toContainEqual(
      expect.objectContaining({ call: 'mkdir k.lock', phase: 'result', result: 'ok' }),
    );
    expect(existsSync(lockDir(s))).toBe(false);
  });

  test('a sync call held before it runs: the directory is not made, and the holder answers nothing until released', async () => {
    const s = await scenario();
    const a = await s.holder('A');
    const stop = heldStop(s.fsBoundaries('A').hold({ op: 'mkdir' }), 'A held before mkdir', 'no mkdir');
    const acquire = a.acquire();
    expect((await stop.reached) as unknown).toMatchObject({ op: 'mkdir', path: 'k.lock', form: 'sync' });
    expect(existsSync(lockDir(s))).toBe(false);
    expect(await answers(s, 300)).toBe(false);
    stop.release();
    expect(stop.isReleased).toBe(true);
    expect(await acquire).toMatchObject({ token: 'A' });
    expect(existsSync(lockDir(s))).toBe(true);
    expect(s.history.filter((e) => e.kind === 'fault-applied').map((e) => e.detail.action)).toContain(
      'held before mkdir k.lock',
    );
  });

  test("an async call's result held: the call ran (the directory is gone), the release has not returned, the holder still answers", async () => {
    const s = await scenario();
    const a = await s.holder('A');
    const lease = (await a.acquire())!;
    const hold = s.fsBoundaries('A').hold({ op: 'rmdir', path: 'k.lock' }, { on: 'result' });
    let returned = false;
    const release = a.release(lease).then((outcome) => ((returned = true), outcome));
    expect(await hold.reached).toMatchObject({ op: 'rmdir', phase: 'result', result: 'ok', form: 'callback' });
    expect(existsSync(lockDir(s))).toBe(false);
    expect(await answers(s, 2000)).toBe(true);
    expect(returned).toBe(false);
    hold.release();
    expect((await release).ok).toBe(true);
  });

  test("with no hold armed the calls go on unanswered, yet the history keeps the holder's order: every call of the acquire before its acquire-ok", async () => {
    const s = await scenario();
    const a = await s.holder('A');
    expect(await a.acquire()).toMatchObject({ token: 'A' });
    const kinds = s.history.filter((e) => e.kind === 'fs' || e.kind === 'acquire-ok');
    expect(kinds.map((e) => (e.kind === 'fs' ? `${String(e.detail.call)} ${String(e.detail.phase)}` : e.kind))).toEqual(
      [
        'mkdir k.lock call',
        'mkdir k.lock result',
        'writeFile k.lock/owner call',
        // writeFileSync opens the file through fs.openSync: its own boundary, inside the write.
        'open k.lock/owner call',
        'open k.lock/owner result',
        'writeFile k.lock/owner result',
        'acquire-ok',
      ],
    );
  });

  test('a blackhole holds every call until lifted, and counts them', async () => {
    const s = await scenario();
    const a = await s.holder('A');
    const lease = (await a.acquire())!;
    const cut = s.fsBoundaries('A').blackhole();
    let returned = false;
    const release = a.release(lease).then((outcome) => ((returned = true), outcome));
    expect(await s.within(release, 300)).toBeUndefined();
    expect(existsSync(lockDir(s))).toBe(true);
    expect(cut.record.commandsAffected).toBe(1);
    expect(cut.record.sampleCommands).toEqual(['unlink k.lock/owner']);
    cut.lift();
    expect((await release).ok).toBe(true);
    expect(returned).toBe(true);
    expect(existsSync(lockDir(s))).toBe(false);
    expect(cut.record.toMs).not.toBeNull();
  });
});
