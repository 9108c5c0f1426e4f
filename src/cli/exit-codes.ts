/** Exit codes: 0 PASS (or the verdict --expect asked for), 1 FAIL, 2 usage error or ERROR, 3 INCONCLUSIVE; 130/143 interrupted (src/process/cleanup.ts). */
import type { Verdict } from '../core/judgement.ts';

export const EXIT = { PASS: 0, FAIL: 1, USAGE: 2, ERROR: 2, INCONCLUSIVE: 3 } as const;

export function exitCodeFor(verdict: Verdict, expect?: 'pass' | 'fail'): number {
  if (verdict === 'ERROR' || verdict === 'INTERRUPTED') return EXIT.ERROR;
  if (verdict === 'INCONCLUSIVE') return EXIT.INCONCLUSIVE;
  if (!expect) return verdict === 'PASS' ? EXIT.PASS : EXIT.FAIL;
  return verdict.toLowerCase() === expect ? EXIT.PASS : EXIT.FAIL;
}

/** With --expect, the line that says whether the verdict was the one asked for: "FAIL, as expected" / "expected PASS, got FAIL". */
export function expectationLine(verdict: Verdict, expect?: 'pass' | 'fail'): string {
  if (!expect) return '';
  const wanted = expect.toUpperCase();
  return verdict === wanted ? `${verdict}, as expected\n` : `expected ${wanted}, got ${verdict}\n`;
}
