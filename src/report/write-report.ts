/** Writes a run's evidence to <dir>/<runId>/: evidence.json, summary.md, timeline.svg, timeline.html (each file atomically). */
import { join } from 'node:path';
import type { EvidenceRecord, MultiRunRecord } from './evidence.ts';
import { ensureDir, writeFileAtomic } from './safe-write.ts';
import { multiRunMarkdown, summaryMarkdown } from './summary-md.ts';
import { timelineSvg } from './timeline-svg.ts';
import { timelineHtml } from './timeline-html.ts';

export function writeRunReport(record: EvidenceRecord, reportDir: string): string {
  const dir = join(reportDir, record.runId);
  ensureDir(dir);
  writeFileAtomic(join(dir, 'summary.md'), summaryMarkdown(record));
  const svg = timelineSvg(record);
  writeFileAtomic(join(dir, 'timeline.svg'), svg);
  writeFileAtomic(join(dir, 'timeline.html'), timelineHtml(record, svg));
  // Last: a complete evidence.json is the mark of a complete report.
  writeFileAtomic(join(dir, 'evidence.json'), `${JSON.stringify(record, null, 2)}\n`);
  return dir;
}

/** The record over several runs; each run's own report is already written (`dirs`, in run order). */
export function writeMultiRunReport(record: MultiRunRecord, reportDir: string, dirs: string[]): string {
  const dir = join(reportDir, `${record.runs[0]!.runId}-x${record.runs.length}`);
  ensureDir(dir);
  writeFileAtomic(join(dir, 'summary.md'), multiRunMarkdown(record, dirs));
  writeFileAtomic(join(dir, 'evidence.json'), `${JSON.stringify(record, null, 2)}\n`);
  return dir;
}
