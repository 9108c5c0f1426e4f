/** What a run concludes. INTERRUPTED: a signal stopped it before anything was judged. */
export type Verdict = 'PASS' | 'FAIL' | 'INCONCLUSIVE' | 'ERROR' | 'INTERRUPTED';
