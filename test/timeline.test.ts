/**
 * The report that travels, on real V313 runs: the overlap band spans the real overlap of the
 * contending run (computed here from the evidence's events, not by the drawing code), A's lease
 * end is marked, the solo counting run is a panel of its own, the legend names only what is drawn,
 * fence values and rejection reasons are in the static picture, timeline.html is self-contained
 * and its hover shows an event's details; --expect says whether the verdict was the one asked for.
 */
import { describe, expect, test } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { taggedCli } from './tagged-cli.ts';
import type { EvidenceRecord } from '../src/report/evidence.ts';

const { cli, leftovers } = taggedCli({ timeout: 60_000 });

async function run(target: string, expectation: 'pass' | 'fail') {
  const dir = mkdtempSync(join(tmpdir(), 'timeline-'));
  const result = await cli(['V313', '--target', target, '--report-dir', dir, '--expect', expectation]);
  const [runDir] = readdirSync(dir);
  const file = (name: string) => readFileSync(join(dir, runDir!, name), 'utf8');
  return {
    result,
    record: JSON.parse(file('evidence.json')) as EvidenceRecord,
    svg: file('timeline.svg'),
    html: file('timeline.html'),
  };
}

/** cx of the dot drawn for resource write #seq. */
function dotX(svg: string, seq: number): number {
  const match = new RegExp(`<circle cx="([\\d.]+)" cy="[\\d.]+" r="4" class="(?:ok|rejected)" data-ref="e${seq}"`).exec(
    svg,
  );
  expect(match, `the dot of write #${seq}`).not.toBeNull();
  return Number(match![1]);
}

