/**
 * Typed RAT stores (assembly tests): STORE_TYPED to a RAT bound through its CB_COLORn_* dwords
 * converts the data GPR's four channels to the surface format at the index GPR's x / y / z.
 * Expected bytes are computed here from the format definitions (D3D11 conversion rules, binary16
 * encodings written out), not with src/r600/exec/rat.ts. T0.X holds each work-item's local id l.
 * clang-19's rat_typed.cl fixture (llvm.r600.rat.store.typed through an asm label) runs against a
 * CPU reference on cypress and cayman.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { colorFormat, RAT_NUMBER, RAT_RESOURCE, RAT_SWAP, encodeRat, type RatSurfaceFields } from '../../src/r600/exec/rat.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../tools/gen/run.js';
import { loadR600Object } from '../../src/r600/isa/object.js';
import { runR600Kernel, runR600Manifest } from '../../src/runtime/r600.js';
import { mulberry32, parseManifest } from '../../src/runtime/manifest.js';
import { manifestLaunch } from '../../src/runtime/run.js';
import { cfProg, ids, lit, runAsm } from './helpers.js';

const fbits = (x: number): number => new Uint32Array(new Float32Array([x]).buffer)[0]!;
const THIRD = Math.fround(1 / 63);
// T4 = (l & 7, l >> 3, 1, 0); T5 = (l * (1/63), -T5.X, 0.5, 1.0) as floats; T6.X = float(l);
// T7 = (5l, -700l, l, -1) as integers; T8 = (1/3, 65520, -2, 2^-24) as floats; T9.X = 1, T10.X = -1.
const SETUP = [
  '  AND_INT * T4.X, T0.X, literal.x,', lit(7), '  LSHR * T4.Y, T0.X, literal.x,', lit(3), '  MOV * T4.Z, 1,',
  '  UINT_TO_FLT * T5.X, T0.X,', '  MUL_IEEE * T5.X, T5.X, literal.x,', lit(fbits(THIRD)), '  MUL_IEEE * T5.Y, T5.X, literal.x,', lit(fbits(-1)),
  '  MOV * T5.Z, literal.x,', lit(fbits(0.5)), '  MOV * T5.W, literal.x,', lit(fbits(1)),
  '  UINT_TO_FLT * T6.X, T0.X,',
  '  MULLO_INT * T7.X, T0.X, literal.x,', lit(5), '  MULLO_INT * T7.Y, T0.X, literal.x,', lit(-700), '  MOV * T7.Z, T0.X,', '  MOV * T7.W, literal.x,', lit(-1),
  '  MOV * T8.X, literal.x,', lit(0x3eaaaaab), '  MOV * T8.Y, literal.x,', lit(fbits(65520)), '  MOV * T8.Z, literal.x,', lit(fbits(-2)),
  '  MOV * T8.W, literal.x,', lit(0x33800000), '  MOV * T9.X, 1,', '  MOV * T10.X, literal.x,', lit(-1),
];
const l64 = Array.from({ length: 64 }, (_, l) => l);
const BASE = 1024;

/** Run STORE_TYPED from T`data` at index T`index` (RAT 1 bound to `surface`), `fill` in memory first. */
function store(surface: Omit<RatSurfaceFields, 'base'>, data: number, index = 4, extra = '', fill = 0): { mem: DataView; ids: string[] } {
  const global = new Uint8Array(8192).fill(fill);
  const r = runAsm(cfProg([`MEM_RAT STORE_TYPED RAT(1) T${data}, T${index}, 0${extra}`], SETUP, SETUP.length), {
    global, rats: new Map([[1, encodeRat({ ...surface, base: BASE })]]),
  });
  return { mem: new DataView(global.buffer), ids: ids(r.diag) };
}
const unorm8 = (x: number): number => Math.floor(Math.min(Math.max(x, 0), 1) * 255 + 0.5);
const xOf = (l: number): number => Math.fround(l * THIRD);

