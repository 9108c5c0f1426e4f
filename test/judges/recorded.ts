/**
 * Judge fixtures: real runs, recorded by scripts/record-judge-fixture.ts, kept under
 * test/fixtures/judges/<ORACLE>/<name>.json. Each holds what the oracle's play observed, the run's
 * history and effects, the parameters, and what the run concluded; `rejudge` gives them to the
 * oracle's pure judge again, with no store and no process.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decideVerdict, type Judgement, type Verdict } from '../../src/core/judgement.ts';
import type { HistoryEvent } from '../../src/core/history.ts';
import type { EffectRecord } from '../../src/core/resource.ts';
import type { ParamSpecs, ParamValues } from '../../src/core/params.ts';
import { judgeRun } from '../../src/oracle/definition.ts';
import type { EvidenceRecord } from '../../src/report/evidence.ts';
import { loadOracle } from '../../src/run/registry.ts';

export const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'judges');

export interface JudgeFixture {
  oracle: string;
  target: string;
  store: string | null;
  params: Record<string, string | number>;
  observations: unknown;
  history: HistoryEvent[];
  effects: EffectRecord[];
  /** What the real run concluded. */
  verdict: Verdict;
  preconditions: Array<{ name: string; held: boolean }>;
  propertyHeld: boolean | null;
  explanation: string;
}

export function fixtureOf(record: EvidenceRecord): JudgeFixture {
  return {
    oracle: record.oracle.id,
    target: record.target.path,
    store: record.store?.kind ?? null,
    params: record.params,
    observations: record.observations,
    history: record.history,
    effects: record.effects,
    verdict: record.verdict,
    preconditions: record.preconditions.map(({ name, held }) => ({ name, held })),
    propertyHeld: record.property?.held ?? null,
    explanation: record.explanation,
  };
}

/** Every fixture of `oracle` (or of every oracle), by name. */
export function fixtures(oracle?: string): Array<{ name: string; fixture: JudgeFixture }> {
  const oracles = oracle ? [oracle] : readdirSync(FIXTURES).sort();
  return oracles.flatMap((id) => {
    const dir = join(FIXTURES, id);
    return readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .sort()
      .map((f) => ({ name: `${id}/${f.replace(/\.json$/, '')}`, fixture: load(join(dir, f)) }));
  });
}

export function load(file: string): JudgeFixture {
  return JSON.parse(readFileSync(file, 'utf8')) as JudgeFixture;
}

/**
 * The oracle's judge on a fixture, optionally changed first (`change` edits a deep copy: the same
 * history with one fact different, to show the judge depends on it).
 */
export async function rejudge(
  fixture: JudgeFixture,
  change?: (copy: JudgeFixture) => void,
): Promise<{ verdict: Verdict; judgement: Judgement }> {
  const copy = structuredClone(fixture);
  change?.(copy);
  const oracle = await loadOracle(copy.oracle);
  const judgement = judgeRun(
    oracle,
    { observations: copy.observations, history: copy.history, effects: copy.effects },
    copy.params as ParamValues<ParamSpecs>,
  );
  return { verdict: decideVerdict(judgement), judgement };
}
