/**
 * A holder process starts with the harness's environment, less NODE_EXTRA_CA_CERTS (node 20 parses
 * that file at every start, and a holder never speaks TLS: src/holder/holder-env.ts).
 */
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { History } from '../src/core/history.ts';
import { Resource } from '../src/core/resource.ts';
import { FaultLog } from '../src/core/fault-log.ts';
import { compileHolderModules, Holder } from '../src/holder/holder.ts';

const PROBE = await compileHolderModules(fileURLToPath(new URL('./fixtures/env-probe.ts', import.meta.url)));
const saved = { ca: process.env.NODE_EXTRA_CA_CERTS, mark: process.env.LOCK_ORACLES_ENV_MARK };
afterAll(() => {
  for (const [name, value] of [
    ['NODE_EXTRA_CA_CERTS', saved.ca],
    ['LOCK_ORACLES_ENV_MARK', saved.mark],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

it('passes the harness environment to a holder, without NODE_EXTRA_CA_CERTS', async () => {
  process.env.NODE_EXTRA_CA_CERTS = '/etc/ssl/certs/ca-certificates.crt';
  process.env.LOCK_ORACLES_ENV_MARK = 'passed';
  const history = new History();
  const holder = new Holder('A', PROBE, { history, resource: new Resource(), faults: new FaultLog(history) });
  try {
    await holder.init({ url: 'redis://127.0.0.1:1', key: 'k', ttlMs: 1, params: {} });
    expect(JSON.parse(String((await holder.call('read')).value))).toEqual({ mark: 'passed', extraCaCerts: null });
  } finally {
    await holder.close();
  }
});
