/**
 * The evidence record: everything a reviewer needs to trust a verdict without re-running it.
 * Versioned; reports/README.md documents every field. Bump SCHEMA_VERSION on any breaking change.
 */
import type { HistoryEvent } from '../core/history.ts';
import type { Check, PropertyResult, Verdict } from '../core/judgement.ts';
import type { EffectRecord } from '../core/resource.ts';
import type { FaultRecord } from '../core/fault-log.ts';
import type { RuntimeName, StoreKind } from '../stores/types.ts';
import type { ExplorationRecord } from '../oracle/explore-point.ts';

export const SCHEMA_VERSION = 1;

export interface StoreEvidence {
  kind: StoreKind;
  version: string;
  runtime: RuntimeName;
  url: string;
  startMs: number;
  /** How the store was chosen: --store, the target's imports, or the oracle's default. */
  chosenBy?: string;
  backend?: { kind: StoreKind; version: string; url: string };
  /** Store clock offset in force at the end of the run, when the store's clock was controlled. */
  clock?: { mechanism: string; offsetMs: number };
  /** The second store the target declared for its fencing tokens (Target.fenceStore). */
  fence?: { kind: StoreKind; version: string; url: string };
  /** --topology: its name and every node (its role at the end of the run). */
  topology?: { name: string; nodes: Array<{ name: string; port: number; role: string }> };
}

export interface EvidenceRecord {
  schemaVersion: number;
  runId: string;
  startedAt: string;
  oracle: { id: string; title: string; class: string; scenario: string; property: string };
  target: { path: string; name: string; description?: string; members: string[] };
  params: Record<string, string | number>;
  store: StoreEvidence | null;
  faults: FaultRecord[];
  history: HistoryEvent[];
  effects: EffectRecord[];
  /** What the oracle's play observed, the input of its pure judge (oracles/Vnnn/judge.ts); absent for an oracle whose play judges. */
  observations?: unknown;
  counts: Record<string, number>;
  preconditions: Check[];
  property: PropertyResult | null;
  verdict: Verdict;
  explanation: string;
  /** An explored point whose fault cannot land where it was put, and why (Judgement.notApplicable). */
  notApplicable?: string;
  error?: string;
  /** holdersReadyMs: when the holders started first had loaded the target (an oracle's `later` holders load while it plays). */
  /**
   * `holdersStartedAheadMs`: a batch run (--runs, an exploration's point) whose holders were started this long before it began, from the warm pool, while the
   * runs before it played (src/run/run-ahead.ts); its history's times count from then.
   */
  timing: {
    wallMs: number;
    storeStartMs: number;
    holdersReadyMs: number;
    scenarioMs: number;
    holdersStartedAheadMs?: number;
  };
  environment: { node: string; platform: string; harness: string };
  /** Set when the run did not end by itself: its deadline passed (ERROR) or a signal stopped it (INTERRUPTED). */
  stoppedBy?: 'deadline' | 'signal';
  /** Batch runs (src/run/run-batch.ts): this run was played again alone after an INCONCLUSIVE among `jobs` parallel runs. */
  crowdedAttempt?: { verdict: Verdict; explanation: string; jobs: number };
  /** `--explore`: every point tried, its verdict and why; this record's run is the minimal failing point's (else the first point's). */
  exploration?: ExplorationRecord;
}

/** `--runs N`: one record per run and the verdict over all of them. */
export interface MultiRunRecord {
  schemaVersion: number;
  oracle: EvidenceRecord['oracle'];
  target: EvidenceRecord['target'];
  params: EvidenceRecord['params'];
  verdict: Verdict;
  explanation: string;
  /** Per run: its verdict and the counts its property was judged on. */
  violations: Array<{ run: number; verdict: Verdict; counts: Record<string, number> }>;
  runs: EvidenceRecord[];
}

/** FAIL beats INTERRUPTED beats ERROR beats INCONCLUSIVE beats PASS: one violation anywhere is a violation. */
export function combineVerdicts(verdicts: Verdict[]): Verdict {
  for (const verdict of ['FAIL', 'INTERRUPTED', 'ERROR', 'INCONCLUSIVE'] as const)
    if (verdicts.includes(verdict)) return verdict;
  return 'PASS';
}

export function combineRuns(runs: EvidenceRecord[]): MultiRunRecord {
  const first = runs[0]!;
  const verdict = combineVerdicts(runs.map((r) => r.verdict));
  const tally = (v: Verdict) => runs.filter((r) => r.verdict === v).length;
  return {
    schemaVersion: SCHEMA_VERSION,
    oracle: first.oracle,
    target: first.target,
    params: first.params,
    verdict,
    explanation:
      `${runs.length} runs: ${tally('FAIL')} FAIL, ${tally('PASS')} PASS, ${tally('INCONCLUSIVE')} INCONCLUSIVE, ${tally('ERROR')} ERROR` +
      `${tally('INTERRUPTED') ? `, ${tally('INTERRUPTED')} INTERRUPTED` : ''}. ` +
      (verdict === 'FAIL' ? `First violation: run ${runs.findIndex((r) => r.verdict === 'FAIL') + 1}. ` : '') +
      (runs.find((r) => r.verdict === verdict)?.explanation ?? ''),
    violations: runs.map((r, i) => ({ run: i + 1, verdict: r.verdict, counts: r.counts })),
    runs,
  };
}