test('COLOR_8_8_8_8 UNORM on a 2D RAT: x/y address the texel through the pitch; COMP_SWAP ALT stores BGRA', () => {
  const img = { format: colorFormat('COLOR_8_8_8_8'), numberType: RAT_NUMBER.UNORM, resourceType: RAT_RESOURCE.TEXTURE2D, width: 8, height: 8, pitch: 16 };
  const std = store(img, 5);
  assert.deepEqual(std.ids, []);
  for (const l of l64) {
    const at = BASE + ((l >> 3) * 16 + (l & 7)) * 4;
    assert.deepEqual([0, 1, 2, 3].map((k) => std.mem.getUint8(at + k)), [unorm8(xOf(l)), 0, 128, 255], `lane ${l}`);
  }
  assert.equal(std.mem.getUint32(BASE + 8 * 4, true), 0, 'texels past the width in a row stay untouched');
  const alt = store({ ...img, compSwap: RAT_SWAP.ALT }, 5);
  assert.deepEqual(alt.ids, []);
  for (const l of [0, 9, 63]) {
    const at = BASE + ((l >> 3) * 16 + (l & 7)) * 4;
    assert.deepEqual([0, 1, 2, 3].map((k) => alt.mem.getUint8(at + k)), [128, 0, unorm8(xOf(l)), 255]);
  }
  const rev = store({ ...img, compSwap: RAT_SWAP.ALT_REV }, 5);
  assert.deepEqual([0, 1, 2, 3].map((k) => rev.mem.getUint8(BASE + (7 * 16 + 7) * 4 + k)), [255, 255, 0, 128], 'ARGB');
});

test('COMP_MASK keeps the masked channels\' bytes; SNORM rounds half away from zero (negative values as two-complement bytes)', () => {
  const buf = { format: colorFormat('COLOR_8_8_8_8'), numberType: RAT_NUMBER.UNORM, width: 64 };
  const m = store(buf, 5, 0, ' MASK:5', 0xaa);
  assert.deepEqual(m.ids, []);
  for (const l of [0, 31, 63]) assert.deepEqual([0, 1, 2, 3].map((k) => m.mem.getUint8(BASE + 4 * l + k)), [unorm8(xOf(l)), 0xaa, 128, 0xaa]);
  const s = store({ format: colorFormat('COLOR_8_8'), numberType: RAT_NUMBER.SNORM, width: 64 }, 5, 0);
  assert.deepEqual(s.ids, []);
  for (const l of l64) {
    const v = xOf(l) * 127;
    const want = Math.floor(v + 0.5);
    assert.deepEqual([s.mem.getUint8(BASE + 2 * l), s.mem.getUint8(BASE + 2 * l + 1)], [want, (256 - want) & 0xff], `lane ${l}`);
  }
});

