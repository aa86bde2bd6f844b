/**
 * The SP executor on real ir3 compute shaders: every manifest of ../shared/ir3-corpus runs and
 * matches its CPU-computed expectation, a seeded random wave/work-group order gives the same
 * bytes, and each rule check fires on a hand-assembled shader and stays quiet on the corpus.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { assembleIr3 } from '../../src/adreno/ir3/asm.js';
import { decodeShader, f16ToF32, f32ToF16 } from '../../src/adreno/sp/decode.js';
import { bind, convert } from '../../src/adreno/sp/exec.js';
import { checkIr3, readIr3Manifest, runIr3Dispatch, type Ir3Manifest } from '../../src/adreno/sp/dispatch.js';
import { Diagnostics } from '../../src/core/diagnostics.js';
import { CORPUS, words } from './ir3-corpus.js';

/**
 * Manifests whose opcodes are not all implemented yet, with the missing opcodes: this list may
 * only shrink. (Empty: every corpus opcode runs.)
 */
const MISSING: Record<string, string[]> = {};

/**
 * Manifests that run but cannot match: the reference computes GLSL fma() fused (one rounding),
 * while ir3 lowers fma() to mul.f + add.f (two roundings), and the two-rounding result is what the
 * hardware computes for this code; elements k%7 == 3 differ where the sum cancels. Only those
 * elements may differ (every other element must equal the reference to 1 ulp).
 */
const FMA_LOWERED = new Set(['float_arith.a630', 'float_arith.a660', 'float_arith.a730']);

const manifests = (): string[] => (existsSync(CORPUS) ? readdirSync(CORPUS).filter((f) => /\.a\d+\.json$/.test(f)).sort() : []);

test('ir3 corpus: every manifest runs and matches (pass/total per GPU)', (t) => {
  const files = manifests();
  if (!files.length) return t.skip('../shared/ir3-corpus is absent');
  const perGpu = new Map<string, [number, number]>();
  const bad: string[] = [];
  for (const f of files) {
    const name = f.replace(/\.json$/, '');
    const gpu = name.split('.').pop()!;
    const m = readIr3Manifest(join(CORPUS, f));
    const code = decodeShader(words(readFileSync(m.shader)), m.gpuId);
    const missing = bind(code);
    const pt = perGpu.get(gpu) ?? [0, 0];
    pt[1]++;
    perGpu.set(gpu, pt);
    if (missing.length) {
      assert.deepEqual(missing.sort(), (MISSING[name] ?? []).sort(), `${name}: missing opcodes changed`);
      continue;
    }
    assert.equal(MISSING[name], undefined, `${name} runs now: drop it from MISSING`);
    const diag = new Diagnostics();
    const r = runIr3Dispatch(m, { diag });
    assert.deepEqual(diag.list.map((d) => `${d.id}@${d.where['pc']}`), [], `${name}: diagnostics on clean code`);
    const checks = checkIr3(m, r.buffers);
    if (FMA_LOWERED.has(name)) {
      const got = new Float32Array(r.buffers.get('o')!.buffer.slice(0));
      const want = new Float32Array(words(readFileSync(m.expect['o']!.file)).buffer);
      for (let k = 0; k < want.length; k++) if (k % 7 !== 3 && !Object.is(got[k], want[k]) && Math.abs(got[k]! - want[k]!) > Math.abs(want[k]!) * 2 ** -23) bad.push(`${name}: [${k}] ${got[k]} != ${want[k]}`);
      continue;
    }
    const fails = checks.filter((c) => !c.pass);
    if (fails.length) bad.push(`${name}: ${fails.map((c) => `${c.name} ${c.mismatches} mismatches, first ${c.detail}`).join('; ')}`);
    else pt[0]++;
  }
  for (const [g, [p, n]] of perGpu) t.diagnostic(`${g}: ${p}/${n} pass`);
  assert.deepEqual(bad, []);
});

