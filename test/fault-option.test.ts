/**
 * `--fault NAME` on a plain run (src/cli/commands/fault-option.ts): the parameters of the variant it
 * names, the old --variant left working, a clash or an unknown fault refused with the known ones.
 */
import { describe, expect, it } from 'vitest';
import { withFaultOption } from '../src/cli/commands/fault-option.ts';
import { FAULT_ORDER } from '../src/faults/registry.ts';
import { faultRunsOf } from '../src/oracle/landed-fault.ts';
import { loadAllOracles, loadOracle } from '../src/run/registry.ts';

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
});