test('float formats: COLOR_32_FLOAT, COLOR_32_32_32_32_FLOAT keep the bits, COLOR_16_16_16_16_FLOAT rounds to binary16', () => {
  const f32 = store({ format: colorFormat('COLOR_32_FLOAT'), numberType: RAT_NUMBER.FLOAT, width: 64 }, 5, 0);
  assert.deepEqual(f32.ids, []);
  for (const l of l64) assert.equal(f32.mem.getUint32(BASE + 4 * l, true), fbits(xOf(l)));
  assert.equal(f32.mem.getUint32(BASE + 4 * 64, true), 0);
  const v4 = store({ format: colorFormat('COLOR_32_32_32_32_FLOAT'), numberType: RAT_NUMBER.FLOAT, width: 64 }, 5, 0);
  assert.deepEqual(v4.ids, []);
  for (const l of l64) assert.deepEqual([0, 1, 2, 3].map((k) => v4.mem.getUint32(BASE + 16 * l + 4 * k, true)), [fbits(xOf(l)), fbits(-xOf(l)), 0x3f000000, 0x3f800000]);
  const h = store({ format: colorFormat('COLOR_16_16_16_16_FLOAT'), numberType: RAT_NUMBER.FLOAT, width: 64 }, 8, 0);
  assert.deepEqual(h.ids, []);
  // 1/3 -> 0x3555, 65520 rounds to +inf, -2 -> 0xc000, 2^-24 -> the smallest subnormal.
  for (const l of [0, 40]) assert.deepEqual([0, 1, 2, 3].map((k) => h.mem.getUint16(BASE + 8 * l + 2 * k, true)), [0x3555, 0x7c00, 0xc000, 0x0001]);
  const hi = store({ format: colorFormat('COLOR_16_16_16_16_FLOAT'), numberType: RAT_NUMBER.FLOAT, width: 64 }, 6, 0);
  for (const l of l64) {
    const e = l ? Math.floor(Math.log2(l)) : 0;
    const want = l ? ((e + 15) << 10) | ((l / 2 ** e - 1) * 1024) : 0;
    assert.equal(hi.mem.getUint16(BASE + 8 * l, true), want, `float(${l}) as binary16`);
  }
});

test('integer formats: COLOR_32 UINT / SINT store the dword, narrower ones saturate', () => {
  for (const nt of [RAT_NUMBER.UINT, RAT_NUMBER.SINT]) {
    const r = store({ format: colorFormat('COLOR_32'), numberType: nt, width: 64 }, 7, 0);
    assert.deepEqual(r.ids, []);
    for (const l of l64) assert.equal(r.mem.getUint32(BASE + 4 * l, true), 5 * l);
  }
  const u8 = store({ format: colorFormat('COLOR_8_8_8_8'), numberType: RAT_NUMBER.UINT, width: 64 }, 7, 0);
  for (const l of [1, 51, 52, 63]) assert.deepEqual([0, 1, 2, 3].map((k) => u8.mem.getUint8(BASE + 4 * l + k)), [Math.min(5 * l, 255), 255, l, 255]);
  const s16 = store({ format: colorFormat('COLOR_16_16'), numberType: RAT_NUMBER.SINT, width: 64 }, 7, 0);
  for (const l of [1, 46, 47, 63]) assert.deepEqual([s16.mem.getInt16(BASE + 4 * l, true), s16.mem.getInt16(BASE + 4 * l + 2, true)], [5 * l, Math.max(-700 * l, -32768)]);
});

test('2D array RATs add VIEW.SLICE_START to z; coordinates past DIM / SLICE_MAX are dropped (r600.rat.out-of-range)', () => {
  const arr = store({ format: colorFormat('COLOR_32'), numberType: RAT_NUMBER.UINT, resourceType: RAT_RESOURCE.TEXTURE2DARRAY, width: 8, height: 8, sliceStart: 1, sliceMax: 2 }, 7);
  assert.deepEqual(arr.ids, []);
  for (const l of [0, 13, 63]) assert.equal(arr.mem.getUint32(BASE + (2 * 64 + (l >> 3) * 8 + (l & 7)) * 4, true), 5 * l, 'slice 1 + 1 of 64 texels');
  const small = store({ format: colorFormat('COLOR_32'), numberType: RAT_NUMBER.UINT, resourceType: RAT_RESOURCE.TEXTURE2D, width: 4, height: 4, pitch: 8 }, 7);
  assert.deepEqual(small.ids, ['r600.rat.out-of-range']);
  for (const l of l64) {
    const x = l & 7, y = l >> 3;
    assert.equal(small.mem.getUint32(BASE + (y * 8 + x) * 4, true), x < 4 && y < 4 ? 5 * l : 0, `lane ${l}`);
  }
  const noSlice = store({ format: colorFormat('COLOR_32'), numberType: RAT_NUMBER.UINT, resourceType: RAT_RESOURCE.TEXTURE2DARRAY, width: 8, height: 8, sliceStart: 1, sliceMax: 1 }, 7);
  assert.deepEqual(noSlice.ids, ['r600.rat.out-of-range']);
});