test('ir3 corpus: seeded random orders give the same outputs as in-order, every manifest', (t) => {
  const files = manifests();
  if (!files.length) return t.skip('../shared/ir3-corpus is absent');
  // Every corpus shader is race-free, so no schedule may change a byte.
  for (const f of files) {
    const m = readIr3Manifest(join(CORPUS, f));
    const a = runIr3Dispatch(m);
    for (const seed of [3, 77]) {
      const b = runIr3Dispatch(m, { seed, order: 'random' });
      for (const name of m.outputs) assert.deepEqual(b.buffers.get(name), a.buffers.get(name), `${f} seed ${seed}: ${name}`);
    }
  }
});

/** A one-work-group manifest around hand-assembled code (a630). */
function tiny(over: Partial<Ir3Manifest> = {}): Ir3Manifest {
  return {
    dir: '.', shader: '(assembled)', gpuId: 630, block: [64, 1, 1], groups: [1, 1, 1], waveSize: 64,
    localIdReg: 0, wgIdReg: 192, fullRegs: 4, halfRegs: 0, sharedSize: 0, constlen: 1,
    consts: new Uint32Array(4), buffers: [{ name: 'o', kind: 'ssbo', type: 'u32', count: 64, ibo: 0 }],
    outputs: ['o'], expect: {}, ...over,
  };
}

function diagIds(src: string, over: Partial<Ir3Manifest> = {}): string[] {
  const words = assembleIr3(src, { gpuId: 630 });
  const diag = new Diagnostics();
  runIr3Dispatch(tiny(over), { words, diag });
  return diag.list.map((d) => d.id);
}

test('adreno.ir3.sync-sy fires on an ldib result read without (sy), not with it', () => {
  const body = (sy: string): string => `ldib.b.untyped.1d.u32.1.imm r1.x, r0.x, 0\n(rpt5)nop\n${sy}add.u r1.y, r1.x, 1\nstib.b.untyped.1d.u32.1.imm r1.y, r0.x, 0\nend\n`;
  assert.deepEqual(diagIds(body('')), ['adreno.ir3.sync-sy']);
  assert.deepEqual(diagIds(body('(sy)')), []);
});

test('adreno.ir3.sync-ss fires on an SFU result read without (ss), not with it', () => {
  const body = (ss: string): string => `cov.u32f32 r1.x, r0.x\n(rpt5)nop\nrcp r1.y, r1.x\n(rpt5)nop\n${ss}add.f r1.z, r1.y, r1.y\nstib.b.untyped.1d.u32.1.imm r1.z, r0.x, 0\nend\n`;
  assert.deepEqual(diagIds(body('')), ['adreno.ir3.sync-ss']);
  assert.deepEqual(diagIds(body('(ss)')), []);
});

test('adreno.ir3.reg-footprint fires on a read beyond the declared full registers', () => {
  const src = 'add.u r1.x, r5.x, 1\nstib.b.untyped.1d.u32.1.imm r1.x, r0.x, 0\nend\n';
  assert.deepEqual(diagIds(src, { fullRegs: 2 }), ['adreno.ir3.reg-footprint']);
  assert.deepEqual(diagIds(src, { fullRegs: 6 }), []);
});

test('adreno.ir3.const-oob fires on a const read at or beyond constlen, and reads 0', () => {
  const src = 'add.u r1.x, c4.x, 1\nstib.b.untyped.1d.u32.1.imm r1.x, r0.x, 0\nend\n';
  assert.deepEqual(diagIds(src, { constlen: 1 }), ['adreno.ir3.const-oob']);
  assert.deepEqual(diagIds(src, { constlen: 5, consts: new Uint32Array(20) }), []);
  const r = runIr3Dispatch(tiny({ constlen: 1 }), { words: assembleIr3(src, { gpuId: 630 }), check: false });
  assert.equal(new Uint32Array(r.buffers.get('o')!.buffer)[3], 1);
});

test('an unmatched word decodes to raw and fails only when executed, naming pc and dwords', () => {
  const w = assembleIr3('end\nnop\n', { gpuId: 630 });
  const code = decodeShader(new Uint32Array([...w, 0x80000000, 0xffffffff]), 630);
  assert.equal(code[2]!.name, 'raw');
  assert.deepEqual(bind(code), []);
  assert.throws(() => runIr3Dispatch(tiny(), { words: new Uint32Array([0x80000000, 0xffffffff]) }), /pc 0: ffffffff_80000000/);
});

