/**
 * `selfcheck --stress`: CPU contention the harness makes itself, one busy process per core for the
 * whole selfcheck (real processes competing with the holders and stores for the cores, as a
 * crowded CI machine does), and the load average it produced.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { onCleanup } from '../process/cleanup.ts';
import { dieWithHarness } from '../process/die-with-harness.ts';

export interface Stress {
  pids: ReadonlySet<number>;
  stop(): Promise<void>;
}

export function startStress(workers = availableParallelism()): Stress {
  const children: ChildProcess[] = [];
  for (let i = 0; i < workers; i++) {
    const [command, args] = dieWithHarness(process.execPath, ['-e', 'for (;;) {}']);
    children.push(spawn(command, args, { stdio: 'ignore' }));
  }
  const stop = async () => {
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGKILL');
          }),
      ),
    );
  };
  const forget = onCleanup('busy processes of selfcheck --stress', stop, () =>
    children.forEach((c) => c.kill('SIGKILL')),
  );
  return {
    pids: new Set(children.map((c) => c.pid!).filter(Boolean)),
    stop: forget,
  };
}

/** The 1-minute load average, sampled every few seconds while the selfcheck runs. */
export function sampleLoad(everyMs = 5000): { stop(): { max: number; mean: number } } {
  const samples = [loadavg()[0]!];
  const timer = setInterval(() => samples.push(loadavg()[0]!), everyMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      samples.push(loadavg()[0]!);
      const round = (n: number) => Math.round(n * 10) / 10;
      return { max: round(Math.max(...samples)), mean: round(samples.reduce((a, b) => a + b, 0) / samples.length) };
    },
  };
}
