/** Progress lines for a human (stderr, so stdout stays clean for --json). */
import pc from 'picocolors';
import type { Verdict } from '../core/judgement.ts';

export function progressPrinter(enabled: boolean): (message: string) => void {
  const began = performance.now();
  return (message) => {
    if (!enabled) return;
    const t = ((performance.now() - began) / 1000).toFixed(3).padStart(7);
    process.stderr.write(`${pc.dim(`[${t}s]`)} ${message}\n`);
  };
}

export function colourVerdict(verdict: Verdict): string {
  switch (verdict) {
    case 'PASS':
      return pc.green(pc.bold(verdict));
    case 'FAIL':
      return pc.red(pc.bold(verdict));
    case 'INCONCLUSIVE':
      return pc.yellow(pc.bold(verdict));
    case 'ERROR':
      return pc.magenta(pc.bold(verdict));
    case 'INTERRUPTED':
      return pc.cyan(pc.bold(verdict));
  }
}