test('unsupported typed formats are r600.rat.format and write nothing', () => {
  const bad: [string, Omit<RatSurfaceFields, 'base'>][] = [
    ['COLOR_10_10_10_2', { format: colorFormat('COLOR_10_10_10_2'), numberType: RAT_NUMBER.UNORM, width: 64 }],
    ['SRGB', { format: colorFormat('COLOR_8_8_8_8'), numberType: RAT_NUMBER.SRGB, width: 64 }],
    ['FLOAT on an integer format', { format: colorFormat('COLOR_8_8_8_8'), numberType: RAT_NUMBER.FLOAT, width: 64 }],
    ['UNORM on a float format', { format: colorFormat('COLOR_32_FLOAT'), numberType: RAT_NUMBER.UNORM, width: 64 }],
    ['ENDIAN swap', { format: colorFormat('COLOR_32'), numberType: RAT_NUMBER.UINT, endian: 1, width: 64 }],
    ['tiled', { format: colorFormat('COLOR_32'), numberType: RAT_NUMBER.UINT, arrayMode: 4, width: 64 }],
    ['invalid', { format: 0, numberType: RAT_NUMBER.UINT, width: 64 }],
  ];
  for (const [what, s] of bad) {
    const r = store(s, 7, 0);
    assert.deepEqual(r.ids, ['r600.rat.format'], what);
    assert.equal(new Uint8Array(r.mem.buffer).some((b) => b !== 0), false, `${what}: nothing written`);
  }
});

test('a bound RAT addresses raw stores and atomics from its BASE; unbound RATs other than 0 stay r600.rat.id; RAT 0 unbound stays raw', () => {
  const rats = new Map([[2, encodeRat({ base: BASE, format: colorFormat('COLOR_32'), numberType: RAT_NUMBER.UINT, width: 64 })]]);
  const r = runAsm(cfProg(['MEM_RAT_CACHELESS STORE_RAW T7.X, T0.X, 0 RAT_ID:2', 'MEM_RAT ADD T10, T9.X RAT_ID:2'], SETUP, SETUP.length), { globalBytes: 4096, rats });
  assert.deepEqual(ids(r.diag), []);
  const w = new Uint32Array(r.global.buffer);
  for (const l of l64) if (l !== 1) assert.equal(w[BASE / 4 + l], 5 * l);
  assert.equal(w[BASE / 4 + 1], (5 - 64) >>> 0, 'dword 1 of the RAT: 5 plus 64 adds of -1');
  assert.equal(w[1], 0, 'global dword 1 untouched');
  const un = runAsm(cfProg(['MEM_RAT_CACHELESS STORE_RAW T7.X, T0.X, 0 RAT_ID:3'], SETUP, SETUP.length), { rats });
  assert.deepEqual(ids(un.diag), ['r600.rat.id']);
  const raw = runAsm(cfProg(['MEM_RAT STORE_TYPED RAT(0) T5, T7, 0'], SETUP, SETUP.length), { rats });
  assert.deepEqual(ids(raw.diag), []);
  const g = new Uint32Array(raw.global.buffer);
  assert.deepEqual([g[5], g[6], g[7], g[8], g[10]], [fbits(xOf(1)), fbits(-xOf(1)), 0x3f000000, 0x3f800000, fbits(xOf(2))], 'RAT 0 unbound: raw dwords at INDEX_GPR.x');
});

