/**
 * The timeline picture a reviewer looks at first: one lane per holder, time left to right, one
 * panel per part of the run (a solo calibration run apart from the scenario). Bars: calls (thin)
 * and lock holds (thick); hatched: stopped by SIGSTOP; amber: held at a latch; a red cross:
 * SIGKILL; dots: writes at the resource (green accepted, red rejected) with their fencing token
 * written above; red rings: the events that show the violation; a red band: the interval the
 * violation spans (the oracle's own window, e.g. the overlap), its length written on it; a dashed
 * line: where a lease ran out. On a store of several members or nodes, a lane per member shows whose
 * lock it held between the harness's reads (./timeline-members.ts), its leader marked, a member
 * fault on its lane. Rejection reasons are listed under the lanes. The legend names only
 * what this run's picture contains. Every mark carries `data-ref` (h<i> history event, e<seq>
 * effect, f<id> fault) for timeline.html's hover details.
 */
import type { EvidenceRecord } from './evidence.ts';
import { memberSpans } from './timeline-members.ts';
import { timeScale } from './timeline-scale.ts';

const LANE = 46;
const LEFT = 70;
const WIDTH = 960;
const STORE_LANE = 'store';
/** A member's lane is named `member:<name>` (a holder may be called anything else). */
const MEMBER_LANE = 'member:';
/** Colours for whose lock a member holds: one per holder or owner, in the order first seen. */
const OWNER_COLOURS = ['#3a7bd5', '#e07b39', '#2a9d5c', '#9b59b6', '#c0392b', '#16a2b8'];

type Mark =
  | 'hold'
  | 'call'
  | 'pause'
  | 'latch'
  | 'wire'
  | 'clock'
  | 'fault'
  | 'kill'
  | 'shutdown'
  | 'release'
  | 'denied'
  | 'observed'
  | 'ok'
  | 'rejected'
  | 'fence'
  | 'offending'
  | 'overlap'
  | 'lease'
  | 'message'
  | 'member'
  | 'member-down'
  | 'leader'
  | 'panel';

const LEGEND: Record<Mark, string> = {
  hold: 'lock held',
  call: 'call running',
  pause: 'stopped (SIGSTOP)',
  latch: 'held at a latch',
  wire: 'wire fault',
  clock: 'clock step',
  fault: 'store fault',
  kill: 'SIGKILL',
  shutdown: 'graceful shutdown (SIGTERM or close) until its close returned',
  release: 'release',
  denied: 'acquire denied',
  observed: 'the harness read the store',
  ok: 'write accepted',
  rejected: 'write rejected',
  fence: 'fencing token',
  offending: 'shows the violation',
  overlap: 'violation interval',
  lease: 'lease ran out',
  message: 'a node-to-node message (its lane: the link)',
  member: "a member's copy of the lock, named by whose it is (between the harness's reads)",
  'member-down': 'a member paused, killed or not answering',
  leader: 'the member leading',
  panel: 'a part of the run that is not judged',
};

