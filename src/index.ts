/**
 * The public API of the `lock-oracles` package (`import { … } from 'lock-oracles'`).
 *
 * - `defineTarget` and the contract's types: what a target file needs.
 * - The adapters: `fromWithLock`, `ioredisSetNx`, `nodeRedisSetNx`, `fromRedlock`, `pgAdvisoryLock`.
 * - `runOracle`, `settle`, `prove`, `replaySchedule`: the harness itself, as the CLI uses it.
 *
 * A target's holder processes import this module too (for `defineTarget` and the adapters), so the
 * harness is loaded only when one of its functions is first called: importing this module starts
 * nothing, registers no signal handler and loads none of the engine.
 */
import type { RunRequest } from './run/run-oracle.ts';
import type { EvidenceRecord } from './report/evidence.ts';
import type { SettleOptions, SettleResult } from './settle/settle.ts';
import type { RowsFile } from './settle/rows.ts';
import type { ProveOptions, Proof } from './prove/prove.ts';
import type { RepeatedRun } from './run/run-repeated.ts';
import type { ReplayOptions } from './explore/replay.ts';
import type { Schedule } from './oracle/explore-point.ts';

export { defineTarget, STAGED_WRITE_SEAM } from '../targets/contract.ts';
export type {
  EffectDetail,
  EffectReceipt,
  HashField,
  Lease,
  ScheduleHandle,
  StoreLocation,
  Target,
  TargetEnv,
  TargetMember,
} from '../targets/contract.ts';
export { fromWithLock, type FromWithLockOptions, type WithLock } from '../targets/adapters/from-with-lock.ts';
export {
  ioredisSetNx,
  nodeRedisSetNx,
  type IoredisLike,
  type NodeRedisLike,
  type SetNxOptions,
} from '../targets/adapters/redis-set-nx.ts';
export {
  fromRedlock,
  type FromRedlockOptions,
  type RedlockLike,
  type RedlockLockLike,
} from '../targets/adapters/redlock.ts';
export {
  pgAdvisoryLock,
  type AdvisoryScope,
  type PgAdvisoryOptions,
  type PgClientLike,
  type PgPoolLike,
} from '../targets/adapters/pg-advisory.ts';

export type {
  RunRequest,
  EvidenceRecord,
  SettleOptions,
  SettleResult,
  RowsFile,
  ProveOptions,
  Proof,
  RepeatedRun,
  ReplayOptions,
  Schedule,
};
export type { Verdict } from './core/judgement.ts';
export type { MultiRunRecord } from './report/evidence.ts';
export type { Row, RowStatus, OracleResult } from './settle/rows.ts';
export type { StoreKind } from './stores/types.ts';

/** Runs one oracle once against a target on a scratch store it starts and stops; returns the evidence (writes no report). */
export async function runOracle(request: RunRequest): Promise<EvidenceRecord> {
  return (await import('./run/run-oracle.ts')).runOracle(request);
}

/** Runs one oracle `runs` times (each on a fresh store) and writes the report under `reportDir` (none when undefined). */
export async function runRepeated(
  request: RunRequest,
  runs: number,
  reportDir: string | undefined,
): Promise<RepeatedRun> {
  return (await import('./run/run-repeated.ts')).runRepeated(request, runs, reportDir);
}

/** Settles a rows file (a path, or the parsed rows): each row gets Confirmed / Refuted / Unconfirmed (docs/settle-and-prove.md). */
export async function settle(input: string | RowsFile, options: SettleOptions = {}): Promise<SettleResult> {
  return (await import('./settle/settle.ts')).settle(input, options);
}

/** A failing-first proof: every before-run FAILs and every after-run PASSes (docs/settle-and-prove.md). */
export async function prove(options: ProveOptions): Promise<Proof> {
  return (await import('./prove/prove.ts')).prove(options);
}

/** Replays one explored point (a `schedule.json` read with JSON.parse) exactly; `--emit-test` writes tests that call it. */
export async function replaySchedule(schedule: Schedule, options: ReplayOptions = {}): Promise<EvidenceRecord> {
  return (await import('./explore/replay.ts')).replaySchedule(schedule, options);
}
