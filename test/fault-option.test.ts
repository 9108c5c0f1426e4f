/**
 * `--fault NAME` on a plain run (src/cli/commands/fault-option.ts): the parameters of the variant it
 * names, the old --variant left working, a clash or an unknown fault refused with the known ones.
 */
import { describe, expect, it } from 'vitest';
import { withFaultOption } from '../src/cli/commands/fault-option.ts';
import { FAULT_ORDER } from '../src/faults/registry.ts';
import { faultRunsOf } from '../src/oracle/landed-fault.ts';
import { loadAllOracles, loadOracle } from '../src/run/registry.ts';
import { checkRequest } from '../src/run/stages/resolve-request.ts';
import { UsageError } from '../src/core/errors.ts';
import { taggedCli } from './tagged-cli.ts';

describe('--fault', () => {
  it('runs a fault as the variant that was its name', async () => {
    const v313 = await loadOracle('V313');
    expect(withFaultOption(v313, { fault: 'node-restart', ttl: '400' }, false)).toEqual({
      variant: 'quorum',
      nodeFault: 'restart',
      ttl: '400',
    });
    expect(withFaultOption(v313, { variant: 'pause' }, false)).toEqual({ variant: 'pause' });
    expect(withFaultOption(v313, { fault: 'failover', variant: 'failover' }, false)).toEqual({ variant: 'failover' });
  });

  it("runs a fault that lands itself as the oracle's landedFault, from the registry with no oracle naming it", async () => {
    const v313 = await loadOracle('V313');
    expect(withFaultOption(v313, { fault: 'connection-killed', ttl: '400' }, false)).toEqual({
      landedFault: 'connection-killed',
      ttl: '400',
    });
    expect(Object.keys(faultRunsOf(v313))).toContain('connection-killed');
    expect(v313.faultRuns).not.toHaveProperty('connection-killed');
  });

  it('refuses a clash, an unknown fault and --fault with --explore, naming what would do', async () => {
    const v313 = await loadOracle('V313');
    expect(() => withFaultOption(v313, { fault: 'partition', variant: 'pause' }, false)).toThrow(
      /--fault partition is --variant partition: it cannot run with --variant pause/,
    );
    expect(() => withFaultOption(v313, { fault: 'hold-message' }, false)).toThrow(/not one of its faults \(pause,/);
    expect(() => withFaultOption(v313, { fault: 'pause' }, true)).toThrow(/--explore lands every fault/);
  });

  it("leaves an oracle's own fault parameter alone (V315: how A is cut off)", async () => {
    const v315 = await loadOracle('V315');
    expect(withFaultOption(v315, { fault: 'kill' }, false)).toEqual({ fault: 'kill' });
  });

  it("names only registered faults, and only variants the oracle's parameters accept", async () => {
    const runs = (await loadAllOracles()).flatMap((o) =>
      Object.entries(o.faultRuns ?? {}).map(([fault, params]) => ({ o, fault, params })),
    );
    expect(runs.length).toBeGreaterThan(8);
    for (const { o, fault, params } of runs) {
      expect(FAULT_ORDER).toContain(fault);
      for (const [name, value] of Object.entries(params)) {
        const spec = o.params[name];
        expect(spec?.kind === 'choice' && (spec.choices as readonly string[]).includes(value), `${o.id} ${name}`).toBe(
          true,
        );
      }
    }
  });

  it('refuses a fault that lands itself on a store it does not land on at the resolve stage, naming where it lands', async () => {
    const on = (store: 'redis' | 'etcd' | 'fs', landedFault: string, topology?: string) =>
      checkRequest({
        oracle: 'V313',
        target: 'targets/etcd/lock-job.ts',
        store,
        ...(topology ? { topology } : {}),
        params: { landedFault, ttl: 2000 },
      });
    await expect(on('redis', 'lease-revoked')).rejects.toThrow(
      new UsageError('V313 --fault lease-revoked: lease-revoked lands on --store etcd, not on redis'),
    );
    await expect(on('fs', 'connection-killed')).rejects.toThrow(
      /connection-killed lands on --store redis or --store valkey or --store postgres, not on fs/,
    );
    await expect(on('redis', 'connection-killed', 'redlock:3')).rejects.toThrow(/not on --topology redlock/);
    // Where it lands, the request resolves.
    await expect(on('etcd', 'lease-revoked')).resolves.toMatchObject({ storeChoice: { kind: 'etcd' } });
  });

  it('exits 2 on such a fault before any process starts (no store, no holder, no solo run)', async () => {
    const { cli, leftovers } = taggedCli({ timeout: 60_000 });
    const run = await cli([
      'V313',
      '--store',
      'redis',
      '--fault',
      'lease-revoked',
      '--target',
      'targets/etcd/lock-job.ts',
    ]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('lease-revoked lands on --store etcd, not on redis');
    expect(run.stderr).not.toContain('starting a scratch');
    expect(run.stderr).not.toContain('B runs the job alone');
    expect(leftovers()).toEqual([]);
  });

  it('ends INCONCLUSIVE with the reason, not a usage error, when the fault was tried on its store and did not land', async () => {
    const { cli, leftovers } = taggedCli({ timeout: 90_000 });
    const run = await cli([
      'V313',
      '--store',
      'etcd',
      '--fault',
      'lease-revoked',
      '--ttl',
      '2000',
      '--target',
      'test/fixtures/targets/etcd-job-no-lease.ts',
    ]);
    expect(run.stderr).toContain('INCONCLUSIVE');
    expect(run.stderr).toContain(
      "lease-revoked was tried at A's first write and did not land: holder A was granted no lease",
    );
    expect(run.exitCode).toBe(3);
    expect(leftovers()).toEqual([]);
  });
});
