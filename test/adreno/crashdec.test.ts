import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { crashdec } from '../../src/adreno/crash/crashdec.js';

const TRACE = '../shared/adreno-captures/traces/crash.devcore';
const REF = '../shared/adreno-captures/reference/crash.log';
const have = existsSync(TRACE) && existsSync(REF);

/**
 * Matched reference lines per line of the reference, by longest common subsequence (diff's
 * alignment). Rows are computed in 16-bit slices of a band around the diagonal, which is enough
 * for two texts that follow each other (crashdec's output and ours have the same order).
 */
export function lcsMatches(ref: readonly string[], out: readonly string[]): boolean[] {
  // Exact LCS over hashed lines with Hunt-Szymanski (matches sparse: each line's occurrences).
  const pos = new Map<string, number[]>();
  out.forEach((l, j) => {
    const a = pos.get(l);
    if (a) a.push(j);
    else pos.set(l, [j]);
  });
  // thresh[k] = smallest out index ending a common subsequence of length k+1; links to rebuild.
  const thresh: number[] = [];
  const link: { i: number; j: number; prev: number }[] = [];
  const linkAt: number[] = [];
  for (let i = 0; i < ref.length; i++) {
    const js = pos.get(ref[i]!);
    if (!js) continue;
    for (let t = js.length - 1; t >= 0; t--) {
      const j = js[t]!;
      let lo = 0;
      let hi = thresh.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (thresh[mid]! < j) lo = mid + 1;
        else hi = mid;
      }
      if (lo === thresh.length || j < thresh[lo]!) {
        thresh[lo] = j;
        link.push({ i, j, prev: lo > 0 ? linkAt[lo - 1]! : -1 });
        linkAt[lo] = link.length - 1;
      }
    }
  }
  const hit = new Array<boolean>(ref.length).fill(false);
  let k = thresh.length ? linkAt[thresh.length - 1]! : -1;
  while (k >= 0) {
    hit[link[k]!.i] = true;
    k = link[k]!.prev;
  }
  return hit;
}

/** Section of each reference line: the last top-level section header above it. */
function sections(ref: readonly string[]): string[] {
  let cur = 'header';
  return ref.map((l) => {
    if (/^got rb_base=/.test(l)) cur = 'fault analysis';
    else if (/^(registers|registers-gmu|indexed-registers|shader-blocks|clusters|debugbus):/.test(l)) cur = l.slice(0, -1);
    return cur;
  });
}

/** Measured on crash.devcore (a630) and kept as a ratchet: raise when the output improves. */
const MIN_TOTAL = 0.811;
const MIN_SECTION: Record<string, number> = {
  header: 1,
  registers: 0.871,
  'fault analysis': 1,
  'registers-gmu': 0.833,
  'indexed-registers': 0.983,
  'shader-blocks': 0.989,
  clusters: 0.518,
  debugbus: 1,
};

test('crashdec -sf crash.devcore: the share of reference lines reproduced (total and per section)', { skip: !have && 'no ../shared/adreno-captures' }, () => {
  const ref = readFileSync(REF, 'utf8').replace(/\n$/, '').split('\n');
  const r = crashdec(readFileSync(TRACE, 'utf8'), { summary: true });
  assert.equal(r.error, undefined);
  const hit = lcsMatches(ref, r.lines);
  const sec = sections(ref);
  const per = new Map<string, [number, number]>();
  hit.forEach((h, i) => {
    const s = per.get(sec[i]!) ?? [0, 0];
    s[0] += h ? 1 : 0;
    s[1]++;
    per.set(sec[i]!, s);
  });
  const total = hit.filter(Boolean).length / ref.length;
  const report = `reproduced ${hit.filter(Boolean).length}/${ref.length} reference lines (${(100 * total).toFixed(1)}%), ${r.lines.length} lines out; ` + [...per].map(([k, [a, n]]) => `${k} ${a}/${n} (${((100 * a) / n).toFixed(1)}%)`).join(', ');
  assert.ok(total >= MIN_TOTAL, report);
  for (const [k, [a, n]] of per) assert.ok(a / n >= (MIN_SECTION[k] ?? 0), `${k} below its ratchet: ${report}`);
  console.log(report);
});
