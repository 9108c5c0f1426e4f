/** The job shape's parameters (V312, V313): how many writes, and how long each step's work takes. */
import type { TargetEnv } from '../contract.ts';

function positiveInteger(env: TargetEnv, name: string, fallback: number, min: number): number {
  const raw = env.params[name];
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    throw new Error(
      `parameter ${name} must be an integer >= ${min} (got ${String(raw)}); pass e.g. --${name} ${fallback}`,
    );
  }
  return value;
}

/** Number of protected writes the job performs (param `steps`, default 3). */
export const steps = (env: TargetEnv): number => positiveInteger(env, 'steps', 3, 1);

/** Milliseconds of work after each write (param `stepMs`, default 20). */
export const stepMs = (env: TargetEnv): number => positiveInteger(env, 'stepMs', 20, 0);

/** The job's work between writes. */
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