test('f16 rounds to nearest even; cov clamps and truncates', () => {
  assert.equal(f32ToF16(1 + 2 ** -11), 0x3c00); // tie -> even
  assert.equal(f32ToF16(1 + 3 * 2 ** -11), 0x3c02);
  assert.equal(f32ToF16(65520), 0x7c00);
  assert.equal(f32ToF16(2 ** -25), 0); // tie to even (0)
  assert.equal(f32ToF16(3 * 2 ** -26), 1);
  assert.equal(f16ToF32(0x0001), 2 ** -24);
  const bits = (x: number): number => new Uint32Array(new Float32Array([x]).buffer)[0]!;
  assert.equal(convert(bits(-2.7), 1, 5, 0) | 0, -2); // f32 -> s32 truncates
  assert.equal(convert(bits(3e9), 1, 5, 0) | 0, 0x7fffffff);
  assert.equal(convert(bits(-1), 1, 3, 0), 0); // f32 -> u32 clamps
  assert.equal(convert(bits(2.5), 1, 5, 1), 2); // (even)
  assert.equal(convert(0x12345, 3, 2, 0), 0x2345);
});

/** Run hand-assembled a630 code over 64 lanes; returns o[] (one u32 per lane by default). */
function runAsm(src: string, gpuId = 630): Uint32Array {
  const r = runIr3Dispatch({ ...tiny({ fullRegs: 8, constlen: 4, consts: new Uint32Array(16) }), gpuId }, { words: assembleIr3(src, { gpuId }) });
  return new Uint32Array(r.buffers.get('o')!.buffer);
}

test('divergent br reconverges at the join; getone lets exactly one lane through', () => {
  // o[lane] = lane odd ? 100 : 200, then +1 for everyone after the join.
  const o = runAsm(`and.b r1.x, r0.x, 1
(rpt5)nop
cmps.s.ne p0.x, r1.x, 0
(rpt5)nop
br !p0.x, #l7
mov.u32u32 r1.y, 100
jump #l8
l7:
mov.u32u32 r1.y, 200
l8:
(jp)add.u r1.y, r1.y, 1
stib.b.untyped.1d.u32.1.imm r1.y, r0.x, 0
end
`);
  for (let l = 0; l < 64; l++) assert.equal(o[l], l & 1 ? 101 : 201, `lane ${l}`);
  const g = runAsm(`mov.u32u32 r1.y, 0
getone #l3
mov.u32u32 r1.y, 1
l3:
(jp)stib.b.untyped.1d.u32.1.imm r1.y, r0.x, 0
end
`);
  assert.equal(g.reduce((a, b) => a + b, 0), 1);
});

test('a7xx predt/predf/prede run the then and else halves per lane', () => {
  const o = runAsm(`and.b r1.x, r0.x, 1
(rpt5)nop
cmps.s.ne p0.x, r1.x, 0
(rpt5)nop
predt
mov.u32u32 r1.y, 7
predf
mov.u32u32 r1.y, 9
prede
stib.b.untyped.1d.u32.1.imm r1.y, r0.x, 0
end
`, 730);
  for (let l = 0; l < 64; l++) assert.equal(o[l], l & 1 ? 7 : 9, `lane ${l}`);
});