describe('timeline', () => {
  test('V313 on a bad reference: the band is the contending run\'s overlap, the lease end is marked, the solo run apart; --expect fail says "as expected"', async () => {
    const { result, record, svg, html } = await run('targets/redis/ioredis/lease-no-renewal.ts', 'fail');
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toMatch(/\nFAIL, as expected$/);
    expect(record.verdict).toBe('FAIL');

    // The overlap from the events alone: B's first write after A's first (the solo run's writes come
    // before A ever runs) to A's last accepted write.
    const writes = record.history.filter((e) => e.kind === 'effect-accepted');
    const aFirst = writes.find((e) => e.holder === 'A')!;
    const bSoloFirst = writes.find((e) => e.holder === 'B')!;
    const bFirst = writes.find((e) => e.holder === 'B' && e.i > aFirst.i)!;
    const aLast = writes.filter((e) => e.holder === 'A').at(-1)!;
    const at = (event: (typeof writes)[number]) => record.effects.find((e) => e.seq === event.detail.seq)!;
    const overlap = at(aLast).t - at(bFirst).t;
    expect(overlap).toBeGreaterThan(0);
    // The old band started at the solo run's first write: far longer than the overlap.
    expect(at(aLast).t - at(bSoloFirst).t).toBeGreaterThan(overlap * 2);
    expect(record.counts.overlapMs).toBeCloseTo(overlap, 2);

    const band = /<rect x="([\d.]+)" y="[\d.]+" width="([\d.]+)" height="[\d.]+" class="overlap">/.exec(svg);
    expect(band).not.toBeNull();
    const [bandFrom, bandTo] = [Number(band![1]), Number(band![1]) + Number(band![2])];
    expect(bandFrom).toBeCloseTo(dotX(svg, at(bFirst).seq), 0);
    expect(bandTo).toBeCloseTo(dotX(svg, at(aLast).seq), 0);
    expect(svg).toContain(`class="overlap-label">${(Math.round(overlap * 10) / 10).toString()} ms</text>`);

    // A's lease end: read from the store while A was stopped; it ran out before B could write.
    const lease = record.history.find(
      (e) => e.kind === 'note' && e.holder === 'A' && typeof e.detail.leaseRanOut === 'number',
    )!;
    const stopped = record.faults.find((f) => f.kind === 'pause' && f.holder === 'A')!;
    expect(lease.detail.leaseRanOut).toBeGreaterThan(stopped.appliedAt);
    expect(lease.detail.leaseRanOut).toBeLessThanOrEqual(at(bFirst).t);
    expect(svg).toMatch(
      new RegExp(`<line x1="[\\d.]+" x2="[\\d.]+" y1="[\\d.-]+" y2="[\\d.]+" class="lease" data-ref="h${lease.i}">`),
    );
    expect(svg).toContain("A's lease out</text>");

    // The solo counting run is a shaded panel of its own, left of the contending run.
    // (the last such rect: the legend's swatch comes first)
    const solo = [
      ...svg.matchAll(/<rect x="([\d.]+)" y="[\d.-]+" width="([\d.]+)" height="[\d.]+" class="panel-bg solo"\/>/g),
    ].at(-1);
    expect(solo).toBeDefined();
    const soloEnd = Number(solo![1]) + Number(solo![2]);
    for (const write of writes.filter((e) => e.i < aFirst.i))
      expect(dotX(svg, at(write).seq)).toBeLessThanOrEqual(soloEnd);
    for (const write of writes.filter((e) => e.i >= aFirst.i))
      expect(dotX(svg, at(write).seq)).toBeGreaterThan(soloEnd);
    expect(svg).toContain('B alone, counting writes (not judged)');

    // The legend names what this run's picture holds, and nothing else.
    expect([...svg.matchAll(/data-legend="([a-z]+)"/g)].map((m) => m[1])).toEqual([
      'call',
      'pause',
      'latch',
      'observed',
      'ok',
      'offending',
      'overlap',
      'lease',
      'panel',
    ]);

    // timeline.html: the same picture, no external asset, and a hover that shows the write's details.
    expect(html).toContain(svg.trim().split('\n')[0]!);
    expect(html).not.toMatch(/\s(src|href)=|@import|url\(\s*['"]?https?:/i);
    expect(html).toMatch(new RegExp(`<tr id="e${at(aLast).seq}"><td>${at(aLast).seq}</td>`));
    const tip = hover(html, `e${at(aLast).seq}`);
    expect(tip).toContain(`#${at(aLast).seq} A write at `);
    expect(tip).toContain('"accepted":true');
    expect(leftovers()).toEqual([]);
  });

  test('V313 on a fenced reference: fence values and rejection reasons in the static picture, no band on a PASS; --expect fail says what it got', async () => {
    const { result, record, svg } = await run('targets/redis/ioredis/lease-fenced.ts', 'fail');
    expect(record.verdict).toBe('PASS');
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/\nexpected FAIL, got PASS$/);
    const rejected = record.effects.filter((e) => !e.accepted);
    expect(rejected.length).toBeGreaterThan(0);
    for (const [k, effect] of rejected.entries()) {
      expect(svg).toContain(`>✕${k + 1} #${effect.seq} A write fence ${effect.fence} at `);
      expect(svg).toContain(`REJECTED: ${effect.reason!.replace(/</g, '&lt;')}</text>`);
    }
    for (const effect of record.effects)
      expect(svg).toMatch(
        new RegExp(`<text x="${dotX(svg, effect.seq)}" y="[\\d.]+" class="fence">${effect.fence}</text>`),
      );
    expect(svg).not.toContain('class="overlap"');
    expect([...svg.matchAll(/data-legend="([a-z]+)"/g)].map((m) => m[1])).toContain('fence');
    expect(leftovers()).toEqual([]);
  });
});

/** Runs timeline.html's own script on a stand-in DOM and points at the mark `ref`: the tooltip's text. */
function hover(html: string, ref: string): string {
  const data = /<script type="application\/json" id="evidence">([\s\S]*?)<\/script>/.exec(html)![1]!;
  const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1]!;
  const tip = { textContent: '', style: {} as Record<string, string> };
  const listeners = new Map<string, (event: unknown) => void>();
  const mark = {
    getAttribute: () => ref,
    addEventListener: (name: string, listener: (event: unknown) => void) => listeners.set(name, listener),
  };
  const document = {
    getElementById: (id: string) =>
      id === 'evidence' ? { textContent: data } : id === 'tip' ? tip : { classList: { add() {}, remove() {} } },
    querySelectorAll: () => [mark],
  };
  runInNewContext(script, { document, window: { innerWidth: 1200 }, JSON, Math, Number });
  listeners.get('mousemove')!({ clientX: 10, clientY: 10 });
  expect(tip.style.display).toBe('block');
  return tip.textContent;
}