const SWATCH: Record<Mark, string> = {
  hold: '<rect x="0" y="-9" width="14" height="10" class="hold"/>',
  call: '<rect x="0" y="-6" width="14" height="5" class="call"/>',
  pause: '<rect x="0" y="-10" width="14" height="12" class="pause"/>',
  latch: '<rect x="0" y="-10" width="14" height="12" class="latch"/>',
  wire: '<rect x="0" y="-10" width="14" height="12" class="wire"/>',
  clock: '<rect x="0" y="-10" width="14" height="12" class="clock"/>',
  fault: '<rect x="0" y="-10" width="14" height="12" class="fault"/>',
  kill: '<path d="M2,-9 L12,1 M12,-9 L2,1" class="kill"/>',
  shutdown: '<rect x="0" y="-10" width="14" height="12" class="shutdown"/>',
  release: '<line x1="7" x2="7" y1="-11" y2="3" class="release"/>',
  denied: '<line x1="7" x2="7" y1="-8" y2="0" class="denied"/>',
  observed: '<path d="M7,-9 L11,-4 L7,1 L3,-4 Z" class="observed"/>',
  ok: '<circle cx="7" cy="-4" r="4" class="ok"/>',
  rejected: '<circle cx="7" cy="-4" r="4" class="rejected"/>',
  fence: '<text x="7" y="0" class="fence">7</text>',
  offending: '<circle cx="7" cy="-4" r="6" class="offending"/>',
  overlap: '<rect x="0" y="-10" width="14" height="12" class="overlap"/>',
  lease: '<line x1="7" x2="7" y1="-11" y2="3" class="lease"/>',
  message: '<path d="M3,-8 L11,-4 L3,0 Z" class="message"/>',
  member: '<rect x="0" y="-9" width="14" height="10" class="member" style="fill:#3a7bd5"/>',
  'member-down': '<rect x="0" y="-10" width="14" height="12" class="pause"/>',
  leader: '<line x1="0" x2="14" y1="-10" y2="-10" class="leader"/>',
  panel: '<rect x="0" y="-10" width="14" height="12" class="panel-bg solo"/>',
};