test('gpusim adreno dispatch: PASS/FAIL lines, outputs, exit codes 0/1/2', async (t) => {
  if (!manifests().length) return t.skip('../shared/ir3-corpus is absent');
  const { dispatchCommand } = await import('../../src/adreno/sp/cli.js');
  const { mkdtempSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(join(tmpdir(), 'ir3d-'));
  const lines: string[] = [];
  assert.equal(dispatchCommand({ out: dir, seed: '9', order: 'random' }, [join(CORPUS, 'int_mul32.a630.json')], (l) => lines.push(l)), 0);
  assert.match(lines.join('\n'), /^PASS o$/m);
  assert.ok(existsSync(join(dir, 'o.bin')));
  assert.equal(dispatchCommand({}, [join(CORPUS, 'float_arith.a630.json')], () => {}), 1);
  assert.throws(() => dispatchCommand({}, [join(dir, 'none.json')], () => {}), /ir3 manifest/);
});

test('stp/ldp: the same private address holds each fiber its own value', () => {
  const o = runAsm(`mov.u32u32 r1.x, 0
add.u r1.y, r0.x, 1000
(rpt5)nop
stp.u32 p[r1.x+4], r1.y, 1
mov.u32u32 r1.z, 0
(rpt5)nop
ldp.u32 r1.z, p[r1.x+4], 1
(sy)stib.b.untyped.1d.u32.1.imm r1.z, r0.x, 0
end
`);
  for (let l = 0; l < 64; l++) assert.equal(o[l], l + 1000);
});

test('gpusim adreno dispatch --strict stops at the first rule with exit 1', async () => {
  const { dispatchCommand } = await import('../../src/adreno/sp/cli.js');
  const { mkdtempSync, writeFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(join(tmpdir(), 'ir3s-'));
  const code = assembleIr3('add.u r1.x, c4.x, 1\nstib.b.untyped.1d.u32.1.imm r1.x, r0.x, 0\nend\n', { gpuId: 630 });
  writeFileSync(join(dir, 's.bin'), new Uint8Array(code.buffer));
  const man = { shader: 's.bin', gpu: 'a630', gpu_id: 630, block: [64, 1, 1], groups: [1, 1, 1], wave_size: 64, regs: { full: 2, local_invocation_id: 'r0.x', workgroup_id: 'r48.x' }, constlen: 1, consts: [], buffers: { o: { kind: 'ssbo', type: 'u32', count: 64, ibo: 0 } }, outputs: ['o'] };
  writeFileSync(join(dir, 'm.json'), JSON.stringify(man));
  const lines: string[] = [];
  assert.equal(dispatchCommand({}, [join(dir, 'm.json')], (l) => lines.push(l)), 0);
  assert.match(lines.join('\n'), /warning: adreno\.ir3\.const-oob/);
  lines.length = 0;
  assert.equal(dispatchCommand({ strict: true }, [join(dir, 'm.json')], (l) => lines.push(l)), 1);
  assert.match(lines.join('\n'), /adreno\.ir3\.const-oob.*stopped/);
});

test('adreno.ir3.last-use fires on a0.x addressing after its (ul), not after a new mova', () => {
  const body = (again: string): string => `and.b r1.w, r0.x, 3
(rpt5)nop
cov.u32s16 hr4.x, r1.w
(rpt2)nop
mova a0.x, hr4.x
(rpt5)nop
(ul)mov.u32u32 r1.x, c<a0.x + 1>
${again}(rpt5)nop
mov.u32u32 r1.y, c<a0.x + 4>
(rpt5)nop
add.u r1.x, r1.x, r1.y
stib.b.untyped.1d.u32.1.imm r1.x, r0.x, 0
end
`;
  const over = { fullRegs: 4, constlen: 2, consts: new Uint32Array(8) };
  assert.deepEqual(diagIds(body(''), over), ['adreno.ir3.last-use']);
  assert.deepEqual(diagIds(body('mova a0.x, hr4.x\n'), over), []);
});

test('adreno.ir3.preamble-owned fires when the main shader overwrites a preamble const', () => {
  const body = (dst: number): string => `shps #l7
getone #l7
mov.u32u32 r1.x, 5
(rpt5)nop
stc.u32 c[0], r1.x, 1
(sy)(ss)shpe
l7:
(jp)mov.u32u32 r1.y, c0.x
(rpt5)nop
stc.u32 c[${dst}], r1.y, 1
stib.b.untyped.1d.u32.1.imm r1.y, r0.x, 0
end
`;
  const over = { fullRegs: 4, constlen: 2, consts: new Uint32Array(8) };
  assert.deepEqual(diagIds(body(0), over), ['adreno.ir3.preamble-owned']);
  assert.deepEqual(diagIds(body(4), over), []);
  // The preamble ran once before the wave: every lane read its 5.
  const r = runIr3Dispatch(tiny(over), { words: assembleIr3(body(4), { gpuId: 630 }) });
  assert.deepEqual([...new Uint32Array(r.buffers.get('o')!.buffer)], new Array(64).fill(5));
});

/** Run a630 code with o[] of `count` u32 and consts c0.xy = o's GPU address (layout is deterministic). */
function runGlobal(src: string, count: number, gpuId = 630): Uint32Array {
  const m = { ...tiny({ fullRegs: 8, constlen: 1, consts: new Uint32Array(4), buffers: [{ name: 'o', kind: 'ssbo' as const, type: 'u32' as const, count, ibo: 0 }] }), gpuId };
  const words = assembleIr3(src, { gpuId });
  const base = runIr3Dispatch(m, { words, check: false }).built.buffers.get('o')!.base;
  const consts = new Uint32Array([base >>> 0, Math.floor(base / 2 ** 32), 0, 0]);
  const r = runIr3Dispatch({ ...m, consts }, { words });
  assert.equal(r.built.buffers.get('o')!.base, base);
  return new Uint32Array(r.buffers.get('o')!.buffer);
}

const GLOBAL_PTR = `shl.b r1.x, r0.x, 2
mov.u32u32 r2.x, c0.x
mov.u32u32 r2.y, c0.y
add.u r3.x, r0.x, 1000
(rpt5)nop
add.u r2.x, r2.x, r1.x
(rpt5)nop
`;

test('stg/ldg: global stores and loads at a 64-bit address + offset, as the ldib/stib data', () => {
  // stg o[lane+1] = lane+1000; ldg reads it back; stib o[lane] = that + 1.
  const o = runGlobal(`${GLOBAL_PTR}stg.u32 g[r2.x+4], r3.x, 1
ldg.u32 r4.x, g[r2.x+4], 1
(rpt5)nop
(sy)add.u r4.x, r4.x, 1
stib.b.untyped.1d.u32.1.imm r4.x, r0.x, 0
end
`, 65);
  for (let l = 0; l < 64; l++) assert.equal(o[l], l + 1001, `lane ${l}`);
  assert.equal(o[64], 63 + 1000);
});

test('ldg.a/stg.a (a6xx): address = SRC1 + (SRC2 + OFF) << 2', () => {
  // r5.x = 2: stg.a writes o[lane + 2 + 1]; ldg.a with OFF 0 reads o[lane + 2] (lane-1's store, or 0).
  const o = runGlobal(`${GLOBAL_PTR}mov.u32u32 r5.x, 2
(rpt5)nop
stg.a.u32 g[r2.x+(r5.x+1)<<2], r3.x, 1
ldg.a.u32 r4.x, g[r2.x+(r5.x)<<2], 1
(rpt5)nop
(sy)stib.b.untyped.1d.u32.1.imm r4.x, r0.x, 0
end
`, 67);
  assert.equal(o[0], 0); // o[2]: nobody stored there
  for (let l = 1; l < 64; l++) assert.equal(o[l], l - 1 + 1000, `lane ${l}`);
  assert.equal(o[66], 63 + 1000);
});

test('getfiberid, getwid and resinfo.b', () => {
  const f = runAsm(`getfiberid.u32 r1.x
(rpt5)nop
(sy)stib.b.untyped.1d.u32.1.imm r1.x, r0.x, 0
end
`);
  for (let l = 0; l < 64; l++) assert.equal(f[l], l);
  const r = runAsm(`resinfo.b.untyped.1d.u32.1.imm r1.x, 0
(rpt5)nop
(sy)stib.b.untyped.1d.u32.1.imm r1.x, r0.x, 0
end
`);
  assert.deepEqual([...r], new Array(64).fill(64)); // o[] has 64 elements
});

test('ldc reads a UBO that was not pushed, through its ST6_UBO descriptor', async () => {
  const { mkdtempSync, writeFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(join(tmpdir(), 'ir3-ldc-'));
  const ubo = new Uint32Array(256).map((_, k) => (k * 2654435761) >>> 0);
  writeFileSync(join(dir, 'u.bin'), new Uint8Array(ubo.buffer));
  const m = tiny({ fullRegs: 4, buffers: [{ name: 'o', kind: 'ssbo', type: 'u32', count: 64, ibo: 0 }, { name: 'u', kind: 'ubo', type: 'u32', count: 256, uboIndex: 1, file: join(dir, 'u.bin') }] });
  // ldc.offset2: vec4 r0.x of UBO 1, component z.
  const r = runIr3Dispatch(m, { words: assembleIr3('ldc.offset2.1.imm r1.x, r0.x, 1\n(rpt5)nop\n(sy)stib.b.untyped.1d.u32.1.imm r1.x, r0.x, 0\nend\n', { gpuId: 630 }) });
  const o = new Uint32Array(r.buffers.get('o')!.buffer);
  for (let l = 0; l < 64; l++) assert.equal(o[l], ubo[l * 4 + 2], `lane ${l}`);
});

test('isam and getsize read a texel buffer through its SB6_CS_TEX descriptor', async () => {
  const { mkdtempSync, writeFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(join(tmpdir(), 'ir3-tex-'));
  const tex = new Uint32Array(48).map((_, k) => (k * 40503 + 7) >>> 0);
  writeFileSync(join(dir, 't.bin'), new Uint8Array(tex.buffer));
  const m = tiny({ fullRegs: 4, buffers: [{ name: 'o', kind: 'ssbo', type: 'u32', count: 64, ibo: 0 }, { name: 't', kind: 'ssbo', type: 'u32', count: 48, tex: 1, file: join(dir, 't.bin') }] });
  // o[lane] = t[lane] + alpha (1 for a 1-component uint format) + size; lanes >= 48 read 0.
  const src = `isam (u32)(xw)r1.x, r0.x, s#0, t#1
getsize (u32)(x)r2.x, r0.x, t#1
(rpt5)nop
(sy)add.u r1.x, r1.x, r1.w
(rpt5)nop
add.u r1.x, r1.x, r2.x
(rpt5)nop
stib.b.untyped.1d.u32.1.imm r1.x, r0.x, 0
end
`;
  const r = runIr3Dispatch(m, { words: assembleIr3(src, { gpuId: 630 }) });
  const o = new Uint32Array(r.buffers.get('o')!.buffer);
  for (let l = 0; l < 64; l++) assert.equal(o[l], l < 48 ? (tex[l]! + 1 + 48) >>> 0 : 48, `lane ${l}`);
});

test('atomic.g.add / atomic.g.max on a global address return the old values', () => {
  // Every lane adds 1 to o[0] and stores the old value at o[lane+1]: o[0] = 64 and the old
  // values are 0..63 in some order.
  const o = runGlobal(`mov.u32u32 r2.x, c0.x
mov.u32u32 r2.y, c0.y
mov.u32u32 r3.x, 1
add.u r5.x, r0.x, 1
(rpt5)nop
atomic.g.add.untyped.1d.u32.1.g r4.x, r2.x, r3.x
(rpt5)nop
(sy)stib.b.untyped.1d.u32.1.imm r4.x, r5.x, 0
end
`, 65);
  assert.equal(o[0], 64);
  assert.deepEqual([...o.slice(1)].sort((a, b) => a - b), Array.from({ length: 64 }, (_, k) => k));
  // Signed max of (lane * 37 % 64) - 40 over the lanes.
  const m = runGlobal(`mov.u32u32 r2.x, c0.x
mov.u32u32 r2.y, c0.y
mul.u24 r3.x, r0.x, 37
(rpt5)nop
and.b r3.x, r3.x, 63
(rpt5)nop
add.s r3.x, r3.x, -40
(rpt5)nop
atomic.g.max.untyped.1d.s32.1.g r4.x, r2.x, r3.x
end
`, 1);
  let want = 0; // o[0] starts at 0
  for (let l = 0; l < 64; l++) want = Math.max(want, ((l * 37) % 64) - 40);
  assert.equal(m[0], want);
});
