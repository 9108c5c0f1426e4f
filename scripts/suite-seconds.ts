/**
 * Where the suite's test-seconds go (issue 35 item 4): reads vitest's JSON report of a run
 * (`npx vitest run --reporter=json --outputFile=<file> [files]`) and prints, per test file and per
 * kind of test, the file's wall (vitest's start to end of the file), the sum of its tests' own
 * durations and how many tests passed, failed or were skipped. The kind of a file is told from its
 * path and its source:
 * - judge fixtures: test/judges/ (recorded observations judged in-process, no process started);
 * - reference matrix: test/reference-targets.test.ts (one real run per reference) and its Valkey
 *   twins, test/valkey/ (npm run test:valkey);
 * - explored suites: an explore-*.test.ts file (real explorations), test/explored/ among them
 *   (npm run test:explore);
 * - install and packaging: `npm pack` and installs (package.test.ts, tarball.test.ts);
 * - real processes: any other file whose source starts stores, holders or the CLI (PROCESSES);
 * - in-process only: the rest (units, docs and architecture checks).
 * Usage: npx tsx scripts/suite-seconds.ts <vitest-report.json>
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

/** What in a test file's source says it starts real processes. */
const PROCESSES =
  /\b(runOracle|runReferences|runSelfcheck|startStore|startLocalStore|exploreOracle|taggedCli|execa|spawn)\b|lock-oracles\.js/;

interface Report {
  testResults: Array<{
    name: string;
    startTime: number;
    endTime: number;
    assertionResults: Array<{ status: string; duration?: number | null }>;
  }>;
}

function kindOf(file: string): string {
  if (file.startsWith('test/judges/')) return 'judge fixtures';
  if (file === 'test/reference-targets.test.ts' || file.startsWith('test/valkey/')) return 'reference matrix';
  if (/(^|\/|-)explore[-.]/.test(file)) return 'explored suites';
  if (/^test\/(package|tarball)\.test\.ts$/.test(file)) return 'install and packaging';
  return PROCESSES.test(readFileSync(file, 'utf8')) ? 'real processes' : 'in-process only';
}

const path = process.argv[2];
if (!path) throw new Error('usage: npx tsx scripts/suite-seconds.ts <vitest-report.json> (vitest --reporter=json)');
const report = JSON.parse(readFileSync(path, 'utf8')) as Report;
const files = report.testResults.map((f) => {
  const tests = f.assertionResults;
  // A report written by another clone (CI's) names its own paths: read the file as this tree's test/….
  const file = relative(process.cwd(), f.name).replace(/^(\.\.\/)+.*?(?=test\/)/, '');
  return {
    file,
    kind: kindOf(file),
    wallS: (f.endTime - f.startTime) / 1000,
    testS: tests.reduce((sum, t) => sum + (t.duration ?? 0), 0) / 1000,
    passed: tests.filter((t) => t.status === 'passed').length,
    failed: tests.filter((t) => t.status === 'failed').length,
    skipped: tests.filter((t) => t.status !== 'passed' && t.status !== 'failed').length,
  };
});
const s = (x: number) => x.toFixed(1);

console.log('| kind | files | tests (passed / failed / skipped) | file walls s | test durations s | share of test s |');
console.log('|---|---|---|---|---|---|');
const total = files.reduce((sum, f) => sum + f.testS, 0);
const kinds = [...new Set(files.map((f) => f.kind))];
const byKind = kinds
  .map((kind) => {
    const of = files.filter((f) => f.kind === kind);
    const sum = (pick: (f: (typeof files)[number]) => number) => of.reduce((acc, f) => acc + pick(f), 0);
    return {
      kind,
      of,
      wall: sum((f) => f.wallS),
      test: sum((f) => f.testS),
      counts: [sum((f) => f.passed), sum((f) => f.failed), sum((f) => f.skipped)],
    };
  })
  .sort((a, b) => b.test - a.test);
for (const k of byKind)
  console.log(
    `| ${k.kind} | ${k.of.length} | ${k.counts.join(' / ')} | ${s(k.wall)} | ${s(k.test)} | ${((100 * k.test) / Math.max(total, 1e-9)).toFixed(0)} % |`,
  );
console.log(`| all | ${files.length} | | ${s(files.reduce((a, f) => a + f.wallS, 0))} | ${s(total)} | 100 % |`);
console.log();
console.log('| file | kind | tests (passed / failed / skipped) | file wall s | test durations s |');
console.log('|---|---|---|---|---|');
for (const f of [...files].sort((a, b) => b.testS - a.testS))
  console.log(
    `| \`${f.file}\` | ${f.kind} | ${f.passed} / ${f.failed} / ${f.skipped} | ${s(f.wallS)} | ${s(f.testS)} |`,
  );
