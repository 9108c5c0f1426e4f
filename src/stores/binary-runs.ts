/**
 * Whether a store's server binary runs on this machine (`<binary> --version` succeeds). A binary
 * found once is not asked again by this process: every run checks its store twice (before any
 * process starts, and as the store starts), and each spawn costs the harness tens of ms of CPU
 * (docs/benchmarks.md). A binary not found is asked again next time.
 */
import { execa } from 'execa';

const found = new Map<string, Promise<boolean>>();

export function binaryRuns(binary: string): Promise<boolean> {
  let answer = found.get(binary);
  if (!answer) {
    answer = execa(binary, ['--version']).then(
      () => true,
      () => false,
    );
    found.set(binary, answer);
    void answer.then((runs) => runs || found.delete(binary));
  }
  return answer;
}