test('RAT bindings are checked: ids 0..11, seven dwords, known colour format names', () => {
  assert.equal(colorFormat('COLOR_8_8_8_8'), 0x1a);
  assert.equal(colorFormat('COLOR_32_32_32_32_FLOAT'), 0x23);
  assert.throws(() => colorFormat('COLOR_5_6_5'), /no colour format COLOR_5_6_5/);
  assert.throws(() => runAsm(cfProg(['MEM_RAT STORE_TYPED RAT(1) T5, T4, 0'], SETUP, SETUP.length), { rats: new Map([[12, new Uint32Array(7)]]) }), /RAT id 12 is not 0\.\.11/);
  assert.throws(() => runAsm(cfProg(['MEM_RAT STORE_TYPED RAT(1) T5, T4, 0'], SETUP, SETUP.length), { rats: new Map([[1, new Uint32Array(6)]]) }), /needs the 7 CB_COLORn/);
});

for (const mcpu of ['cypress', 'cayman']) {
  test(`${mcpu}/rat_typed: clang's STORE_TYPED to a 2D RGBA8 (BGRA / RGBA32F) image and an int16x4 buffer match the CPU reference`, () => {
    const object = loadR600Object(readFileSync(join(ROOT, 'kernels/r600/bin', mcpu, 'rat_typed.o')), 'rat_typed');
    const n = 128, w = 8, scale = Math.fround(1 / 127);
    for (const [fmt, bpp] of [[colorFormat('COLOR_8_8_8_8'), 4], [colorFormat('COLOR_32_32_32_32_FLOAT'), 16]] as const) {
      const float = fmt === colorFormat('COLOR_32_32_32_32_FLOAT');
      const run = runR600Kernel({
        object, grid: [n, 1, 1], block: [64, 1, 1],
        buffers: [{ name: 'img', type: 'u32', data: new Uint8Array(w * (n / w) * bpp) }, { name: 'ints', type: 'u32', data: new Uint8Array(n * 8) }],
        args: [{ kind: 'scalar', type: 'f32', value: scale }, { kind: 'scalar', type: 'i32', value: w }],
        rats: [
          { id: 1, buffer: 'img', words: encodeRat({ format: fmt, numberType: float ? RAT_NUMBER.FLOAT : RAT_NUMBER.UNORM, compSwap: float ? RAT_SWAP.STD : RAT_SWAP.ALT, resourceType: RAT_RESOURCE.TEXTURE2D, width: w, height: n / w }) },
          { id: 2, buffer: 'ints', words: encodeRat({ format: colorFormat('COLOR_16_16_16_16'), numberType: RAT_NUMBER.SINT, width: n }) },
        ],
      });
      assert.deepEqual(run.diagnostics.map((d) => `${d.id}: ${d.message}`), []);
      const img = new DataView(run.buffers.img!.slice().buffer), ints = new DataView(run.buffers.ints!.slice().buffer);
      for (let i = 0; i < n; i++) {
        const x = Math.fround(i * scale);
        const texel = [x, Math.fround(1 - x), 0.5, (i & 3) * 0.25];
        const at = ((i / w | 0) * w + (i % w)) * bpp;
        if (float) assert.deepEqual([0, 1, 2, 3].map((k) => img.getFloat32(at + 4 * k, true)), texel, `texel ${i}`);
        else assert.deepEqual([0, 1, 2, 3].map((k) => img.getUint8(at + k)), [texel[2]!, texel[1]!, texel[0]!, texel[3]!].map(unorm8), `texel ${i}`);
        assert.deepEqual([0, 1, 2, 3].map((k) => ints.getInt16(8 * i + 2 * k, true)), [i, -i | 0, Math.min(1000 * i, 32767), 7], `element ${i}`);
      }
    }
  });
}

