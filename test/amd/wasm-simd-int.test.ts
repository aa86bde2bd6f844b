// The integer SIMD lowering (src/amd/engine/wasm/simd-int.ts) against JavaScript itself: seeded
// random statements of the description subset (jsub.ts: sums, differences, bit and shift
// operators, compares, ?:, &&, ||, Math.imul/min/max, mulhiU32, popcnt, const and let, if/else)
// over per-lane sources and a uniform one, lowered four lanes at a time into a small module and
// run on random lanes; each lane's `r` (as its exact value: the pair's high and low dwords) and
// `c` (its truth) must be what the same text computes as JavaScript. Statements outside the subset
// (doubles that may not be integers) must throw SubsetError, and most must be taken.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FuncBuilder, encodeModule, SIMD, I32, V128 } from '../../src/amd/engine/wasm/encoder.js';
import { IntVecLowerer, type VName } from '../../src/amd/engine/wasm/simd-int.js';
import { parseStatements, SubsetError } from '../../src/amd/engine/wasm/jsub.js';
import { mulhiU32, popcnt } from '../../src/amd/exec/salu.js';
import { mulberry32 } from '../../src/runtime/manifest.js';
import { Wasm } from '../../src/amd/engine/wasm/api.js';

type Rng = () => number;
const pick = <T>(r: Rng, a: readonly T[]): T => a[Math.floor(r() * a.length)]!;

const LITS = ['0', '1', '2', '7', '31', '32', '0xffffffff', '0x80000000', '0x7fffffff', '0xffff'];

function expr(r: Rng, depth: number, names: readonly string[]): string {
  if (depth <= 0 || r() < 0.2) return r() < 0.7 ? pick(r, names) : pick(r, LITS);
  const e = () => expr(r, depth - 1, names);
  switch (Math.floor(r() * 12)) {
    case 0: return `~${e()}`;
    case 1: return `!${e()}`;
    case 2: return `(-${e()})`;
    case 3: return `(${e()} | 0)`;
    case 4: return `(${e()} ? ${e()} : ${e()})`;
    case 5: return `Math.imul(${e()}, ${e()})`;
    case 6: return `mulhiU32(${e()} >>> 0, ${e()} >>> 0)`;
    case 7: return `popcnt(${e()} >>> 0)`;
    case 8: {
      // Both int32 or both uint32 (else lower.ts takes them as doubles, which this lowering refuses).
      const k = pick(r, [' | 0', ' >>> 0']);
      return `Math.${pick(r, ['min', 'max'])}(${e()}${k}, ${e()}${k})`;
    }
    // (=== and !== of numbers: a boolean is never strictly equal to a number in JavaScript, where
    // lower.ts compares the descriptions' booleans as 0 and 1; the descriptions never mix them.)
    case 9: return r() < 0.5 ? `(${e()} ${pick(r, ['<', '>', '<=', '>='])} ${e()})` : `((${e()}${pick(r, [' | 0', ' >>> 0'])}) ${pick(r, ['===', '!=='])} (${e()}${pick(r, [' | 0', ' >>> 0'])}))`;
    // (&& and || of booleans only, as the descriptions use them: lower.ts takes them as booleans.)
    case 10: return `((${e()} ${pick(r, ['<', '>='])} ${e()}) ${pick(r, ['&&', '||'])} !${e()})`;
    default: return `(${e()} ${pick(r, ['+', '-', '+', '-', '&', '|', '^', '<<', '>>', '>>>'])} ${e()})`;
  }
}

function statements(r: Rng): string {
  const names = ['S0u', 'S1u', 'S2u', 'S3u'];
  const e = (n: readonly string[] = names) => expr(r, 3, n);
  switch (Math.floor(r() * 5)) {
    case 0: return `r = ${e()}; c = ${e()};`;
    case 1: return `{ const t = ${e()}, u = ${e()}; r = ${e([...names, 't', 'u'])}; c = ${e([...names, 't'])}; }`;
    case 2: return `if (${e()}) { r = ${e()}; } else { const t = ${e()}; r = ${e([...names, 't'])}; c = ${e()}; }`;
    case 3: return `let o = 0; if (${e()}) o = ${pick(r, ['1', '2', '4', '-1'])}; else if (${e()}) o = ${pick(r, LITS)}; r = ${e([...names, 'o'])}; c = (o & ${pick(r, ['1', '3', '5'])}) !== 0;`;
    default: return `{ const t = S3u & 63; if (t === 0) { r = S0u; } else if (t < 32) { r = ${e([...names, 't'])}; } else { r = ${e([...names, 't'])}; } c = ${e()}; }`;
  }
}

const LANE_VALUES = [0, 1, 2, 31, 32, 63, 0x7fffffff, 0x80000000, 0xffffffff, 0xfffffffe, 0x12345678, 0xdeadbeef];
const laneValue = (r: Rng) => (r() < 0.5 ? pick(r, LANE_VALUES) : Math.floor(r() * 2 ** 32));

