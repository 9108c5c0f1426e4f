/**
 * The check test/explore-oracles.test.ts (in `npm test`) and test/explored/explore-V3xx.test.ts (in
 * `npm run test:explore`, one file per explorable oracle, so the suite can spread them over its
 * workers) run, each on its part of the oracle's explored references (test/explore-split.ts):
 * --explore finds the failing schedule with no variant, hold or seam parameter. Every bad reference of the oracle (exploreReferences: each bad target of its own
 * references, plus the explore-only ones) FAILs and names its minimal schedule; every good one safe
 * by construction PASSes with 0 failing points (a point whose run showed its fault cannot land
 * there is left out, named in the PASS), against real stores and real holders. Points run in
 * parallel (slots sized by the free CPU, shared by every reference of the file), each on its own scratch
 * store. A bad reference is explored with --first-fail: every point before the first failing one
 * still runs, so its minimal schedule is checked exactly; no point after it starts once it failed
 * (test/explore.test.ts checks a whole exploration, its other failing schedules listed).
 */
import { beforeAll, describe, expect, test, type RunnerTask } from 'vitest';
import { loadOracle } from '../src/run/registry.ts';
import { explore, type ExploreResult } from '../src/explore/explore.ts';
import { defaultJobs, sharedSlots, type Slots } from '../src/run/run-pool.ts';
import { cpuSlots } from '../src/run/cpu-slots.ts';
import { exploreReferences } from '../src/oracle/explore-spec.ts';
import type { ExploreFault } from '../src/oracle/explore-point.ts';
import { FAULT_ORDER, FAULT_WORDS } from '../src/faults/registry.ts';
import { esc, timelineSvg } from '../src/report/timeline-svg.ts';
import { exploredIn, type ExploredIn } from './explore-split.ts';

/** Explored points at once per core in the suite, at most. */
const SUITE_POINTS_PER_JOB = 8;

/** The slots every exploration of one test file shares (made by its first beforeAll). */
let fileSlots: Slots | undefined;

/**
 * `suite`: the part of the oracle's explored references this file explores (test/explore-split.ts).
 * `mustFailAt`: bad references explored whole (no --first-fail, so every fault kind runs) that must
 * FAIL at a point of the fault named, counted as such in the explanation and the evidence.
 */
