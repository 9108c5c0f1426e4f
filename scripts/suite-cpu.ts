/**
 * Where the suite's CPU goes (issue 35 item 4): vitest's report has each file's wall but not its
 * CPU, so this runs the test files given one at a time (`npx vitest run <file>`, nothing else of the
 * suite beside it) and prints, per file, its wall, its CPU-s (user + sys of vitest and of every
 * process it waited for: holders, store servers, CLI runs, read from this process's children's times
 * in /proc/self/stat, as /usr/bin/time does), its tests passed / failed / skipped, vitest's exit code and the machine's
 * 1-minute load before and after. A file's wall moves with the load of a shared machine; its CPU-s
 * much less, so CPU-s is the figure to compare across runs. Linux only (/proc).
 * Usage: npx tsx scripts/suite-cpu.ts <test file>... (e.g. test/explored/explore-V310.test.ts test/hints.test.ts)
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Clock ticks a second, the unit of /proc/self/stat's times. */
const TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

/** CPU seconds of this process's waited-for children (and theirs): cutime + cstime. */
function childrenCpuS(): number {
  // The fields after the command name, which is in parentheses and may hold spaces.
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // cutime and cstime are fields 16 and 17 of the whole line, 14 and 15 after the name and state.
  return (Number(fields[13]) + Number(fields[14])) / TICKS;
}

const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ')[0]!;

interface Report {
  testResults: Array<{ assertionResults: Array<{ status: string }> }>;
}

const files = process.argv.slice(2);
if (!files.length)
  throw new Error('usage: npx tsx scripts/suite-cpu.ts <test file>... (each run alone, one after another)');
const scratch = mkdtempSync(join(tmpdir(), 'suite-cpu-'));
try {
  console.log('| file | tests (passed / failed / skipped) | exit | wall s | CPU-s | load before → after |');
  console.log('|---|---|---|---|---|---|');
  for (const [index, file] of files.entries()) {
    const report = join(scratch, `${index}.json`);
    const loadBefore = load();
    const cpuBefore = childrenCpuS();
    const began = performance.now();
    const run = spawnSync('npx', ['vitest', 'run', '--reporter=json', `--outputFile=${report}`, file], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const wallS = (performance.now() - began) / 1000;
    const cpuS = childrenCpuS() - cpuBefore;
    let counts = 'no report';
    try {
      const tests = (JSON.parse(readFileSync(report, 'utf8')) as Report).testResults.flatMap((f) => f.assertionResults);
      const passed = tests.filter((t) => t.status === 'passed').length;
      const failed = tests.filter((t) => t.status === 'failed').length;
      counts = `${passed} / ${failed} / ${tests.length - passed - failed}`;
    } catch {
      /* no report: the counts say so */
    }
    console.log(
      `| \`${file}\` | ${counts} | ${run.status ?? run.signal} | ${wallS.toFixed(1)} | ${cpuS.toFixed(1)} | ${loadBefore} → ${load()} |`,
    );
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
