/**
 * VALU compares on a single wave: every v_cmp/v_cmpx of the GFX11 tables (f16/f32/f64,
 * i16/u16/i32/u32/i64/u64, class), e32 to VCC, e64 to an SGPR, cmpx to EXEC only, wave64 masks,
 * inactive lanes writing 0, EXEC == 0 still writing the mask, denormal flush on float inputs;
 * plus the coverage check of the VALU opcode tables.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runAsm } from './exec-harness.js';
import '../../src/amd/engine/bind.js';
import { implemented, baseMnemonic } from '../../src/amd/engine/registry.js';
import { VOP1_OPS } from '../../src/amd/isa/gfx11/vop1.gen.js';
import { VOP2_OPS } from '../../src/amd/isa/gfx11/vop2.gen.js';
import { VOPC_OPS } from '../../src/amd/isa/gfx11/vopc.gen.js';
import { VOP3_OPS } from '../../src/amd/isa/gfx11/vop3.gen.js';

const b2f = (b: number) => new Float32Array(new Uint32Array([b]).buffer)[0]!;
const f64w = (x: number) => { const u = new Uint32Array(new Float64Array([x]).buffer); return [u[0]!, u[1]!] as const; };
const h2f = (b: number) => {
  const s = b & 0x8000 ? -1 : 1, e = (b >> 10) & 31, m = b & 1023;
  return e === 0 ? s * m * 2 ** -24 : e === 31 ? (m ? NaN : s * Infinity) : s * (1 + m / 1024) * 2 ** (e - 15);
};

// Float inputs: pairs exercising <, =, >, NaN on either side, signed zeros, infinities.
const FA = [1, 2, 2, NaN, 0, -0, Infinity, -1, 3, NaN, -Infinity, 5, 0.5, -2, 7, 1];
const FB = [2, 1, 2, 1, 0, 0, Infinity, -1, NaN, NaN, 1, -5, 0.25, -2, 8, 1];
const FREL: [string, (a: number, b: number) => boolean][] = [
  ['f', () => false], ['lt', (a, b) => a < b], ['eq', (a, b) => a === b], ['le', (a, b) => a <= b], ['gt', (a, b) => a > b],
  ['lg', (a, b) => a < b || a > b], ['ge', (a, b) => a >= b], ['o', (a, b) => !Number.isNaN(a) && !Number.isNaN(b)],
  ['u', (a, b) => Number.isNaN(a) || Number.isNaN(b)], ['nge', (a, b) => !(a >= b)], ['nlg', (a, b) => !(a < b || a > b)],
  ['ngt', (a, b) => !(a > b)], ['nle', (a, b) => !(a <= b)], ['neq', (a, b) => !(a === b)], ['nlt', (a, b) => !(a < b)], ['t', () => true],
];
const h16 = (x: number) => (Number.isNaN(x) ? 0x7e00 : x === Infinity ? 0x7c00 : x === -Infinity ? 0xfc00 : Object.is(x, -0) ? 0x8000 : f16exact(x));
function f16exact(x: number): number {
  if (x === 0) return 0;
  const s = x < 0 ? 0x8000 : 0;
  const a = Math.abs(x);
  const e = Math.floor(Math.log2(a));
  return s | ((e + 15) << 10) | Math.round((a / 2 ** e - 1) * 1024);
}
const maskOf = (f: (l: number) => boolean, n: number, exec = 0xffffffff) => {
  let m = 0;
  for (let l = 0; l < n; l++) if ((exec >>> l) & 1 && f(l)) m |= 1 << l;
  return m >>> 0;
};

for (const [rel, ref] of FREL) {
  test(`float compares: v_cmp_${rel}_f32/f64/f16 and v_cmpx_${rel}_*`, () => {
    const n = FA.length;
    const exec = 0xffff & ~0b100; // lane 2 inactive: its bit is 0
    const want = maskOf((l) => ref(FA[l]!, FB[l]!), n, exec);
    const r = runAsm(`v_cmp_${rel}_f32 vcc_lo, v0, v1\nv_cmp_${rel}_f32_e64 s10, v0, v1\nv_cmp_${rel}_f64_e64 s11, v[2:3], v[4:5]\nv_cmp_${rel}_f16 vcc_lo, v6, v7\ns_mov_b32 s12, vcc_lo\nv_cmp_${rel}_f64 vcc_lo, v[2:3], v[4:5]\ns_endpgm`, {
      exec,
      vgprF32: { 0: FA, 1: FB },
      vgpr: { 2: FA.map((x) => f64w(x)[0]), 3: FA.map((x) => f64w(x)[1]), 4: FB.map((x) => f64w(x)[0]), 5: FB.map((x) => f64w(x)[1]), 6: FA.map(h16), 7: FB.map(h16) },
    });
    assert.equal(r.s(10), want, 'f32 e64');
    assert.equal(r.s(11), want, 'f64 e64');
    assert.equal(r.s(12), want, 'f16 e32');
    assert.equal(r.s(106), want, 'f64 e32');
    for (const [ty, src] of [['f32', 'v0, v1'], ['f64', 'v[2:3], v[4:5]'], ['f16', 'v6, v7']] as const) {
      const x = runAsm(`v_cmpx_${rel}_${ty} ${src}\ns_endpgm`, {
        exec, sgpr: { 106: 0x5a5a },
        vgprF32: { 0: FA, 1: FB },
        vgpr: { 2: FA.map((x) => f64w(x)[0]), 3: FA.map((x) => f64w(x)[1]), 4: FB.map((x) => f64w(x)[0]), 5: FB.map((x) => f64w(x)[1]), 6: FA.map(h16), 7: FB.map(h16) },
      });
      assert.equal(x.s(126), want, `cmpx ${ty}`);
      assert.equal(x.s(106), 0x5a5a, 'cmpx leaves VCC alone');
      const x64 = runAsm(`v_cmpx_${rel}_${ty}_e64 ${src}\ns_endpgm`, {
        exec, vgprF32: { 0: FA, 1: FB },
        vgpr: { 2: FA.map((x) => f64w(x)[0]), 3: FA.map((x) => f64w(x)[1]), 4: FB.map((x) => f64w(x)[0]), 5: FB.map((x) => f64w(x)[1]), 6: FA.map(h16), 7: FB.map(h16) },
      });
      assert.equal(x64.s(126), want, `cmpx e64 ${ty}`);
    }
  });
}

const IA = [0, 1, 0xffffffff, 0x80000000, 5, 0x7fffffff, 0xffff8000, 0x00018000];
const IB = [0, 2, 1, 0x7fffffff, 5, 0x80000000, 0x00008000, 0xffff8000];
const IREL: [string, (c: number) => boolean][] = [
  ['lt', (c) => c < 0], ['eq', (c) => c === 0], ['le', (c) => c <= 0], ['gt', (c) => c > 0], ['ne', (c) => c !== 0], ['ge', (c) => c >= 0],
];
const cmp = (a: number | bigint, b: number | bigint) => (a < b ? -1 : a > b ? 1 : 0);
for (const [rel, ref] of IREL) {
  test(`integer compares: v_cmp_${rel}_{i,u}{16,32,64} and v_cmpx forms`, () => {
    const n = IA.length;
    const hi = IB.map((x) => (x ^ 0x80000001) >>> 0);
    const r = runAsm([
      `v_cmp_${rel}_u32_e64 s10, v0, v1`, `v_cmp_${rel}_i32_e64 s11, v0, v1`, `v_cmp_${rel}_u16_e64 s12, v0, v1`, `v_cmp_${rel}_i16_e64 s13, v0, v1`,
      `v_cmp_${rel}_u64_e64 s14, v[2:3], v[4:5]`, `v_cmp_${rel}_i64_e64 s15, v[2:3], v[4:5]`, `v_cmp_${rel}_u32 vcc_lo, v0, v1`, 's_endpgm',
    ].join('\n'), { exec: 0xff, vgpr: { 0: IA, 1: IB, 2: IA, 3: IB, 4: IB, 5: hi } });
    const s16 = (x: number) => (x << 16) >> 16;
    const u64 = (l: number, x: number, y: number) => (BigInt(y) << 32n) | BigInt(x);
    const i64 = (x: bigint) => BigInt.asIntN(64, x);
    assert.equal(r.s(10), maskOf((l) => ref(cmp(IA[l]!, IB[l]!)), n));
    assert.equal(r.s(106), maskOf((l) => ref(cmp(IA[l]!, IB[l]!)), n));
    assert.equal(r.s(11), maskOf((l) => ref(cmp(IA[l]! | 0, IB[l]! | 0)), n));
    assert.equal(r.s(12), maskOf((l) => ref(cmp(IA[l]! & 0xffff, IB[l]! & 0xffff)), n));
    assert.equal(r.s(13), maskOf((l) => ref(cmp(s16(IA[l]!), s16(IB[l]!))), n));
    assert.equal(r.s(14), maskOf((l) => ref(cmp(u64(l, IA[l]!, IB[l]!), u64(l, IB[l]!, hi[l]!))), n));
    assert.equal(r.s(15), maskOf((l) => ref(cmp(i64(u64(l, IA[l]!, IB[l]!)), i64(u64(l, IB[l]!, hi[l]!)))), n));
    for (const ty of ['u32', 'i32', 'u16', 'i16', 'u64', 'i64']) {
      const src = ty.endsWith('64') ? 'v[2:3], v[4:5]' : 'v0, v1';
      const x = runAsm(`v_cmpx_${rel}_${ty} ${src}\ns_endpgm`, { vgpr: { 0: IA, 1: IB, 2: IA, 3: IB, 4: IB, 5: hi }, exec: 0xff });
      const e = runAsm(`v_cmp_${rel}_${ty}_e64 s20, ${src}\ns_endpgm`, { vgpr: { 0: IA, 1: IB, 2: IA, 3: IB, 4: IB, 5: hi }, exec: 0xff });
      assert.equal(x.s(126), e.s(20), `cmpx ${ty}`);
    }
  });
}
test('v_cmp_f/t for 32/64-bit integers and their cmpx forms', () => {
  for (const ty of ['u32', 'i32', 'u64', 'i64']) {
    const src = ty.endsWith('64') ? 'v[2:3], v[4:5]' : 'v0, v1';
    const r = runAsm(`v_cmp_t_${ty}_e64 s10, ${src}\nv_cmp_f_${ty}_e64 s11, ${src}\ns_endpgm`, { exec: 0b1011 });
    assert.equal(r.s(10), 0b1011, ty);
    assert.equal(r.s(11), 0, ty);
    const x = runAsm(`v_cmpx_f_${ty} ${src}\ns_endpgm`, { exec: 0b1011 });
    assert.equal(x.s(126), 0);
    const t = runAsm(`v_cmpx_t_${ty} ${src}\ns_endpgm`, { exec: 0b1011 });
    assert.equal(t.s(126), 0b1011);
  }
});
test('v_cmp_class_f32/f64/f16 and v_cmpx_class_*: every class bit', () => {
  // sNaN, qNaN, -inf, -normal, -denormal, -0, +0, +denormal, +normal, +inf
  const f32s = [0x7f800001, 0x7fc00000, 0xff800000, 0xbf800000, 0x80000001, 0x80000000, 0, 1, 0x3f800000, 0x7f800000];
  const f64s: [number, number][] = [[1, 0x7ff00000], [0, 0x7ff80000], [0, 0xfff00000], [0, 0xbff00000], [1, 0x80000000], [0, 0x80000000], [0, 0], [1, 0], [0, 0x3ff00000], [0, 0x7ff00000]];
  const f16s = [0x7c01, 0x7e00, 0xfc00, 0xbc00, 0x8001, 0x8000, 0, 1, 0x3c00, 0x7c00];
  for (let bit = 0; bit < 10; bit++) {
    const r = runAsm('v_cmp_class_f32 vcc_lo, v0, v1\nv_cmp_class_f64_e64 s10, v[2:3], v1\nv_cmp_class_f16_e64 s11, v4, v1\ns_endpgm', {
      exec: 0x3ff, vgpr: { 0: f32s, 1: 1 << bit, 2: f64s.map((x) => x[0]), 3: f64s.map((x) => x[1]), 4: f16s },
    });
    assert.equal(r.s(106), 1 << bit, `f32 class bit ${bit}`);
    assert.equal(r.s(10), 1 << bit, `f64 class bit ${bit}`);
    assert.equal(r.s(11), 1 << bit, `f16 class bit ${bit}`);
    for (const [ty, src] of [['f32', 'v0, v1'], ['f64', 'v[2:3], v1'], ['f16', 'v4, v1']] as const) {
      const x = runAsm(`v_cmpx_class_${ty}_e64 ${src}\ns_endpgm`, { exec: 0x3ff, vgpr: { 0: f32s, 1: 1 << bit, 2: f64s.map((x) => x[0]), 3: f64s.map((x) => x[1]), 4: f16s } });
      assert.equal(x.s(126), 1 << bit, `cmpx ${ty} bit ${bit}`);
    }
  }
  // class looks at raw bits: a denormal stays a denormal even when MODE flushes inputs
  const d = runAsm('v_cmp_class_f32 vcc_lo, v0, v1\ns_endpgm', { exec: 1, vgpr: { 0: 1, 1: 1 << 7 }, mode: 0 });
  assert.equal(d.s(106), 1);
});
test('compares: wave64 masks, EXEC == 0 still writes 0, denormal flush on inputs', () => {
  const lanes = Array.from({ length: 64 }, (_, i) => i);
  const r = runAsm('v_cmp_lt_u32 vcc, 40, v0\ns_endpgm', { waveSize: 64, vgpr: { 0: lanes } });
  assert.equal(r.s(106), 0); // lanes 41..63 are in VCC_HI
  assert.equal(r.s(107), 0xfffffe00);
  const z = runAsm('v_cmp_eq_u32 vcc_lo, v0, v0\nv_cmp_eq_u32_e64 s10, v0, v0\ns_endpgm', { exec: 0, sgpr: { 106: 0xffffffff, 10: 0xffffffff } });
  assert.equal(z.s(106), 0);
  assert.equal(z.s(10), 0);
  const d = b2f(0x00000004);
  const kept = runAsm('v_cmp_eq_f32 vcc_lo, v0, 0\ns_endpgm', { exec: 1, vgprF32: { 0: d }, mode: 0xf0 });
  assert.equal(kept.s(106), 0);
  const flushed = runAsm('v_cmp_eq_f32 vcc_lo, v0, 0\ns_endpgm', { exec: 1, vgprF32: { 0: d }, mode: 0xc0 });
  assert.equal(flushed.s(106), 1);
  void h2f;
});

// ---- coverage: every VALU mnemonic of the generated tables has semantics, except these
/**
 * VOP1/VOP2/VOPC/VOP3 mnemonics deliberately without semantics: none (v_illegal, VOP2 0, raises
 * the illegal-instruction trap).
 */
