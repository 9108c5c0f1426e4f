/** The exploration as a table: one row per point, its verdict and why (summary.md, the terminal, the README). */
import type { ExplorationRecord } from './types.ts';

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function explorationTable(x: ExplorationRecord): string[] {
  return [
    '| # | boundary | command | fault | verdict | why | wall ms |',
    '|---|---|---|---|---|---|---|',
    ...x.points.map((p, i) => {
      const b = p.boundary;
      const at = `${b.part}#${b.index}${b.kind === 'command' ? '' : ` ${b.kind}`}`;
      const label = p.label === x.minimal ? `**${p.verdict}** (minimal)` : p.verdict;
      return `| ${i + 1} | ${at} | \`${cell(p.command)}\` | ${p.fault} | ${label} | ${cell(p.reason)} | ${Math.round(p.wallMs)} |`;
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
    ...(x.skipped.length ? [`Skipped (--max-points): ${x.skipped.join('; ')}`, ''] : []),
    `A's whole run, as traced alone: ${x.trace.map((b) => `${b.part}#${b.index} \`${cell(b.text)}\``).join(', ') || 'nothing'}`,
    '',
  ];
}
