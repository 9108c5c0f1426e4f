/**
 * expectOracle's own contract: a verdict other than the expected one rejects with the oracle's
 * explanation and the report's path (the report is there), and the API's functions are the engine's.
 */
import { afterAll, describe, expect, test } from 'vitest';
import { existsSync } from 'node:fs';
import { expectOracle, OracleExpectationError } from '../src/vitest.ts';
import { makeRunDir } from '../src/process/run-dir.ts';

const reports = makeRunDir('api');
afterAll(() => reports.remove());

describe('expectOracle', () => {
  test('toPass on a FAILing target rejects with the explanation and the report path', async () => {
    const error = await expectOracle('V313', 'targets/redis/ioredis/lease-no-renewal.ts', { reportDir: reports.dir })
      .toPass()
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(OracleExpectationError);
    const { run, message } = error as OracleExpectationError;
    expect(run.verdict).toBe('FAIL');
    expect(message).toContain('V313 on targets/redis/ioredis/lease-no-renewal.ts: expected PASS, got FAIL.');
    expect(message).toContain(run.explanation);
    expect(run.reportPath?.startsWith(reports.dir)).toBe(true);
    expect(message).toContain(`report: ${run.reportPath}`);
    expect(existsSync(`${run.reportPath}/evidence.json`)).toBe(true);
  });

  test('an unknown oracle is a usage error, not a verdict', async () => {
    await expect(
      expectOracle('V999', 'docs/examples/job-shape.target.ts', { reportDir: null }).toPass(),
    ).rejects.toThrow(/unknown oracle "V999"/);
  });
});
