/**
 * What a CI job shows of a settled rows file: a Markdown table (the job summary) and JUnit XML
 * (one testcase per row × oracle: Confirmed = failure, Unconfirmed = skipped with the reason).
 */
import { firstLine } from '../core/judgement.ts';
import { rowOracles, type OracleResult, type RowsFile, type RowStatus } from './rows.ts';

export function countStatuses(file: RowsFile): Record<RowStatus, number> & { unsettled: number } {
  const counts = { Confirmed: 0, Refuted: 0, Unconfirmed: 0, unsettled: 0 };
  for (const row of file.rows) counts[row.status ?? 'unsettled']++;
  return counts;
}

export function settleMarkdown(file: RowsFile): string {
  const counts = countStatuses(file);
  const lines = [
    `### lock-oracles settle: ${counts.Confirmed} Confirmed, ${counts.Refuted} Refuted, ${counts.Unconfirmed} Unconfirmed` +
      (counts.unsettled ? `, ${counts.unsettled} not settled` : ''),
    '',
    '| row | location | oracle | status | what was seen | evidence |',
    '|---|---|---|---|---|---|',
  ];
  for (const row of file.rows) {
    const seen =
      row.status === 'Confirmed'
        ? row.summary
        : row.status === 'Unconfirmed'
          ? `${row.reason ?? ''} — next: ${row.next ?? ''}`
          : row.status === 'Refuted'
            ? refutedLine(row.results ?? [])
            : 'not settled by this run';
    lines.push(
      `| ${cell(row.id)} | ${cell(String(row.location ?? ''))} | ${cell(rowOracles(row).join(', '))} | ${row.status ? `**${row.status}**${row.strength ? ` (${row.strength})` : ''}` : '—'} | ${cell(seen ?? '')} | ${row.evidence ? `\`${cell(row.evidence)}\`` : ''} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}

function refutedLine(results: NonNullable<RowsFile['rows'][number]['results']>): string {
  return results.map((r) => `${r.oracle} PASS, ${triedWords(r)}: ${firstLine(r.explanation)}`).join(' | ');
}

/** "explored 12 points" / "one schedule ×3 runs (exploring may find more)". */
function triedWords(result: OracleResult): string {
  if (result.tried && result.tried !== 'one schedule') return result.tried;
  return `one schedule${result.runs > 1 ? ` ×${result.runs} runs` : ''} (exploring may find more)`;
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

/** JUnit XML in the shape Jenkins, GitHub and GitLab read: testsuites > testsuite > testcase. */
export function settleJunit(file: RowsFile, suiteName = 'lock-oracles settle'): string {
  const cases: string[] = [];
  let failures = 0;
  let skipped = 0;
  let time = 0;
  for (const row of file.rows) {
    for (const result of row.results ?? []) {
      const seconds = result.wallMs / 1000;
      time += seconds;
      const attrs = `classname="${xml(`${result.oracle}`)}" name="${xml(`${row.id}${row.location ? ` ${String(row.location)}` : ''}`)}" time="${seconds.toFixed(3)}"`;
      const body = `${result.explanation}${result.evidence ? `\nEvidence: ${result.evidence}` : ''}`;
      if (result.verdict === 'FAIL') {
        failures++;
        cases.push(
          `    <testcase ${attrs}>\n      <failure message="${xml(`Confirmed: ${result.offending ?? firstLine(result.explanation)}`)}" type="FAIL">${xml(body)}</failure>\n    </testcase>`,
        );
      } else if (result.verdict === 'PASS') {
        // A passed case says how much was tried: one schedule is weaker than an exploration.
        cases.push(
          `    <testcase ${attrs}>\n      <system-out>${xml(`Refuted, ${triedWords(result)}. ${body}`)}</system-out>\n    </testcase>`,
        );
      } else {
        skipped++;
        cases.push(
          `    <testcase ${attrs}>\n      <skipped message="${xml(`Unconfirmed (${result.verdict}): ${firstLine(result.explanation)}`)}"/>\n      <system-out>${xml(body)}</system-out>\n    </testcase>`,
        );
      }
    }
  }
  const tests = cases.length;
  const counts = `tests="${tests}" failures="${failures}" errors="0" skipped="${skipped}" time="${time.toFixed(3)}"`;
  const timestamp =
    typeof (file.settle as { at?: unknown } | undefined)?.at === 'string'
      ? (file.settle as { at: string }).at.replace(/\.\d+Z$/, '')
      : new Date().toISOString().replace(/\.\d+Z$/, '');
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xml(suiteName)}" ${counts}>`,
    `  <testsuite name="${xml(suiteName)}" ${counts} timestamp="${timestamp}" hostname="localhost">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

function xml(text: string): string {
  // Characters XML 1.0 cannot carry at all are dropped (colour codes, NULs).
  // eslint-disable-next-line no-control-regex
  return text
    .replace(/[\x00-\x08\x0b\x0c\x0e-\x1f]/g, '')
    .replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}
