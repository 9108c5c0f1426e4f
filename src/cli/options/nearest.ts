/** The known option nearest to a misspelt one, for "unknown option --taget (did you mean --target?)". */

/** ` (did you mean --x?)` when a known name is within two edits of `option`, else ''. */
export function didYouMean(option: string, known: readonly string[]): string {
  const nearest = known.map((k) => ({ k, d: editDistance(k, option) })).sort((x, y) => x.d - y.d)[0];
  return nearest && nearest.d <= 2 ? ` (did you mean ${nearest.k}?)` : '';
}

function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}
