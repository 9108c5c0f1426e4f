/** The exploration as a table: one row per point, its verdict and why (summary.md, the terminal, docs/explore.md). */
import type { ExplorationRecord } from '../oracle/explore-point.ts';
import { tallySentence } from '../oracle/fails-by-fault.ts';

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

const short = (text: string) => (text.length > 60 ? `${text.slice(0, 57)}...` : text);

export function explorationTable(x: ExplorationRecord): string[] {
  const others = x.points.some((p) => p.schedule);
  return [
    `| # | boundary | command | fault |${others ? ' other holders |' : ''} verdict | why | wall ms |`,
    `|---|---|---|---|${others ? '---|' : ''}---|---|---|`,
    ...x.points.map((p, i) => {
      const b = p.boundary;
      const at = `${b.part}#${b.index}${b.kind === 'command' ? '' : ` ${b.kind}`}`;
      const label =
        p.label === x.minimal ? `**${p.verdict}** (minimal)` : p.notApplicable ? 'not applicable' : p.verdict;
      const schedule = others
        ? ` ${Object.entries(p.schedule ?? {})
            .map(([k, v]) => `${k} ${v}`)
            .join(', ')} |`
        : '';
      return `| ${i + 1} | ${at} | \`${cell(short(p.command))}\` | ${p.fault} |${schedule} ${label} | ${cell(p.reason)} | ${Math.round(p.wallMs)} |`;
    }),
  ];
}

/** The section summary.md gains for an explored run. */
export function explorationMarkdown(x: ExplorationRecord): string[] {
  return [
    '## Exploration',
    '',
    `${x.points.length} point(s) run, ${x.jobs} at a time, in ${(x.wallMs / 1000).toFixed(1)} s (trace of A alone: ${Math.round(x.traceMs)} ms). ` +
      'The run below (preconditions, faults, timeline) is ' +
      (x.minimal ? `the minimal failing point's: ${x.minimal}.` : "the first point's."),
    '',
    ...explorationTable(x),
    '',
    ...(x.failsByFault ? [tallySentence(x.failsByFault), ''] : []),
    ...(x.skipped.length ? [`Skipped (--max-points): ${x.skipped.join('; ')}`, ''] : []),
    ...(x.notStarted?.length
      ? [`Not started once a point had failed (--first-fail): ${x.notStarted.join('; ')}`, '']
      : []),
    `A's whole run, as traced alone: ${x.trace.map((b) => `${b.part}#${b.index} \`${cell(b.text)}\``).join(', ') || 'nothing'}`,
    '',
  ];
}
