/**
 * The first stage: everything about a request that can be checked without starting a process —
 * the oracle, its parameters, the store kind (and that this machine can run it), the target file,
 * the run's deadline. Throws UsageError; nothing has started when it does.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { defaultDeadlineMs, resolveParams } from '../../core/params.ts';
import { ParamError, UsageError } from '../../core/errors.ts';
import { loadOracle } from '../registry.ts';
import { recipeFor } from '../../families/recipes.ts';
import { speaksRedis } from '../../stores/types.ts';
import { isMemberTopology, parseTopology } from '../../stores/topology.ts';
import { landedFaultRefusal } from '../../oracle/landed-fault.ts';
import { chooseStore, storeTargetMismatch, type StoreChoice } from '../store-choice.ts';
import type { RunRequest } from './run-request.ts';

export async function checkRequest(request: RunRequest) {
  const oracle = await loadOracle(request.oracle);
  let params: Record<string, string | number>;
  try {
    params = resolveParams(oracle.params, request.params ?? {});
  } catch (error) {
    if (error instanceof ParamError) throw new UsageError(`${oracle.id}: ${error.message}`);
    throw error;
  }
  const problems = oracle.validate?.(params as never) ?? [];
  if (problems.length) throw new UsageError(`${oracle.id}: ${problems.join('; ')}`);

  if (request.store !== undefined && !oracle.stores.includes(request.store)) {
    throw new UsageError(`${oracle.id} runs on ${oracle.stores.join(', ')}, not on --store ${request.store}`);
  }
  const targetPath = checkTarget(request.target);
  const choice: StoreChoice = request.store
    ? { kind: request.store, why: '--store' }
    : await chooseStore(oracle.id, oracle.stores, targetPath);
  const kind = choice.kind;
  // A store this machine cannot run is reported before any process starts.
  const topology = request.topology === undefined ? undefined : parseTopology(request.topology);
  if (isMemberTopology(topology) && topology.kind !== kind)
    throw new UsageError(
      `--topology ${request.topology} starts ${topology.kind} members: run ${oracle.id} with --store ${topology.kind}`,
    );
  if (topology && topology.kind !== 'single' && !isMemberTopology(topology) && !speaksRedis(kind))
    throw new UsageError(
      `--topology ${request.topology} starts Redis or Valkey nodes: run ${oracle.id} with --store redis or valkey`,
    );
  // A fault that lands itself only on some stores (an etcd lease, a ZooKeeper session) is refused here, not after B's solo run.
  const refusal = landedFaultRefusal(oracle, params, kind, topology?.kind ?? 'single');
  if (refusal) throw new UsageError(refusal);
  // A --store whose clients the target does not import is refused too (after the fault's, which names the store to use).
  const mismatch = request.store ? await storeTargetMismatch(oracle.id, oracle.stores, kind, targetPath) : undefined;
  if (mismatch) throw new UsageError(mismatch);
  const storeRequest = {
    ...(oracle.storeRequest?.(params as never, kind) ?? { kind }),
    ...(topology ? { topology } : {}),
  };
  if (request.runtime === undefined || request.runtime === 'local') {
    const unavailable = await recipeFor(storeRequest.kind).missing();
    if (unavailable) throw new UsageError(unavailable.message);
  }
  return { oracle, params, targetPath, storeRequest, storeChoice: choice };
}

/** The checked request, with what the later stages need of it: the target members the oracle calls, the deadline. */
export async function resolveRequest(request: RunRequest) {
  const checked = await checkRequest(request);
  const { oracle, params, targetPath } = checked;
  const { prepared } = request;
  if (prepared && prepared.targetPath !== targetPath)
    throw new Error(`holders prepared for ${prepared.targetPath} were given to a run of ${targetPath}`);
  const deadlineMs =
    request.deadlineMs ?? oracle.deadlineMs?.(params as never) ?? defaultDeadlineMs(oracle.params, params);
  return { ...checked, needs: oracle.needs(params as never), deadlineMs };
}

export type ResolvedRequest = Awaited<ReturnType<typeof resolveRequest>>;

function checkTarget(path: string): string {
  const absolute = resolve(path);
  try {
    if (!statSync(absolute).isFile()) throw new Error('not a file');
    accessSync(absolute, constants.R_OK);
  } catch {
    throw new UsageError(
      `--target: cannot read "${path}" (resolved to ${absolute}); give the path of a target module (see targets/contract.ts)`,
    );
  }
  return absolute;
}
