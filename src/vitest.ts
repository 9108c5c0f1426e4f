/**
 * `lock-oracles/vitest`: an oracle as an assertion in your own test suite.
 *
 *   import { expectOracle } from 'lock-oracles/vitest';
 *   test('our billing lock survives a pause', async () => {
 *     await expectOracle('V313', './lock.target.ts', { params: { ttl: 300 } }).toPass();
 *   });
 *
 * It runs the oracle (`runs` times, default 1, each on a fresh scratch store), writes the report
 * (default `reports/` under the current directory) and resolves with the run when the verdict is
 * the expected one; otherwise it rejects with the oracle's explanation and the report's path. It
 * imports nothing from vitest, so it works in any runner that fails a test on a rejected promise.
 */
import { resolve } from 'node:path';
import type { RunRequest } from './run/run-oracle.ts';
import type { RepeatedRun } from './run/run-repeated.ts';
import type { Verdict } from './core/judgement.ts';

export interface ExpectOracleOptions extends Pick<
  RunRequest,
  'params' | 'store' | 'runtime' | 'deadlineMs' | 'progress'
> {
  /** Runs, each on a fresh store: toPass needs every one to PASS, toFail at least one to FAIL. Default 1. */
  runs?: number;
  /** Where the report is written (default reports/ under the current directory); null writes none. */
  reportDir?: string | null;
}

export interface OracleExpectation {
  /** Every run PASSed with every precondition held. */
  toPass(): Promise<RepeatedRun>;
  /** The oracle FAILed (the bug is there). */
  toFail(): Promise<RepeatedRun>;
  /** Any verdict, e.g. 'INCONCLUSIVE' for a fault that cannot land on this target. */
  toBe(verdict: Verdict): Promise<RepeatedRun>;
}

/** Thrown when the oracle's verdict is not the expected one; the message is the oracle's explanation and the report path. */
export class OracleExpectationError extends Error {
  override name = 'OracleExpectationError';
  constructor(
    message: string,
    readonly run: RepeatedRun,
  ) {
    super(message);
  }
}

export function expectOracle(oracle: string, target: string, options: ExpectOracleOptions = {}): OracleExpectation {
  const check = async (expected: Verdict): Promise<RepeatedRun> => {
    const { runs = 1, reportDir, ...request } = options;
    const { runRepeated } = await import('./run/run-repeated.ts');
    const dir = reportDir === null ? undefined : resolve(reportDir ?? 'reports');
    const run = await runRepeated({ ...request, oracle, target }, runs, dir);
    if (run.verdict === expected) return run;
    const report = run.reportPath ? `\nreport: ${run.reportPath}` : '';
    throw new OracleExpectationError(
      `${oracle} on ${target}: expected ${expected}, got ${run.verdict}.\n${run.explanation}${report}`,
      run,
    );
  };
  return { toPass: () => check('PASS'), toFail: () => check('FAIL'), toBe: check };
}
