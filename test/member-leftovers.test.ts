/**
 * A harness SIGKILLed mid-run on --topology etcd:3 and zookeeper:3, A's member stopped (SIGSTOP,
 * the member-paused fault in force) at that moment: every member process dies with it (a stopped
 * one too), no member port is left listening, and `clean` removes the run's dir with the members'
 * data dirs. The members are found by their command lines under the run's own TMPDIR.
 */
import { execa } from 'execa';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';

const cli = (args: string[], tmp: string) =>
  execa('npx', ['tsx', 'src/cli/main.ts', ...args], { reject: false, env: { TMPDIR: tmp }, timeout: 180_000 });
/** The run's own dirs (the holders' build cache, kept across runs on purpose, aside). */
const runDirs = (tmp: string) =>
  readdirSync(tmp).filter((f) => f.startsWith('lock-oracles-') && f !== 'lock-oracles-cache');

/** The pids of the processes whose command line names `tmp` (the members: their data dirs and zoo.cfg are under it). */
async function membersUnder(tmp: string, kind: 'etcd' | 'zookeeper'): Promise<number[]> {
  const pattern = kind === 'etcd' ? `etcd .*--data-dir=${tmp}/` : `QuorumPeerMain ${tmp}/`;
  const { stdout } = await execa('pgrep', ['-f', pattern], { reject: false });
  return stdout.trim().split('\n').filter(Boolean).map(Number);
}

/** The TCP ports `pids` listen on. */
async function listeningPorts(pids: number[]): Promise<string[]> {
  const { stdout } = await execa('ss', ['-tlnpH']);
  return stdout
    .split('\n')
    .filter((line) => pids.some((pid) => line.includes(`pid=${pid},`)))
    .map((line) => line.trim().split(/\s+/)[3]!.split(':').pop()!);
}

async function stillListening(ports: string[]): Promise<string[]> {
  const { stdout } = await execa('ss', ['-tlnH']);
  const open = new Set(stdout.split('\n').map((line) => line.trim().split(/\s+/)[3]?.split(':').pop()));
  return ports.filter((port) => open.has(port));
}

describe('a SIGKILLed run on a member topology leaves nothing behind after clean', { timeout: 300_000 }, () => {
  test.each([
    ['etcd', 'targets/etcd/lock-job.ts'],
    ['zookeeper', 'targets/zookeeper/recipe-job.ts'],
  ] as const)('%s:3 with A’s member SIGSTOPped', async (kind, target) => {
    const tmp = mkdtempSync(join(tmpdir(), `member-leftovers-${kind}-`));
    const run = cli(
      [
        ...['V313', '--store', kind, '--topology', `${kind}:3`, '--target', target],
        ...['--fault', 'member-paused', '--ttl', '30000', '--timeout', '120000'],
        ...['--no-report', '--report-dir', tmp],
      ],
      tmp,
    );
    let seen = '';
    await new Promise<void>((resolve, reject) => {
      run.stderr!.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        if (/waiting for its 30000 ms lease/.test(seen)) resolve();
      });
      void run.then(() => reject(new Error(`the run ended before it was mid-scenario:\n${seen}`)));
    });
    const members = await membersUnder(tmp, kind);
    expect(members.length, seen).toBe(3);
    // /proc/<pid>/stat's state after the command name: T for a stopped process.
    const stopped = members.filter((pid) => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('T'));
    expect(stopped.length, "A's member stopped by member-paused").toBe(1);
    const ports = await listeningPorts(members);
    expect(ports.length).toBeGreaterThanOrEqual(3);
    const { stdout } = await execa('pgrep', ['-f', `loader\\.mjs.*src/cli/main\\.ts V313 .*--report-dir ${tmp}`], {
      reject: false,
    });
    const harness = Number(stdout.trim().split('\n')[0]);
    expect(harness).toBeGreaterThan(0);
    process.kill(harness, 'SIGKILL');
    await run;
    await expect.poll(() => membersUnder(tmp, kind), { timeout: 20_000 }).toEqual([]);
    await expect.poll(() => stillListening(ports), { timeout: 20_000 }).toEqual([]);
    expect(runDirs(tmp).length, 'the killed run left its dirs').toBeGreaterThan(0);
    const clean = await cli(['clean', '--json'], tmp);
    expect(clean.exitCode, clean.stderr).toBe(0);
    expect(runDirs(tmp)).toEqual([]);
  });
});
