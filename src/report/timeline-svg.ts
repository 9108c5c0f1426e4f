/**
 * The timeline picture a reviewer looks at first: one lane per holder, time left to right.
 * Bars: calls (thin) and lock holds (thick); hatched: stopped by SIGSTOP; amber: held at a
 * latch; a red cross: SIGKILL; dots: effects at the resource (green accepted, red rejected);
 * red rings: the events that show the violation; a red band: the overlap.
 */
import type { EvidenceRecord } from '../evidence.ts';

const LANE = 46;
const LEFT = 70;
const WIDTH = 960;
const TOP = 66;
const STORE_LANE = 'store';

export function timelineSvg(record: EvidenceRecord): string {
  const holders = [...new Set(record.history.filter((e) => e.holder).map((e) => e.holder!))].sort();
  // What the harness itself read in the store gets a lane of its own.
  if (record.history.some((e) => e.kind === 'store-observed' && !e.holder)) holders.push(STORE_LANE);
  // The picture starts where the scenario does (holder processes loading the target come first).
  const scenarioEvents = record.history.filter((e) => e.kind !== 'holder-ready');
  const start = Math.max(0, Math.min(...scenarioEvents.map((e) => e.t), ...record.faults.map((f) => f.appliedAt)) - 10);
  const end = Math.max(start + 1, ...record.history.map((e) => e.t));
  const x = (t: number) => LEFT + ((Math.max(t, start) - start) / (end - start)) * (WIDTH - LEFT - 20);
  const y = (holder: string | undefined) => TOP + Math.max(0, holders.indexOf(holder ?? STORE_LANE)) * LANE;
  const height = TOP + holders.length * LANE + 50;
  const parts: string[] = [];

  holders.forEach((h) => {
    parts.push(`<text x="10" y="${y(h) + 18}" class="lane">${esc(h)}</text>`);
    parts.push(`<line x1="${LEFT}" x2="${WIDTH - 20}" y1="${y(h) + 14}" y2="${y(h) + 14}" class="axis"/>`);
  });

  // calls (thin bars)
  for (const start of record.history.filter((e) => e.kind === 'call-start')) {
    const stop = record.history.find((e) => e.i > start.i && e.holder === start.holder && (e.kind === 'call-end' || e.kind === 'call-error' || e.kind === 'holder-exit'));
    const x1 = x(start.t);
    const x2 = x(stop?.t ?? end);
    parts.push(`<rect x="${x1}" y="${y(start.holder) + 11}" width="${Math.max(1, x2 - x1)}" height="6" class="call"><title>${esc(`${start.holder} ${String(start.detail.member)}() ${start.t}–${stop?.t ?? 'end'} ms`)}</title></rect>`);
  }
  // lock holds (thick bars): acquire-ok to its release / exit
  for (const got of record.history.filter((e) => e.kind === 'acquire-ok')) {
    const stop = record.history.find(
      (e) => e.i > got.i && e.holder === got.holder && ((e.kind === 'release' && e.detail.leaseId === got.detail.leaseId) || e.kind === 'holder-exit'),
    );
    const x1 = x(got.t);
    const x2 = x(stop?.t ?? end);
    parts.push(`<rect x="${x1}" y="${y(got.holder) + 6}" width="${Math.max(2, x2 - x1)}" height="16" class="hold"><title>${esc(`${got.holder} holds the lock ${got.t}–${stop?.t ?? 'end'} ms`)}</title></rect>`);
  }
  // faults
  for (const fault of record.faults) {
    const x1 = x(fault.appliedAt);
    const x2 = x(fault.liftedAt ?? end);
    const cls = fault.kind === 'pause' ? 'pause' : fault.kind === 'latch' ? 'latch' : fault.kind === 'wire' ? 'wire' : fault.kind === 'clock' ? 'clock' : 'fault';
    if (fault.kind === 'kill') {
      const cy = y(fault.holder) + 14;
      parts.push(`<path d="M${x1 - 6},${cy - 6} L${x1 + 6},${cy + 6} M${x1 + 6},${cy - 6} L${x1 - 6},${cy + 6}" class="kill"><title>${esc(`SIGKILL ${fault.holder} at ${fault.appliedAt} ms`)}</title></path>`);
      continue;
    }
    parts.push(`<rect x="${x1}" y="${y(fault.holder) + 2}" width="${Math.max(2, x2 - x1)}" height="24" class="${cls}"><title>${esc(`${fault.holder ?? 'store'}: ${fault.action} ${fault.appliedAt}–${fault.liftedAt ?? 'end'} ms`)}</title></rect>`);
  }
  // overlap band: from the first offending event's predecessor at the resource to the last offending
  const offending = record.property?.offending ?? [];
  const offendingTimes = offending.map((e) => e.t);
  if (offendingTimes.length && record.verdict === 'FAIL') {
    const firstOther = record.effects.find((e) => 'seq' in (offending[0] ?? {}) && e.seq < (offending[0] as { seq: number }).seq && e.holder !== (offending[0] as { holder: string }).holder);
    const from = Math.min(firstOther?.t ?? Math.min(...offendingTimes), ...offendingTimes);
    const to = Math.max(...offendingTimes);
    parts.push(`<rect x="${x(from)}" y="${TOP - 8}" width="${Math.max(3, x(to) - x(from))}" height="${holders.length * LANE + 4}" class="overlap"><title>violation ${from}–${to} ms</title></rect>`);
  }
  // releases (black tick), denied acquires (grey tick), store observations (diamonds)
  for (const event of record.history) {
    const cx = x(event.t);
    const cy = y(event.holder) + 14;
    if (event.kind === 'release') parts.push(`<line x1="${cx}" x2="${cx}" y1="${cy - 12}" y2="${cy + 12}" class="release"><title>${esc(`${event.holder} release at ${event.t} ms`)}</title></line>`);
    if (event.kind === 'acquire-denied') parts.push(`<line x1="${cx}" x2="${cx}" y1="${cy - 5}" y2="${cy + 5}" class="denied"><title>${esc(`${event.holder} denied at ${event.t} ms`)}</title></line>`);
    if (event.kind === 'store-observed' && !event.holder) {
      parts.push(`<path d="M${cx},${cy - 5} L${cx + 5},${cy} L${cx},${cy + 5} L${cx - 5},${cy} Z" class="observed"><title>${esc(`${String(event.detail.label)} at ${event.t} ms: ${JSON.stringify({ ...event.detail, label: undefined })}`)}</title></path>`);
    }
  }
  // effects
  for (const effect of record.effects) {
    const cx = x(effect.t);
    const cy = y(effect.holder) + 14;
    parts.push(`<circle cx="${cx}" cy="${cy}" r="4" class="${effect.accepted ? 'ok' : 'rejected'}"><title>${esc(`#${effect.seq} ${effect.holder} ${effect.name}${effect.fence !== undefined ? ` fence ${effect.fence}` : ''} at ${effect.t} ms${effect.accepted ? '' : ` REJECTED: ${effect.reason}`}`)}</title></circle>`);
  }
  for (const event of offending) {
    const holder = 'holder' in event ? event.holder : undefined;
    parts.push(`<circle cx="${x(event.t)}" cy="${y(holder) + 14}" r="8" class="offending"/>`);
  }
  // axis ticks
  for (let i = 0; i <= 10; i++) {
    const t = start + ((end - start) * i) / 10;
    parts.push(`<text x="${x(t)}" y="${height - 24}" class="tick">${t.toFixed(0)}</text>`);
  }
  parts.push(`<text x="${WIDTH / 2}" y="${height - 8}" class="tick">ms since the run began (harness monotonic clock)</text>`);

  const title = `${record.oracle.id} ${record.verdict} — ${record.target.path}`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="sans-serif">
<style>
.lane{font-size:14px;font-weight:bold}.axis{stroke:#bbb}.tick{font-size:10px;fill:#666;text-anchor:middle}
.call{fill:#9ab}.hold{fill:#3a7bd5;opacity:.75}.pause{fill:url(#hatch);stroke:#555}.latch{fill:#f5b942;opacity:.6}
.wire{fill:#b57edc;opacity:.5}.clock{fill:#5cc;opacity:.4}.fault{fill:#999;opacity:.5}.kill{stroke:#c00;stroke-width:3}
.ok{fill:#2a2}.rejected{fill:#c00}.offending{fill:none;stroke:#c00;stroke-width:2}.overlap{fill:#c00;opacity:.12}
.release{stroke:#000;stroke-width:2}.denied{stroke:#999}.observed{fill:#555}
.title{font-size:15px}.legend{font-size:11px;fill:#444}
</style>
<defs><pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="#eee"/><line x1="0" y1="0" x2="0" y2="6" stroke="#777" stroke-width="2"/></pattern></defs>
<rect width="100%" height="100%" fill="#fff"/>
<text x="10" y="20" class="title">${esc(title)}</text>
<text x="10" y="36" class="legend">blue: lock held · grey-blue: call running · hatched: stopped (SIGSTOP) · amber: held at a latch · purple: wire fault · cyan: clock step · X: SIGKILL · black tick: release</text>
<text x="10" y="50" class="legend">grey tick: acquire denied · dots: writes at the resource (green accepted, red rejected by fence) · diamonds: the harness read the store · red rings/band: the violation</text>
${parts.join('\n')}
</svg>
`;
}

function esc(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}
