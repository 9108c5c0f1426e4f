/**
 * timeline.html: the report that travels. One file, no external assets (opens offline, from a CI
 * artifact or an e-mail): the verdict and why, the timeline picture inline, and hover details the
 * SVG alone cannot carry (every field of the event under the pointer, and the events the picture
 * does not draw — wire commands, logs, notes — at that moment). Below: preconditions, the
 * property, every write with its fence and rejection reason, the faults and the whole history.
 */
import type { EvidenceRecord } from './evidence.ts';
import { effectText, esc } from './timeline-svg.ts';

export function timelineHtml(record: EvidenceRecord, svg: string): string {
  const effects = record.effects.map((e) => ({ ...e, text: effectText(e) }));
  const data = JSON.stringify({ history: record.history, effects, faults: record.faults }).replace(/</g, '\\u003c');
  const title = `${record.oracle.id} ${record.verdict} — ${record.target.path}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${esc(title)}</title>
<style>
body{font-family:sans-serif;margin:16px;color:#222;max-width:1000px}
h1{font-size:18px}h2{font-size:15px;margin-top:22px}
.verdict-FAIL{color:#c00}.verdict-PASS{color:#070}.verdict-INCONCLUSIVE,.verdict-ERROR,.verdict-INTERRUPTED{color:#a60}
table{border-collapse:collapse;font-size:12px}td,th{border:1px solid #ccc;padding:2px 6px;text-align:left;vertical-align:top}
tr.hit{background:#ffe9a8}.no{color:#c00;font-weight:bold}code,pre{font-size:11px}
#tip{position:fixed;display:none;max-width:520px;background:#fffff4;border:1px solid #999;padding:6px 8px;font-size:12px;box-shadow:2px 2px 6px #0003;pointer-events:none;white-space:pre-wrap}
[data-ref]{cursor:help}
</style>
</head>
<body>
<h1><span class="verdict-${record.verdict}">${record.verdict}</span> ${esc(record.oracle.id)}: ${esc(record.oracle.title)}</h1>
<p><b>Target:</b> <code>${esc(record.target.path)}</code> · <b>Store:</b> ${record.store ? esc(`${record.store.kind} ${record.store.version} (${record.store.runtime})`) : 'not started'} · <b>Parameters:</b> ${esc(
    Object.entries(record.params)
      .map(([k, v]) => `${k}=${v}`)
      .join(', '),
  )} · <b>Run:</b> ${esc(record.runId)}</p>
<p>${esc(record.explanation)}</p>
<p><small>Point at a mark for every detail the harness recorded about it and what else happened at that moment.</small></p>
${svg.replace(/^<\?xml[^>]*>\s*/, '')}
<div id="tip"></div>
<h2>Preconditions</h2>
<table><tr><th>held</th><th>precondition</th><th>observed</th></tr>
${record.preconditions.map((c) => `<tr><td${c.held ? '>yes' : ' class="no">no'}</td><td>${esc(c.name)}</td><td>${esc(c.detail)}</td></tr>`).join('\n')}
</table>
<h2>Property</h2>
<p>${record.property ? `${record.property.held ? 'Held' : '<b class="no">Violated</b>'}: ${esc(record.property.name)} — ${esc(record.property.detail)}${record.property.window ? ` <br>Interval: ${esc(record.property.window.what)}, ${record.property.window.from}–${record.property.window.to} ms (${round(record.property.window.to - record.property.window.from)} ms).` : ''}` : 'Not judged.'}</p>
<h2>Writes at the resource (arrival order)</h2>
<table><tr><th>#</th><th>ms</th><th>holder</th><th>write</th><th>fence</th><th>value</th><th>accepted</th></tr>
${record.effects.map((e) => `<tr id="e${e.seq}"><td>${e.seq}</td><td>${e.t}</td><td>${esc(e.holder)}</td><td>${esc(e.name)}</td><td>${e.fence ?? ''}</td><td>${esc(e.value === undefined ? '' : JSON.stringify(e.value))}</td><td${e.accepted ? '>yes' : ` class="no">no: ${esc(e.reason ?? '')}`}</td></tr>`).join('\n')}
</table>
<h2>Faults as applied</h2>
<table><tr><th>#</th><th>kind</th><th>holder</th><th>action</th><th>applied (ms)</th><th>lifted (ms)</th></tr>
${record.faults.map((f) => `<tr id="f${f.id}"><td>${f.id}</td><td>${f.kind}</td><td>${esc(f.holder ?? 'store')}</td><td>${esc(f.action)}</td><td>${f.appliedAt}</td><td>${f.liftedAt ?? '—'}</td></tr>`).join('\n')}
</table>
<details><summary><b>The whole history</b> (${record.history.length} events)</summary>
<table><tr><th>i</th><th>ms</th><th>holder</th><th>event</th><th>detail</th></tr>
${record.history.map((e) => `<tr id="h${e.i}"><td>${e.i}</td><td>${e.t}</td><td>${esc(e.holder ?? '')}</td><td>${e.kind}</td><td><code>${esc(JSON.stringify(e.detail))}</code></td></tr>`).join('\n')}
</table></details>
<script type="application/json" id="evidence">${data}</script>
<script>
(function () {
  var ev = JSON.parse(document.getElementById('evidence').textContent);
  var tip = document.getElementById('tip');
  var DRAWN = { 'call-start': 1, 'acquire-ok': 1, 'release': 1, 'acquire-denied': 1, 'store-observed': 1, 'effect-accepted': 1, 'effect-rejected': 1, 'holder-ready': 1 };
  function line(e) { return e.t + ' ms ' + (e.holder || '') + ' ' + e.kind + ' ' + JSON.stringify(e.detail); }
  function lookup(ref) {
    var id = Number(ref.slice(1));
    if (ref[0] === 'h') { var h = ev.history.find(function (e) { return e.i === id; }); return h && { t: h.t, body: line(h) }; }
    if (ref[0] === 'e') { var w = ev.effects.find(function (e) { return e.seq === id; }); return w && { t: w.t, body: w.text + '\\n' + JSON.stringify(w) }; }
    var f = ev.faults.find(function (x) { return x.id === id; });
    return f && { t: f.appliedAt, body: 'fault #' + f.id + ' ' + f.kind + ' on ' + (f.holder || 'store') + ': ' + f.action + '\\napplied ' + f.appliedAt + ' ms, lifted ' + (f.liftedAt === undefined ? 'never' : f.liftedAt + ' ms') + '\\n' + JSON.stringify(f.detail) };
  }
  function show(event, ref) {
    var found = lookup(ref);
    if (!found) return;
    var near = ev.history.filter(function (e) { return !DRAWN[e.kind] && Math.abs(e.t - found.t) <= 3; }).slice(0, 12);
    tip.textContent = found.body + (near.length ? '\\n\\nAlso at this moment (not drawn):\\n' + near.map(line).join('\\n') : '');
    tip.style.display = 'block';
    tip.style.left = Math.min(event.clientX + 14, window.innerWidth - 540) + 'px';
    tip.style.top = (event.clientY + 14) + 'px';
    var row = document.getElementById(ref);
    if (row) row.classList.add('hit');
  }
  document.querySelectorAll('svg [data-ref]').forEach(function (el) {
    var ref = el.getAttribute('data-ref');
    el.addEventListener('mousemove', function (event) { show(event, ref); });
    el.addEventListener('mouseleave', function () {
      tip.style.display = 'none';
      var row = document.getElementById(ref);
      if (row) row.classList.remove('hit');
    });
  });
})();
</script>
</body>
</html>
`;
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}
