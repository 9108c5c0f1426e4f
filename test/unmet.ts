/** Why a run's evidence is INCONCLUSIVE: the preconditions it says did not hold. */
import type { Check } from '../src/core/judgement.ts';
import type { EvidenceRecord } from '../src/report/evidence.ts';

/** The preconditions that did not hold. */
export const unmetChecks = (record: EvidenceRecord): Check[] => record.preconditions.filter((c) => !c.held);

/** Their names. */
export const unmet = (record: EvidenceRecord): string[] => unmetChecks(record).map((c) => c.name);