export function timelineSvg(record: EvidenceRecord): string {
  const holders = [...new Set(record.history.filter((e) => e.holder).map((e) => e.holder!))].sort();
  // What the harness itself read in the store gets a lane of its own.
  if (record.history.some((e) => e.kind === 'store-observed' && !e.holder)) holders.push(STORE_LANE);
  // A cluster's node-to-node links (--store cluster): a lane per direction, a mark per message.
  holders.push(...new Set(record.history.filter((e) => e.kind === 'link').map((e) => String(e.detail.link))));
  const { panels, x } = timeScale(record, LEFT, WIDTH - 20);
  const end = Math.max(...panels.map((p) => p.to));
  // A store of several members: a lane each, under the holders'.
  const members = memberSpans(record, end);
  holders.push(...members.lanes.map((m) => MEMBER_LANE + m));
  const rejected = record.effects.filter((e) => !e.accepted);
  // Lanes are drawn from y = 0 down and placed under the header (title, legend) at the end.
  const top = (panels.some((p) => p.text) ? 18 : 0) + 10;
  const y = (holder: string | undefined) => top + Math.max(0, holders.indexOf(holder ?? STORE_LANE)) * LANE;
  const lanesBottom = top + holders.length * LANE;
  const used = new Set<Mark>();
  const use = (mark: Mark, svg: string) => {
    used.add(mark);
    parts.push(svg);
  };
  const parts: string[] = [];

  for (const panel of panels) {
    if (panel.name === 'solo' || /not judged/.test(panel.text ?? ''))
      use(
        'panel',
        `<rect x="${panel.x0}" y="${top - 6}" width="${panel.x1 - panel.x0}" height="${lanesBottom - top + 6}" class="panel-bg solo"/>`,
      );
    if (panel.text)
      parts.push(
        `<text x="${panel.x0}" y="${top - 10}" class="panel">${esc(fit(panel.text, panel.x1 - panel.x0))}<title>${esc(panel.text)}</title></text>`,
      );
  }
  // A link's lane says how many messages crossed it.
  const onLink = new Map<string, number>();
  for (const e of record.history)
    if (e.kind === 'link' && !String(e.detail.fate).startsWith('forwarded late'))
      onLink.set(String(e.detail.link), (onLink.get(String(e.detail.link)) ?? 0) + 1);
  holders.forEach((h) => {
    const count = onLink.get(h);
    const [from, to] = h.split('→');
    const label = h.startsWith(MEMBER_LANE)
      ? `${esc(h.slice(MEMBER_LANE.length))}<title>what member ${esc(h.slice(MEMBER_LANE.length))} held, read by the harness</title>`
      : count === undefined
        ? esc(h)
        : `${esc(`${h} ×${count}`)}<title>${count} message(s) from ${esc(from!)} to ${esc(to!)}</title>`;
    parts.push(`<text x="10" y="${y(h) + 18}" class="lane">${label}</text>`);
    for (const panel of panels)
      parts.push(`<line x1="${panel.x0}" x2="${panel.x1}" y1="${y(h) + 14}" y2="${y(h) + 14}" class="axis"/>`);
  });

  // calls (thin bars)
  for (const start of record.history.filter((e) => e.kind === 'call-start')) {
    const stop = record.history.find(
      (e) =>
        e.i > start.i &&
        e.holder === start.holder &&
        (e.kind === 'call-end' || e.kind === 'call-error' || e.kind === 'holder-exit'),
    );
    const x1 = x(start.t);
    const x2 = x(stop?.t ?? end);
    use(
      'call',
      `<rect x="${x1}" y="${y(start.holder) + 11}" width="${Math.max(1, x2 - x1)}" height="6" class="call" data-ref="h${start.i}"><title>${esc(`${start.holder} ${String(start.detail.member)}() ${ms(start.t)}–${stop ? ms(stop.t) : 'end'} ms`)}</title></rect>`,
    );
  }
  // lock holds (thick bars): acquire-ok to its release / exit
  for (const got of record.history.filter((e) => e.kind === 'acquire-ok')) {
    const stop = record.history.find(
      (e) =>
        e.i > got.i &&
        e.holder === got.holder &&
        ((e.kind === 'release' && e.detail.leaseId === got.detail.leaseId) || e.kind === 'holder-exit'),
    );
    const x1 = x(got.t);
    const x2 = x(stop?.t ?? end);
    use(
      'hold',
      `<rect x="${x1}" y="${y(got.holder) + 6}" width="${Math.max(2, x2 - x1)}" height="16" class="hold" data-ref="h${got.i}"><title>${esc(`${got.holder} holds the lock ${ms(got.t)}–${stop ? ms(stop.t) : 'end'} ms`)}</title></rect>`,
    );
  }
  // what each member held between reads: whose lock (a colour per owner), or the member down
  const colours = new Map<string, string>();
  for (const span of members.spans) {
    const lane = y(MEMBER_LANE + span.member);
    const x1 = x(span.from);
    const x2 = x(span.to);
    const title = `${span.member} (${span.role}) ${ms(span.from)}–${ms(span.to)} ms: ${span.whose === null ? 'holds no lock' : `holds ${span.whose}'s lock`}`;
    if (span.role === 'leader')
      use('leader', `<line x1="${x1}" x2="${x2}" y1="${lane + 3}" y2="${lane + 3}" class="leader"/>`);
    if (/^(paused|killed|down|unreachable)$/.test(span.role)) {
      use(
        'member-down',
        `<rect x="${x1}" y="${lane + 6}" width="${Math.max(1, x2 - x1)}" height="16" class="pause" data-ref="h${span.read}"><title>${esc(title)}</title></rect>`,
      );
      continue;
    }
    if (span.whose === null) continue;
    if (!colours.has(span.whose)) colours.set(span.whose, OWNER_COLOURS[colours.size % OWNER_COLOURS.length]!);
    use(
      'member',
      `<rect x="${x1}" y="${lane + 6}" width="${Math.max(1, x2 - x1)}" height="16" class="member" style="fill:${colours.get(span.whose)}" data-ref="h${span.read}"><title>${esc(title)}</title></rect>`,
    );
    if (x2 - x1 > span.whose.length * 6 + 4)
      parts.push(`<text x="${x1 + 3}" y="${lane + 18}" class="member-label">${esc(span.whose)}</text>`);
  }
  // faults
  for (const fault of record.faults) {
    const x1 = x(fault.appliedAt);
    const x2 = x(fault.liftedAt ?? end);
    if (fault.kind === 'kill') {
      const cy = y(fault.holder) + 14;
      use(
        'kill',
        `<path d="M${x1 - 6},${cy - 6} L${x1 + 6},${cy + 6} M${x1 + 6},${cy - 6} L${x1 - 6},${cy + 6}" class="kill" data-ref="f${fault.id}"><title>${esc(`SIGKILL ${fault.holder} at ${ms(fault.appliedAt)} ms`)}</title></path>`,
      );
      continue;
    }
    const mark: Mark = fault.kind === 'store' ? 'fault' : fault.kind;
    // A fault on one member (paused, killed) is drawn on that member's lane.
    const onMember = typeof fault.detail.member === 'string' ? MEMBER_LANE + fault.detail.member : undefined;
    const lane = onMember !== undefined && holders.includes(onMember) ? onMember : fault.holder;
    use(
      mark,
      `<rect x="${x1}" y="${y(lane) + 2}" width="${Math.max(2, x2 - x1)}" height="24" class="${mark}" data-ref="f${fault.id}"><title>${esc(`${fault.holder ?? 'store'}: ${fault.action} ${ms(fault.appliedAt)}–${fault.liftedAt !== undefined ? ms(fault.liftedAt) : 'end'} ms`)}</title></rect>`,
    );
  }
  // the violation's interval, as the oracle judged it (e.g. B's first write to A's last accepted one)
  const window = record.verdict === 'FAIL' ? record.property?.window : undefined;
  if (window) {
    const x1 = x(window.from);
    const x2 = x(window.to);
    const label = `${ms(window.to - window.from)} ms`;
    use(
      'overlap',
      `<rect x="${x1}" y="${top - 4}" width="${Math.max(3, x2 - x1)}" height="${lanesBottom - top}" class="overlap"><title>${esc(`${window.what}: ${ms(window.from)}–${ms(window.to)} ms (${label})`)}</title></rect>`,
    );
    parts.push(`<text x="${(x1 + x2) / 2}" y="${lanesBottom + 10}" class="overlap-label">${esc(label)}</text>`);
  }
  // where a lease ran out (dashed)
  for (const note of record.history.filter((e) => e.kind === 'note' && typeof e.detail.leaseRanOut === 'number')) {
    const at = note.detail.leaseRanOut as number;
    const cx = x(at);
    const cy = y(note.holder);
    const latest = /^at the latest/.test(String(note.detail.how));
    use(
      'lease',
      `<line x1="${cx}" x2="${cx}" y1="${cy - 2}" y2="${cy + 30}" class="lease" data-ref="h${note.i}"><title>${esc(String(note.detail.text))}</title></line>`,
    );
    parts.push(
      `<text x="${cx + 3}" y="${cy + 3}" class="lease-label">${esc(`${note.holder}'s lease out${latest ? ' (at the latest)' : ''}`)}</text>`,
    );
  }
  // releases (black tick), denied acquires (grey tick), store observations (diamonds)
  for (const event of record.history) {
    const cx = x(event.t);
    const cy = y(event.holder) + 14;
    if (event.kind === 'release')
      use(
        'release',
        `<line x1="${cx}" x2="${cx}" y1="${cy - 12}" y2="${cy + 12}" class="release" data-ref="h${event.i}"><title>${esc(`${event.holder} release at ${ms(event.t)} ms`)}</title></line>`,
      );
    if (event.kind === 'acquire-denied')
      use(
        'denied',
        `<line x1="${cx}" x2="${cx}" y1="${cy - 5}" y2="${cy + 5}" class="denied" data-ref="h${event.i}"><title>${esc(`${event.holder} denied at ${ms(event.t)} ms`)}</title></line>`,
      );
    if (event.kind === 'link') {
      const ly = y(String(event.detail.link)) + 14;
      const fate = String(event.detail.fate);
      use(
        'message',
        `<path d="M${cx - 4},${ly - 4} L${cx + 4},${ly} L${cx - 4},${ly + 4} Z" class="message${fate === 'forwarded' ? '' : ' faulted'}" data-ref="h${event.i}"><title>${esc(`${String(event.detail.link)} #${String(event.detail.n)} ${String(event.detail.type || 'message')} at ${ms(event.t)} ms, ${fate}: ${String(event.detail.text ?? '')}`)}</title></path>`,
      );
    }
    if (event.kind === 'store-observed' && !event.holder) {
      use(
        'observed',
        `<path d="M${cx},${cy - 5} L${cx + 5},${cy} L${cx},${cy + 5} L${cx - 5},${cy} Z" class="observed" data-ref="h${event.i}"><title>${esc(`${String(event.detail.label)} at ${ms(event.t)} ms: ${JSON.stringify({ ...event.detail, label: undefined })}`)}</title></path>`,
      );
    }
  }
  // writes at the resource, each with its fencing token; rejected ones numbered for the list below
  for (const effect of record.effects) {
    const cx = x(effect.t);
    const cy = y(effect.holder) + 14;
    const number = rejected.indexOf(effect) + 1;
    use(
      effect.accepted ? 'ok' : 'rejected',
      `<circle cx="${cx}" cy="${cy}" r="4" class="${effect.accepted ? 'ok' : 'rejected'}" data-ref="e${effect.seq}"><title>${esc(effectText(effect))}</title></circle>`,
    );
    if (effect.fence !== undefined) use('fence', `<text x="${cx}" y="${cy - 7}" class="fence">${effect.fence}</text>`);
    if (!effect.accepted) parts.push(`<text x="${cx}" y="${cy + 15}" class="rejected-no">✕${number}</text>`);
  }
  for (const event of record.property?.offending ?? []) {
    const holder = 'holder' in event ? event.holder : undefined;
    use('offending', `<circle cx="${x(event.t)}" cy="${y(holder) + 14}" r="8" class="offending"/>`);
  }
  // axis ticks, per panel
  for (const [p, panel] of panels.entries()) {
    const count = Math.max(2, Math.round(((panel.x1 - panel.x0) / (WIDTH - LEFT)) * 10));
    // A panel's end is the next one's start: labelled once, by the next panel.
    for (let i = 0; i <= (p < panels.length - 1 ? count - 1 : count); i++) {
      const t = panel.from + ((panel.to - panel.from) * i) / count;
      parts.push(`<text x="${x(t)}" y="${lanesBottom + 24}" class="tick">${t.toFixed(0)}</text>`);
    }
  }
  let bottom = lanesBottom + 40;
  parts.push(
    `<text x="${WIDTH / 2}" y="${bottom}" class="tick">ms since the run began (harness monotonic clock)${panels.length > 1 ? '; each part on its own scale' : ''}</text>`,
  );
  // rejection reasons, readable without hovering
  for (const [k, effect] of rejected.entries()) {
    bottom += 15;
    parts.push(
      `<text x="10" y="${bottom}" class="reason" data-ref="e${effect.seq}">${esc(`✕${k + 1} ${effectText(effect)}`)}</text>`,
    );
  }

  const legend = legendRows([...used].sort((a, b) => Object.keys(LEGEND).indexOf(a) - Object.keys(LEGEND).indexOf(b)));
  const explored = record.exploration ? exploredLine(record) : undefined;
  const header = 38 + legend.length * 14 + (explored ? 14 : 0);
  const height = header + bottom + 16;
  const title = `${record.oracle.id} ${record.verdict} — ${record.target.path}`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="sans-serif">
<style>
.lane{font-size:14px;font-weight:bold}.axis{stroke:#bbb}.tick{font-size:10px;fill:#666;text-anchor:middle}.panel{font-size:10px;fill:#333;font-style:italic}
.panel-bg{fill:none}.solo{fill:#f2f2f2}
.call{fill:#9ab}.hold{fill:#3a7bd5;opacity:.75}.pause{fill:url(#hatch);stroke:#555}.latch{fill:#f5b942;opacity:.6}.shutdown{fill:#c06;opacity:.35}
.wire{fill:#b57edc;opacity:.5}.clock{fill:#5cc;opacity:.4}.fault{fill:#999;opacity:.5}.kill{stroke:#c00;stroke-width:3}
.message{fill:#678}.message.faulted{fill:#b57edc;stroke:#639;stroke-width:1.5}.ok{fill:#2a2}.rejected{fill:#c00}.offending{fill:none;stroke:#c00;stroke-width:2}.overlap{fill:#c00;opacity:.12}
.overlap-label{font-size:11px;fill:#c00;font-weight:bold;text-anchor:middle}.lease{stroke:#c60;stroke-width:2;stroke-dasharray:4 3}.lease-label{font-size:10px;fill:#c60}
.fence{font-size:9px;fill:#333;text-anchor:middle}.rejected-no{font-size:9px;fill:#c00;text-anchor:middle}.reason{font-size:11px;fill:#c00}
.member{opacity:.7}.member-label{font-size:10px;fill:#fff}.leader{stroke:#000;stroke-width:3}
.release{stroke:#000;stroke-width:2}.denied{stroke:#999}.observed{fill:#555}
.title{font-size:15px}.legend{font-size:11px;fill:#444}
</style>
<defs><pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="#eee"/><line x1="0" y1="0" x2="0" y2="6" stroke="#777" stroke-width="2"/></pattern></defs>
<rect width="100%" height="100%" fill="#fff"/>
<text x="10" y="20" class="title">${esc(title)}</text>
${explored ? `<text x="10" y="36" class="legend">${esc(explored)}</text>\n` : ''}${legend.map((row, i) => `<g transform="translate(10,${(explored ? 50 : 36) + i * 14})">${row}</g>`).join('\n')}
<g transform="translate(0,${header})">
${parts.join('\n')}
</g>
</svg>
`;
}

/** "#7 A write fence 3 at 1456.8 ms REJECTED: stale fencing token 3 < newest 4" */
export function effectText(effect: EvidenceRecord['effects'][number]): string {
  return `#${effect.seq} ${effect.holder} ${effect.name}${effect.fence !== undefined ? ` fence ${effect.fence}` : ''} at ${ms(effect.t)} ms${effect.accepted ? '' : ` REJECTED: ${effect.reason ?? 'no reason given'}`}`;
}

/** For an explored run: which point's run this picture shows. */
function exploredLine(record: EvidenceRecord): string {
  const x = record.exploration!;
  const point = x.points.find((p) => p.runId === record.runId);
  return point
    ? `explored: this picture is the run of point ${point.label} (${point.verdict}${x.minimal === point.label ? ', the minimal failing schedule' : ''}); ${x.points.length} point(s) were run`
    : `explored: ${x.points.length} point(s); this is the trace of A's part alone`;
}

/** Legend entries (swatch + words) for the marks drawn, in rows that fit the width. */
function legendRows(marks: Mark[]): string[] {
  const rows: string[] = [];
  let row: string[] = [];
  let at = 0;
  for (const mark of marks) {
    const width = 22 + LEGEND[mark].length * 5.6 + 14;
    if (at + width > WIDTH - 20 && row.length) {
      rows.push(row.join(''));
      row = [];
      at = 0;
    }
    row.push(
      `<g transform="translate(${Math.round(at)},0)" data-legend="${mark}">${SWATCH[mark]}<text x="20" y="0" class="legend">${esc(LEGEND[mark])}</text></g>`,
    );
    at += width;
  }
  if (row.length) rows.push(row.join(''));
  return rows;
}

/** `text` cut to what fits in `width` px at the panel label's size, the cut marked with "…". */
function fit(text: string, width: number): string {
  const chars = Math.floor(width / 5);
  return text.length <= chars ? text : `${text.slice(0, Math.max(1, chars - 1))}…`;
}

function ms(t: number): string {
  return (Math.round(t * 10) / 10).toString();
}

/** Text for SVG/HTML character data and attribute values. */
export function esc(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}
