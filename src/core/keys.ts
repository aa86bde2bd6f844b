/**
 * Unknown keys of a JSON object a reader accepts from a fixed list: the first key not on the
 * list, with the closest listed key as a "did you mean" hint (a misspelling such as "blok").
 */

/** Levenshtein distance of a and b (99 when their lengths differ by more than 3). */
export function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 3) return 99;
  const d = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = d[0]!;
    d[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const t = d[j]!;
      d[j] = Math.min(d[j]! + 1, d[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = t;
    }
  }
  return d[b.length]!;
}

/** The candidate closest to `k` (within a third of its length, at least 1 edit), if any. */
export function nearestName(k: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestD = 99;
  for (const c of candidates) {
    const d = editDistance(c, k);
    if (d <= Math.max(1, Math.floor(c.length / 3)) && d < bestD) [best, bestD] = [c, d];
  }
  return best;
}

/**
 * The message for the first key of `o` not in `allowed` (keys starting with "//" and
 * "description"/"comment" are always accepted), or undefined when every key is known.
 */
export function unknownKeyMessage(o: object, allowed: readonly string[]): string | undefined {
  for (const k of Object.keys(o)) {
    if (allowed.includes(k) || k.startsWith('//') || k === 'description' || k === 'comment') continue;
    const near = nearestName(k, allowed.filter((c) => !(c in o)));
    return `unknown key '${k}'${near ? ` (did you mean '${near}'?)` : ''}`;
  }
  return undefined;
}
