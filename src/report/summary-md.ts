/** summary.md: the verdict, why, and the numbers, readable without the history. */
import type { EvidenceRecord, MultiRunRecord } from './evidence.ts';
import { explorationMarkdown } from './explore-table.ts';
import { probesMarkdown } from './probes-md.ts';

export function summaryMarkdown(record: EvidenceRecord): string {
  const lines = [
    `# ${record.oracle.id} ${record.verdict}: ${record.oracle.title}`,
    '',
    `**Target:** \`${record.target.path}\`${record.target.description ? ` — ${record.target.description}` : ''}  `,
    `**Store:** ${record.store ? `${record.store.kind} ${record.store.version} (${record.store.runtime}${record.store.clock ? `, clock ${record.store.clock.mechanism} offset ${record.store.clock.offsetMs} ms` : ''})` : 'not started'}  `,
    ...(record.store?.reuse
      ? [`**Server:** ${record.store.reuse.reused ? 'reused' : 'its own'}: ${record.store.reuse.why}  `]
      : []),
    `**Parameters:** ${Object.entries(record.params)
      .map(([k, v]) => `${k}=${v}`)
      .join(', ')}  `,
    `**Run:** ${record.runId}, ${record.startedAt}, ${record.timing.wallMs} ms wall`,
    '',
    '## Explanation',
    '',
    record.explanation,
    '',
    `**Scenario:** ${record.oracle.scenario}  `,
    `**Property:** ${record.oracle.property}`,
    '',
    ...(record.exploration ? explorationMarkdown(record.exploration) : []),
    '## Preconditions',
    '',
    '| held | precondition | observed |',
    '|---|---|---|',
    ...record.preconditions.map((c) => `| ${c.held ? 'yes' : '**no**'} | ${c.name} | ${cell(c.detail)} |`),
    '',
    '## Property',
    '',
    record.property
      ? `${record.property.held ? 'Held' : '**Violated**'}: ${record.property.name} — ${record.property.detail}`
      : 'Not judged.',
    '',
    '## Counts',
    '',
    '| count | value |',
    '|---|---|',
    ...Object.entries(record.counts).map(([k, v]) => `| ${k} | ${v} |`),
    '',
    ...probesMarkdown(record),
    '## Faults as applied',
    '',
    '| # | kind | holder | action | applied (ms) | lifted (ms) |',
    '|---|---|---|---|---|---|',
    ...record.faults.map(
      (f) =>
        `| ${f.id} | ${f.kind} | ${f.holder ?? 'store'} | ${cell(f.action)} | ${f.appliedAt} | ${f.liftedAt ?? '—'} |`,
    ),
    '',
  ];
  if (record.property && record.property.offending.length) {
    lines.push(
      '## Offending events',
      '',
      '```json',
      ...record.property.offending.map((e) => JSON.stringify(e)),
      '```',
      '',
    );
  }
  if (record.error) lines.push('## Error', '', '```', record.error, '```', '');
  lines.push(
    'The full history is in `evidence.json`; the picture in `timeline.svg`, and with every detail on hover in `timeline.html` (one file, opens offline).',
    '',
  );
  return lines.join('\n');
}

export function multiRunMarkdown(record: MultiRunRecord, runDirs: string[]): string {
  return [
    `# ${record.oracle.id} ${record.verdict} over ${record.runs.length} runs: ${record.oracle.title}`,
    '',
    `**Target:** \`${record.target.path}\``,
    '',
    record.explanation,
    '',
    '| run | verdict | counts | evidence |',
    '|---|---|---|---|',
    ...record.violations.map(
      (v, i) => `| ${v.run} | ${v.verdict} | ${cell(JSON.stringify(v.counts))} | ${runDirs[i] ?? ''} |`,
    ),
    '',
  ].join('\n');
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}