export async function exploreReferencesOf(
  id: string,
  options: { suite: ExploredIn; mustFailAt?: Record<string, ExploreFault> },
): Promise<void> {
  const mustFailAt = options.mustFailAt ?? {};
  const oracle = await loadOracle(id);
  const all = exploreReferences(oracle);
  const suites = exploredIn(oracle, all);
  const references = all.filter((_r, index) => suites[index] === options.suite);
  const names = references.map(
    (r) =>
      `${r.expect === 'FAIL' ? 'bad' : 'good'} ${r.target} on ${r.store ?? oracle.stores[0]}${r.topology ? ` --topology ${r.topology}` : ''}`,
  );
  // Every reference of the file is explored at once under one set of slots: one exploration's trace or last point
  // leaves no slot idle while another has points waiting. At least a point per core, and more, up to
  // SUITE_POINTS_PER_JOB per core, while the machine's CPU has room (a
  // point mostly waits on its TTL or a held command; the CPU is measured machine-wide, so vitest's
  // other worker counts). A third of a single --explore's ceiling (MORE_POINTS_PER_JOB): two explored files
  // share the machine here, and 8 is what the suite was measured at (docs/benchmarks.md). Each test checks its own.
  // Only the references whose tests run are explored (`-t` picks some: the others cost nothing).
  let explored: Array<Promise<ExploreResult> | undefined> = [];
  beforeAll(({}, file) => {
    const slots = (fileSlots ??= cpuSlots(defaultJobs(), SUITE_POINTS_PER_JOB * defaultJobs()));
    const running = new Set(testsThatRun(file));
    explored = references.map((reference, index) =>
      !running.has(`${id} --explore ${names[index]!}`)
        ? undefined
        : explore({
            oracle: id,
            target: reference.target,
            ...(reference.store ? { store: reference.store } : {}),
            ...(reference.topology ? { topology: reference.topology } : {}),
            ...(reference.params ? { params: reference.params } : {}),
            // --first-fail keeps to a point per core, as on the command line: a point started beside
            // a failing one cannot be unstarted, and it would only spend CPU.
            ...(reference.expect === 'FAIL' && mustFailAt[reference.target] === undefined
              ? { firstFail: true, slots: within(sharedSlots(defaultJobs()), slots) }
              : { firstFail: false, slots }),
          }),
    );
    // Each is awaited by its own test; until then a rejection is not unhandled.
    for (const result of explored) result?.catch(() => undefined);
  });
  describe(`${id} --explore`, () => {
    test.each(references.map((r, index) => [names[index]!, r, index] as const))(
      '%s',
      async (_name, reference, index) => {
        const { record, schedule } = await explored[index]!;
        const x = record.exploration!;
        const why = `${record.explanation}\n${x.points.map((p) => `${p.label}: ${p.verdict} — ${p.reason}`).join('\n')}`;
        expect(record.verdict, why).toBe(reference.expect);
        expect(x.points.length, why).toBeGreaterThan(0);
        expect(x.skipped).toEqual([]);
        if (reference.expect === 'PASS') {
          // Every point PASSes, but one whose run showed its fault cannot land there (left out, saying why).
          expect(
            x.points.filter((p) => p.verdict !== 'PASS' && !p.notApplicable),
            why,
          ).toEqual([]);
          expect(x.notApplicable ?? 0).toBe(x.points.filter((p) => p.notApplicable).length);
          if (x.notApplicable)
            expect(record.explanation).toContain(`${x.notApplicable} point(s) were left out as not applicable`);
          expect(record.explanation).toMatch(/^No violation in \d+ schedules? \(/);
          expect(schedule).toBeUndefined();
        } else {
          expect(schedule?.verdict).toBe('FAIL');
          // Shrinking: the minimal schedule is the earliest failing boundary with the smallest fault,
          // A's points before a contender's (--contenders 3: B's takeover).
          const onA = (p: { holder?: string }) => (p.holder && p.holder !== 'A' ? 1 : 0);
          const ordered = [...x.points].sort(
            (p, q) =>
              onA(p) - onA(q) ||
              p.boundary.index - q.boundary.index ||
              FAULT_ORDER.indexOf(p.fault) - FAULT_ORDER.indexOf(q.fault),
          );
          expect(x.minimal, why).toBe(ordered.find((p) => p.verdict === 'FAIL')!.label);
          const fault = mustFailAt[reference.target];
          if (fault) {
            const tally = x.failsByFault?.find((t) => t.fault === fault);
            expect(tally?.failed.length, why).toBeGreaterThan(0);
            expect(tally!.failed).toEqual(
              x.points.filter((p) => p.fault === fault && p.verdict === 'FAIL').map((p) => p.label),
            );
            expect(record.explanation).toMatch(
              new RegExp(`Failing points by fault: .*\\b${fault} ${tally!.failed.length} of ${tally!.ran}\\b`),
            );
          }
          // --first-fail started nothing before the minimal point's place: each one not started comes after it.
          const minimal = x.points.find((p) => p.label === x.minimal)!;
          const after = (label: string) => {
            const contender = /^[B-H]'s /.exec(label);
            const bare = contender ? label.slice(contender[0].length) : label;
            // A boundary's place is its place in the trace (V310 on fs: A's renewal, then its release).
            const place = x.trace.findIndex((t) => bare.startsWith(`${t.part}#${t.index} `));
            const minimalPlace = x.trace.findIndex(
              (t) => t.part === minimal.boundary.part && t.index === minimal.boundary.index,
            );
            const fault = FAULT_ORDER.findIndex((f) => label.includes(`, ${FAULT_WORDS[f]}`));
            const order =
              (contender ? 1 : 0) - onA(minimal) || place - minimalPlace || fault - FAULT_ORDER.indexOf(minimal.fault);
            return order > 0 || (order === 0 && label !== minimal.label);
          };
          expect(
            (x.notStarted ?? []).filter((label) => !after(label)),
            why,
          ).toEqual([]);
          // The evidence is the minimal failing point's own run: its timeline shows that run.
          expect(record.property?.held).toBe(false);
          expect(record.runId).toBe(x.points.find((p) => p.label === x.minimal)!.runId);
          expect(timelineSvg(record)).toContain(
            `explored: this picture is the run of point ${esc(x.minimal!)} (FAIL, the minimal failing schedule)`,
          );
          expect(
            record.faults.some((f) => f.kind === 'wire' || f.kind === 'latch' || f.kind === 'clock'),
            why,
          ).toBe(true);
        }
      },
      300_000,
    );
  });
}

/** `shared`'s slots, at most `limit.size` of them taken at once through this one. */
function within(limit: Slots, shared: Slots): Slots {
  return Object.assign(<R>(work: () => Promise<R>) => limit(() => shared(work)), { size: limit.size });
}

/**
 * The full names ("V310 --explore bad … on redis": each describe's name, then the test's) of the tests
 * under `task` that will run (not skipped by `-t`, `.skip` or another's `.only`).
 */
function testsThatRun(task: RunnerTask, prefix = ''): string[] {
  if (task.type === 'test') return task.mode === 'skip' || task.mode === 'todo' ? [] : [prefix + task.name];
  const inner = task.type === 'suite' && task.file !== task ? `${prefix}${task.name} ` : prefix;
  return 'tasks' in task ? task.tasks.flatMap((child) => testsThatRun(child, inner)) : [];
}
