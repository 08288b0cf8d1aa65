/**
 * "Did you mean": the one known word a misspelt word is closest to, when exactly one is close
 * enough that replacing it is obviously right — the only case a fix is offered in.
 */

/** Levenshtein distance, giving up early (returning a large number) past `limit`. */
export function editDistance(a: string, b: string, limit = 3): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, cost);
      best = Math.min(best, current[j]!);
    }
    if (best > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * The candidate nearest to `word` — within one edit for a short word, two for a longer one —
 * or null when none is that close or two are equally close.
 */
export function nearest(word: string, candidates: Iterable<string>): string | null {
  const limit = word.length <= 4 ? 1 : 2;
  let best: string | null = null;
  let bestDistance = limit + 1;
  let tied = false;
  for (const candidate of candidates) {
    if (candidate === word) continue;
    const distance = editDistance(word, candidate, limit);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
      tied = false;
    } else if (distance === bestDistance && candidate !== best) {
      tied = true;
    }
  }
  return tied ? null : best;
}