test('random RAT bindings and coordinates never crash STORE_TYPED and report only r600.rat.format / out-of-range', () => {
  const r = mulberry32(603);
  const int = (n: number): number => Math.floor(r() * n);
  const allowed = new Set(['r600.rat.format', 'r600.rat.out-of-range', 'r600.mem.out-of-range']);
  const seen = new Set<string>();
  for (let i = 0; i < 150; i++) {
    // Half structured (a known format, random geometry), half random dwords.
    const words = r() < 0.5
      ? encodeRat({ base: 256 * int(40), format: int(64), numberType: int(8), compSwap: int(4), endian: int(4) === 0 ? 1 : 0, arrayMode: int(3),
        resourceType: int(7), width: 1 + int(40), height: 1 + int(20), sliceStart: int(3), sliceMax: int(4) })
      : Uint32Array.from({ length: 7 }, () => Math.floor(r() * 4294967296));
    const setup = ['  MOV * T1.X, literal.x,', lit(int(4294967296)), '  MOV * T1.Y, literal.x,', lit(int(64) - 8), '  MOV * T1.Z, literal.x,', lit(int(6) - 1), '  MOV * T2.X, literal.x,', lit(int(4294967296))];
    const run = runAsm(cfProg([`MEM_RAT STORE_TYPED RAT(1) ${r() < 0.5 ? 'T0' : 'T1'}, ${r() < 0.7 ? 'T0' : 'T1'}, 0${r() < 0.3 ? ` MASK:${int(16)}` : ''}`], setup, setup.length), {
      gen: r() < 0.5 ? 'cayman' : 'evergreen', globalBytes: 8192, rats: new Map([[1, words]]),
    });
    for (const d of run.diag.list) {
      assert.ok(allowed.has(d.id), `${d.id}: ${d.message}`);
      seen.add(d.id);
    }
  }
  assert.deepEqual([...seen].sort(), [...allowed].sort(), 'every typed-store fault occurred');
});

test('the run manifest binds RATs by name (rats: format, numberType, compSwap, resourceType, width, height); bad names are clear errors', () => {
  const dir = join(ROOT, 'kernels/r600/bin/cypress');
  const json = (rat1: Record<string, unknown>) => ({
    codeObject: 'rat_typed.o', grid: [128, 1, 1], block: [64, 1, 1],
    buffers: { img: { type: 'u32', count: 128 }, ints: { type: 'u32', count: 256 } },
    args: [{ f32: 0.0078125 }, { i32: 8 }],
    rats: [{ id: 1, buffer: 'img', ...rat1 }, { id: 2, buffer: 'ints', format: 'COLOR_16_16_16_16', numberType: 'SINT', width: 128 }],
  });
  const good = { format: 'COLOR_8_8_8_8', numberType: 'UNORM', compSwap: 'ALT', resourceType: 'TEXTURE2D', width: 8, height: 16 };
  const run = runR600Manifest(parseManifest(json(good), '<inline>', dir));
  assert.deepEqual(run.diagnostics.map((d) => d.id), []);
  const img = run.buffers.img!, ints = new Int16Array(run.buffers.ints!.slice().buffer);
  // Work-item 100: texel (4, 12) = (100/128, 28/128, 0.5, 0) as BGRA bytes.
  assert.deepEqual([...img.slice(400, 404)], [128, unorm8(28 / 128), unorm8(100 / 128), 0]);
  assert.deepEqual([...ints.slice(400, 404)], [100, -100, 32767, 7]);
  assert.throws(() => runR600Manifest(parseManifest(json({ ...good, numberType: 'UNROM' }), '<inline>', dir)), /rats\[0\]\.numberType: "UNROM" is not one of UNORM/);
  assert.throws(() => runR600Manifest(parseManifest(json({ ...good, format: 'COLOR_5_6_5' }), '<inline>', dir)), /no colour format COLOR_5_6_5/);
  assert.throws(() => runR600Manifest(parseManifest(json({ ...good, tiling: 2 }), '<inline>', dir)), /rats\[0\]\.tiling: unknown field/);
  assert.throws(() => parseManifest(json({ ...good, buffer: 'nope' }), '<inline>', dir), /rats\[0\]\.buffer: "nope" is not a buffer/);
  assert.throws(() => manifestLaunch(parseManifest(json(good), '<inline>', dir)), /rats: RAT bindings are for r600-family code objects/);
});
