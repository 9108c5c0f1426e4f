/**
 * summary.md's table of the harness's own reads of the lock (`store-observed` in the history): at
 * each probe, what was there — on a file store the lock path's kind, value, PTTL, mtime and age by
 * the harness's clock; on Redis or Postgres its value and PTTL; on a topology, the key on each node too;
 * a record the app marks free, or a read that could not be judged, in words.
 */
import type { EvidenceRecord } from './evidence.ts';

const text = (value: unknown) => (value === undefined || value === null ? '—' : String(value));
const cell = (value: unknown) => text(value).replace(/\|/g, '\\|').replace(/\n/g, ' ');

interface NodeKey {
  node: string;
  role: string;
  exists: boolean;
  value: string | null;
  pttlMs: number;
}

/** A topology's nodes at one probe: "m1 3f2a… 1834 ms, m3 —, m4 down". */
function nodesCell(nodes: unknown): string {
  if (!Array.isArray(nodes)) return '—';
  return (nodes as NodeKey[])
    .map((n) =>
      n.role === 'down'
        ? `${n.node} down`
        : n.exists
          ? `${n.node} ${String(n.value).slice(0, 8)} ${n.pttlMs} ms`
          : `${n.node} —`,
    )
    .join(', ');
}

/** Whether the lock was there, with what the app's record said where it read free, or why the read could not be judged. */
function there(d: Record<string, unknown>): string {
  if (typeof d.unreadable === 'string') return `unreadable: ${d.unreadable}`;
  if (typeof d.free === 'string') return `no: ${d.free}`;
  return d.exists ? 'yes' : 'no';
}

export function probesMarkdown(record: EvidenceRecord): string[] {
  const probes = record.history.filter((e) => e.kind === 'store-observed' && 'exists' in e.detail);
  if (!probes.length) return [];
  const files = probes.some((e) => 'kind' in e.detail);
  const topology = probes.some((e) => 'nodes' in e.detail);
  return [
    '## The lock at each probe',
    '',
    `| ms | probe | where | there | ${files ? 'kind | ' : ''}value | PTTL ms${files ? ' | age ms (harness clock)' : ''}${topology ? ' | on each node (value, PTTL)' : ''} |`,
    `|---|---|---|---|${files ? '---|' : ''}---|---${files ? '|---' : ''}${topology ? '|---' : ''}|`,
    ...probes.map((e) => {
      const d = e.detail;
      const kind = files ? ` ${cell(d.kind)} |` : '';
      const age = files ? ` | ${cell(d.ageMs)}` : '';
      const nodes = topology ? ` | ${cell(nodesCell(d.nodes))}` : '';
      return `| ${e.t.toFixed(0)} | ${cell(d.label)} | ${cell(d.key)} | ${cell(there(d))} |${kind} ${cell(d.value)} | ${cell(d.pttlMs)}${age}${nodes} |`;
    }),
    '',
  ];
}