/** Memory: three source rows of four lanes at 0, 16, 32; r's low dwords at 64, high at 80, c at 96. */
function lowered(text: string, rPair = true): ((rows: readonly number[][], uni: number) => { lo: number[]; hi: number[]; c: number[] }) | null {
  const fb = new FuncBuilder(1);
  const names = new Map<string, VName>();
  const zero = fb.local(V128);
  fb.v128i32([0, 0, 0, 0]).set(zero);
  for (let k = 0; k < 3; k++) {
    const v = fb.local(V128);
    fb.i32(0).simdMem(SIMD.v128_load, 4, 16 * k).set(v);
    names.set(`S${k}u`, { vec: true, kind: 'u', lo: v, hi: -1, sk: 'u' });
  }
  names.set('S3u', { vec: false, v: { local: 0, kind: 'u' }, integral: true });
  const lo = fb.local(V128), hi = fb.local(V128), c = fb.local(V128);
  // r as an exact pair, or (as valu.ts declares a result the statements never read) its low dword.
  names.set('r', rPair ? { vec: true, kind: 'l', lo, hi, sk: 'l' } : { vec: true, kind: 's', lo, hi: -1, sk: 'l' });
  names.set('c', { vec: true, kind: 'm', lo: c, hi: -1, sk: 'b' });
  // Uniform values computed once before the lanes' code (as valu.ts places them before its loop).
  const pre = fb.child(), body = fb.child();
  try {
    new IntVecLowerer(body, pre, names, zero).stmts(parseStatements(text));
  } catch (e) {
    if (e instanceof SubsetError) return null;
    throw e;
  }
  fb.append(pre).append(body);
  fb.i32(0).get(lo).simdMem(SIMD.v128_store, 4, 64);
  fb.i32(0).get(hi).simdMem(SIMD.v128_store, 4, 80);
  fb.i32(0).get(c).simdMem(SIMD.v128_store, 4, 96);
  const mem = new Wasm.Memory({ initial: 1 });
  const bytes = encodeModule({ memory: { module: 'm', name: 'mem', minPages: 1 }, funcs: [{ type: { params: [I32], results: [] }, body: fb, export: 'run' }] });
  const run = new Wasm.Instance(new Wasm.Module(bytes), { m: { mem } }).exports['run'] as (u: number) => void;
  const u32 = new Uint32Array(mem.buffer);
  const i32 = new Int32Array(mem.buffer);
  return (rows, uni) => {
    rows.forEach((row, k) => row.forEach((x, j) => (u32[4 * k + j] = x)));
    run(uni | 0);
    return { lo: [...u32.subarray(16, 20)], hi: [...i32.subarray(20, 24)], c: [...u32.subarray(24, 28)] };
  };
}

test('integer SIMD lowering: random statements equal JavaScript lane by lane', () => {
  const r = mulberry32(4242);
  let taken = 0, refused = 0;
  for (let n = 0; n < 600; n++) {
    const text = statements(r);
    const ref = new Function('S0u', 'S1u', 'S2u', 'S3u', 'mulhiU32', 'popcnt', `let r = 0, c = false; ${text} return [r, c];`) as
      (a: number, b: number, c: number, d: number, m: typeof mulhiU32, p: typeof popcnt) => [number, unknown];
    const f = lowered(text);
    const g = lowered(text, false);
    assert.equal(g === null, f === null, text);
    if (f === null || g === null) {
      refused++;
      continue;
    }
    taken++;
    for (let t = 0; t < 4; t++) {
      const rows = [0, 1, 2].map(() => Array.from({ length: 4 }, () => laneValue(r)));
      const uni = laneValue(r);
      const got = f(rows, uni);
      const low: number[] = g(rows, uni).lo;
      for (let j = 0; j < 4; j++) {
        const [x0, cv] = ref(rows[0]![j]!, rows[1]![j]!, rows[2]![j]!, uni, mulhiU32, popcnt);
        const where = `lane ${j} of [${rows.map((q) => q[j]).join(', ')}], S3u ${uni}:\n${text}`;
        // r is an integer below 2^53 here (a boolean as its number, -0 as 0): the pair is its exact value.
        const x = Number(x0) + 0;
        assert.ok(Number.isSafeInteger(x), `JavaScript's r is ${x}: ${where}`);
        assert.equal(got.hi[j]! * 2 ** 32 + got.lo[j]!, x, `r, ${where}`);
        assert.equal(got.c[j], cv ? 0xffffffff : 0, `c, ${where}`);
        assert.equal(low[j], x >>> 0, `r's low dword alone, ${where}`);
      }
    }
  }
  assert.ok(taken > 450, `statements lowered: ${taken} (refused ${refused})`);
});

test('integer SIMD lowering: doubles that may not be integers are refused', () => {
  for (const text of ['r = S0u * S1u;', 'r = S0u / 2;', 'r = Math.trunc(S0u);', 'let o = 0; o = S0u * 2; r = o;', 'r = 0.5 + S0u;', 'c = S0u * 3 > S1u;']) {
    assert.equal(lowered(text), null, text);
  }
  // The same shapes over integers are taken.
  for (const text of ['r = S0u + S1u;', 'let o = 0; if (S0u > S1u) o = 4; c = (o & 5) !== 0;', 'r = -S0u;', 'c = S0u - S1u < 0;']) {
    assert.notEqual(lowered(text), null, text);
  }
});