const NO_SEMANTICS: string[] = [];
test('coverage: VALU table mnemonics without semantics are exactly the justified list', () => {
  const impl = new Set(implemented());
  const all = new Set<string>();
  for (const t of [VOP1_OPS, VOP2_OPS, VOPC_OPS, VOP3_OPS]) for (const i of Object.values(t)) all.add(baseMnemonic(i.m));
  const missing = [...all].filter((m) => !impl.has(m)).sort();
  assert.deepEqual(missing, NO_SEMANTICS);
});
test('coverage: every VALU mnemonic with semantics appears in an assembly test', () => {
  const here = fileURLToPath(new URL('.', import.meta.url));
  const dirs = [resolve(here, '../../../test/amd'), resolve('test/amd')];
  const dir = dirs.find((d) => existsSync(join(d, 'exec-valu.test.ts')));
  assert.ok(dir, 'test sources not found');
  // the sources with their "\n" escapes opened up, so an instruction after one is a separate word
  const text = readdirSync(dir).filter((f) => /^exec-valu.*\.test\.ts$/.test(f)).map((f) => readFileSync(join(dir, f), 'utf8')).join('\n').replace(/\\n/g, ' ');
  const all = new Set<string>();
  for (const t of [VOP1_OPS, VOP2_OPS, VOPC_OPS, VOP3_OPS]) for (const i of Object.values(t)) all.add(baseMnemonic(i.m));
  const named = (m: string) => {
    if (new RegExp(`(?<![A-Za-z0-9_])${m}(?:_e32|_e64|_dpp)?(?![A-Za-z0-9_])`).test(text)) return true;
    // templated spellings: v_cmp_${rel}_f32 over a table of relations, v_${op}_f16 over op names,
    // v_cmpx_class_${ty} over quoted types
    const t = /^(v_\w+)_([fiu](?:16|32|64))$/.exec(m);
    if (t && text.includes(`${t[1]}_\${ty}`) && text.includes(`'${t[2]}'`)) return true;
    const c = /^v_cmpx?_(\w+?)_([fiu]\d+)$/.exec(m) ?? /^v_(\w+)_(f16|f32|f64)$/.exec(m);
    return c !== null && text.includes(`'${c[1]}'`) && text.includes(`_${c[2]}`);
  };
  const untested = [...all].filter((m) => !NO_SEMANTICS.includes(m) && !named(m)).sort();
  assert.deepEqual(untested, []);
});
