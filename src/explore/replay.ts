/**
 * A schedule is one explored point written down (reports/<run>/schedule.json). Replaying it runs
 * exactly that point again — on the target it was found on, or on another (the fixed code).
 */
import { readFileSync } from 'node:fs';
import type { EvidenceRecord } from '../report/evidence.ts';
import { UsageError } from '../core/errors.ts';
import { runOracle } from '../run/run-oracle.ts';
import type { RuntimeChoice } from '../families/start-store.ts';
import type { Schedule } from '../oracle/explore-point.ts';
import { FAULT_ORDER } from '../faults/registry.ts';

export function readSchedule(path: string): Schedule {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new UsageError(
      `cannot read the schedule "${path}": ${(error as Error).message} (give the schedule.json an --explore run wrote)`,
    );
  }
  const s = parsed as Partial<Schedule>;
  const problems = [
    s.schemaVersion === 1 ? '' : 'schemaVersion is not 1',
    typeof s.oracle === 'string' ? '' : 'no oracle',
    typeof s.target === 'string' ? '' : 'no target',
    typeof s.params === 'object' && s.params !== null ? '' : 'no params',
    typeof s.boundary?.part === 'string' && typeof s.boundary.name === 'string' && Number.isInteger(s.boundary.nth)
      ? ''
      : 'no boundary (part, name, nth)',
    FAULT_ORDER.includes(s.fault as never) ? '' : `fault is not one of ${FAULT_ORDER.join(', ')}`,
  ].filter(Boolean);
  if (problems.length) throw new UsageError(`"${path}" is not a schedule: ${problems.join('; ')}`);
  return s as Schedule;
}

export interface ReplayOptions {
  /** Run the schedule against this target instead of the one it was found on. */
  target?: string;
  runtime?: RuntimeChoice;
  progress?: (message: string) => void;
}

export function replaySchedule(schedule: Schedule, options: ReplayOptions = {}): Promise<EvidenceRecord> {
  return runOracle({
    oracle: schedule.oracle,
    target: options.target ?? schedule.target,
    params: schedule.params,
    store: schedule.store,
    ...(schedule.topology ? { topology: schedule.topology } : {}),
    point: {
      boundary: schedule.boundary,
      fault: schedule.fault,
      // A point on a contender (V311 --contenders 3: B's takeover) lands on that contender again.
      ...(schedule.holder && schedule.holder !== 'A' ? { holder: schedule.holder } : {}),
    },
    ...(options.runtime ? { runtime: options.runtime } : {}),
    ...(options.progress ? { progress: options.progress } : {}),
  });
}
