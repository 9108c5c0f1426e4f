/** Writes a run's evidence to <dir>/<runId>/: evidence.json, summary.md, timeline.svg. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EvidenceRecord, MultiRunRecord } from '../evidence.ts';
import { multiRunMarkdown, summaryMarkdown } from './summary-md.ts';
import { timelineSvg } from './timeline-svg.ts';

export function writeRunReport(record: EvidenceRecord, reportDir: string): string {
  const dir = join(reportDir, record.runId);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'evidence.json'), `${JSON.stringify(record, null, 2)}\n`);
  writeFileSync(join(dir, 'summary.md'), summaryMarkdown(record));
  writeFileSync(join(dir, 'timeline.svg'), timelineSvg(record));
  return dir;
}

export function writeMultiRunReport(record: MultiRunRecord, reportDir: string): string {
  const dirs = record.runs.map((run) => writeRunReport(run, reportDir));
  const dir = join(reportDir, `${record.runs[0]!.runId}-x${record.runs.length}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'evidence.json'), `${JSON.stringify(record, null, 2)}\n`);
  writeFileSync(join(dir, 'summary.md'), multiRunMarkdown(record, dirs));
  return dir;
}
