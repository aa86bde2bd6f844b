/**
 * ir3 instructions beyond the corpus (src/adreno/sp/exec.ts): compare-and-swap atomics
 * (global, local), the other local atomics, swz/gat/sct, the cat5 subgroup shuffles
 * (brcst.active, quad_shuffle.*), call/ret, ldc.k. Each runs hand-assembled code on the CP and
 * checks against values computed here from the isaspec / Mesa descriptions (operand order of
 * cmpxchg from Mesa's ir3 atomic emitters: the new value, then the comparand).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assembleIr3 } from '../../src/adreno/ir3/asm.js';
import { runIr3Dispatch, type Ir3Manifest } from '../../src/adreno/sp/dispatch.js';

function manifest(over: Partial<Ir3Manifest> = {}): Ir3Manifest {
  return {
    dir: '.', shader: '(assembled)', gpuId: 630, block: [64, 1, 1], groups: [1, 1, 1], waveSize: 64,
    localIdReg: 0, wgIdReg: 192, fullRegs: 8, halfRegs: 0, sharedSize: 1024, constlen: 1,
    consts: new Uint32Array(4), buffers: [{ name: 'o', kind: 'ssbo', type: 'u32', count: 128, ibo: 0 }],
    outputs: ['o'], expect: {}, ...over,
  };
}

/** Run `src`; returns buffer o. With `global`, c0.xy holds o's GPU address. */
function run(src: string, opts: { gpuId?: number; global?: boolean; over?: Partial<Ir3Manifest>; patch?: (w: Uint32Array) => void } = {}): Uint32Array {
  const gpuId = opts.gpuId ?? 630;
  let m = manifest({ gpuId, ...opts.over });
  const words = assembleIr3(src, { gpuId });
  opts.patch?.(words);
  if (opts.global) {
    const base = runIr3Dispatch(m, { words, check: false }).built.buffers.get('o')!.base;
    const consts = new Uint32Array(Math.max(4, m.consts.length));
    consts.set([base >>> 0, Math.floor(base / 2 ** 32)]);
    m = { ...m, consts };
  }
  const r = runIr3Dispatch(m, { words });
  assert.deepEqual(r.diag.list.map((d) => d.id), []);
  return new Uint32Array(r.buffers.get('o')!.buffer.slice(0));
}

test('atomic.g.cmpxchg: new value in SRC2, comparand in SRC2+1, old value returned (lanes in order)', () => {
  for (const gpuId of [630, 730]) {
    // Lane l swaps o[0] from l to l+1 when it holds l: in lane order every lane succeeds.
    // Odd lanes compare against a wrong value (l + 100) and must fail, leaving o[0] alone.
    const o = run(`mov.u32u32 r2.x, c0.x
mov.u32u32 r2.y, c0.y
add.u r3.x, r0.x, 1
and.b r5.x, r0.x, 1
(rpt5)nop
mul.u24 r5.x, r5.x, 100
(rpt5)nop
add.u r3.y, r0.x, r5.x
(rpt5)nop
atomic.g.cmpxchg.untyped.1d.u32.1.g r4.x, r2.x, r3.x
add.u r5.y, r0.x, 64
(rpt5)nop
(sy)stib.b.untyped.1d.u32.1.imm r4.x, r5.y, 0
end
`, { gpuId, global: true });
    let mem = 0;
    const old: number[] = [];
    for (let l = 0; l < 64; l++) {
      old.push(mem);
      if (mem === (l % 2 ? l + 100 : l)) mem = l + 1;
    }
    assert.equal(o[0], mem, `gpu ${gpuId} final`);
    assert.deepEqual([...o.subarray(64, 128)], old, `gpu ${gpuId} old values`);
  }
});

test('local atomics: atomic.add / cmpxchg / xchg .l on shared memory return old values (lanes in order)', () => {
  // Their results are waited for with (ss), as ir3_legalize does for local atomics.
  // l[0] += lane+1; l[8]: cmpxchg with new value lane+1 (SRC2) and comparand lane (SRC2+1);
  // l[12] exchanged with lane. The old values go to o[lane], o[64+lane], o[128+lane].
  const o = run(`mov.u32u32 r1.x, 0
mov.u32u32 r1.z, 8
mov.u32u32 r1.w, 12
add.u r2.x, r0.x, 1
add.u r3.x, r0.x, 1
mov.u32u32 r3.y, r0.x
add.u r5.x, r0.x, 64
add.u r5.y, r0.x, 128
(rpt5)nop
atomic.add.untyped.1d.u32.1.l r4.x, l[r1.x], r2.x
atomic.cmpxchg.untyped.1d.u32.1.l r4.z, l[r1.z], r3.x
atomic.xchg.untyped.1d.u32.1.l r4.w, l[r1.w], r0.x
(ss)nop
stib.b.untyped.1d.u32.1.imm r4.x, r0.x, 0
stib.b.untyped.1d.u32.1.imm r4.z, r5.x, 0
stib.b.untyped.1d.u32.1.imm r4.w, r5.y, 0
end
`, { over: { buffers: [{ name: 'o', kind: 'ssbo', type: 'u32', count: 192, ibo: 0 }] } });
  let sum = 0;
  let cas = 0;
  let x = 0;
  for (let l = 0; l < 64; l++) {
    assert.equal(o[l], sum, `add old lane ${l}`);
    assert.equal(o[64 + l], cas, `cmpxchg old lane ${l}`);
    assert.equal(o[128 + l], x, `xchg old lane ${l}`);
    sum += l + 1;
    if (cas === l) cas = l + 1;
    x = l;
  }
});

test('swz / gat / sct move in parallel (swz swaps two registers)', () => {
  const o = run(`add.u r1.x, r0.x, 100
add.u r1.y, r0.x, 200
add.u r2.x, r0.x, 300
add.u r2.y, r0.x, 400
(rpt5)nop
swz.u32u32 r1.x, r1.y, r1.y, r1.x
gat.u32u32 r3.x, r2.y, r1.x, r2.x, r1.y
(rpt5)nop
sct.u32u32 r4.w, r4.z, r4.y, r4.x, r3.x
shl.b r5.x, r0.x, 1
(rpt5)nop
add.u r5.y, r5.x, 1
(rpt5)nop
stib.b.untyped.1d.u32.1.imm r4.x, r5.x, 0
stib.b.untyped.1d.u32.1.imm r4.w, r5.y, 0
end
`, { over: { buffers: [{ name: 'o', kind: 'ssbo', type: 'u32', count: 128, ibo: 0 }] } });
  for (let l = 0; l < 64; l++) {
    // After swz: r1.x = l+200, r1.y = l+100. gat: r3 = (l+400, l+200, l+300, l+100).
    // sct: r4.w = r3.x, r4.z = r3.y, r4.y = r3.z, r4.x = r3.w.
    assert.equal(o[2 * l], l + 100, `lane ${l} r4.x`);
    assert.equal(o[2 * l + 1], l + 400, `lane ${l} r4.w`);
  }
});

test('quad_shuffle.* and brcst.active follow the isaspec docs', () => {
  // r1.x = lane * 3 + 7; each result stored at o[2*lane], o[2*lane+1].
  const shuffle = (op: string): Uint32Array => run(`mul.u24 r1.x, r0.x, 3
and.b r2.x, r0.x, 2
shl.b r5.x, r0.x, 1
(rpt5)nop
add.u r1.x, r1.x, 7
mov.u32u32 r3.x, 0x3039
(rpt5)nop
${op}
(rpt5)nop
(sy)stib.b.untyped.1d.u32.1.imm r3.x, r5.x, 0
end
`);
  const v = (l: number): number => l * 3 + 7;
  for (const [op, f] of [['quad_shuffle.horiz (u32)(x)r3.x, r1.x', (l: number) => l ^ 1], ['quad_shuffle.vert (u32)(x)r3.x, r1.x', (l: number) => l ^ 2], ['quad_shuffle.diag (u32)(x)r3.x, r1.x', (l: number) => l ^ 3], ['quad_shuffle.brcst (u32)(x)r3.x, r1.x, r2.x', (l: number) => (l & ~3) | (l & 2)]] as const) {
    const o = shuffle(op);
    for (let l = 0; l < 64; l++) assert.equal(o[2 * l], v(f(l)), `${op} lane ${l}`);
  }
  // brcst.active.w8 with every fiber active: fibers 4..7 of each 8 get fiber 3's value, 0..3 keep 12345.
  const o = shuffle('brcst.active.w8 (u32)(x)r3.x, r1.x');
  for (let l = 0; l < 64; l++) assert.equal(o[2 * l], l % 8 >= 4 ? v((l & ~7) + 3) : 12345, `brcst lane ${l}`);
});

test('brcst.active takes the last active fiber of the lower half; inactive fibers keep their DST', () => {
  // Only even fibers run the brcst (odd ones branch around it): the lower half's last active
  // fiber of each cluster of 4 is fiber 0 (fiber 1 is inactive).
  const o = run(`mul.u24 r1.x, r0.x, 3
and.b r2.x, r0.x, 1
shl.b r5.x, r0.x, 1
mov.u32u32 r3.x, 999
(rpt5)nop
cmps.u.ne p0.x, r2.x, 0
(rpt5)nop
br p0.x, #skip
brcst.active.w4 (u32)(x)r3.x, r1.x
(rpt5)nop
skip:
(sy)(jp)stib.b.untyped.1d.u32.1.imm r3.x, r5.x, 0
end
`);
  for (let l = 0; l < 64; l++) {
    const want = l % 2 ? 999 : l % 4 === 2 ? (l - 2) * 3 : 999;
    assert.equal(o[2 * l], want, `lane ${l}`);
  }
});

test('call / ret: a subroutine returns to the instruction after the call, nested', () => {
  const o = run(`mov.u32u32 r1.x, r0.x
call #f
add.u r1.x, r1.x, 1000
(rpt5)nop
jump #out
f:
shl.b r1.x, r1.x, 1
call #g
ret
g:
add.u r1.x, r1.x, 5
ret
out:
(rpt5)nop
stib.b.untyped.1d.u32.1.imm r1.x, r0.x, 0
end
`);
  // main: r1 = l; call f: r1 = 2l; call g: r1 += 5; ret; ret; r1 += 1000.
  for (let l = 0; l < 64; l++) assert.equal(o[l], 2 * l + 5 + 1000, `lane ${l}`);
});

test('ldc.k copies UBO vec4s into the const file at a1.x', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sp-ops-'));
  const ubo = Uint32Array.from({ length: 16 }, (_, k) => 1000 + k * 7);
  writeFileSync(join(dir, 'u.bin'), new Uint8Array(ubo.buffer));
  // c1.x .. c2.w = UBO 1 vec4s 0..1; o[lane] = c1.x + c2.w + lane.
  const o = run(`mova1 a1.x, 4
mov.u32u32 r1.x, 0
(rpt5)nop
ldc.2.k.imm c[a1.x], r1.x, 1
(rpt5)nop
(sy)add.u r2.x, c1.x, c2.w
(rpt5)nop
add.u r2.x, r2.x, r0.x
(rpt5)nop
stib.b.untyped.1d.u32.1.imm r2.x, r0.x, 0
end
`, { over: { constlen: 4, consts: new Uint32Array(16), buffers: [{ name: 'o', kind: 'ssbo', type: 'u32', count: 64, ibo: 0 }, { name: 'u', kind: 'ubo', type: 'u32', count: 16, uboIndex: 1, file: join(dir, 'u.bin') }] } });
  for (let l = 0; l < 64; l++) assert.equal(o[l], ubo[0]! + ubo[7]! + l, `lane ${l}`);
});

test('cache maintenance (dccln, dcinv, dcflu, icinv, tcinv) and sleep leave memory and registers as they were', () => {
  const body = (extra: string): Uint32Array => run(`shl.b r1.x, r0.x, 2
mov.u32u32 r2.x, c0.x
mov.u32u32 r2.y, c0.y
add.u r3.x, r0.x, 77
(rpt5)nop
add.u r2.x, r2.x, r1.x
(rpt5)nop
stg.u32 g[r2.x], r3.x, 1
${extra}ldg.u32 r4.x, g[r2.x], 1
(rpt5)nop
(sy)add.u r4.x, r4.x, 1
stib.b.untyped.1d.u32.1.imm r4.x, r0.x, 0
end
`, { global: true });
  const plain = body('');
  assert.deepEqual([...plain.subarray(0, 64)], Array.from({ length: 64 }, (_, l) => l + 78));
  assert.deepEqual(body('dccln.all\ndcinv.all\ndcflu.all\nicinv\ntcinv\nsleep.l\n'), plain);
});

/**
 * A dp2acc/dp4acc word from the isaspec's cat3-dp fields (the display text of these encodings
 * names a field the XML does not define, so the assembler cannot produce them from text).
 */
function dpWord(dp4: boolean, o: { dst: number; s1: number; s2: number; s3: number; mixed: boolean; high: boolean; neg: boolean; sat: boolean }): [number, number] {
  const lo = o.s1 | (1 << 13) | (Number(o.mixed) << 14) | (o.s3 << 16) | (Number(o.high) << 30) | (Number(o.neg) << 31);
  const hi = o.dst | (Number(o.sat) << 10) | (Number(dp4) << 14) | (o.s2 << 15) | (0xd << 23) | (3 << 29);
  return [lo >>> 0, hi >>> 0];
}

test('dp2acc / dp4acc: 8-bit dot products plus an accumulator (signedness, packing, (neg), (sat))', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sp-dp-'));
  let seed = 12345;
  const rnd = (): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
  const input = Uint32Array.from({ length: 256 }, (_, k) => (k % 4 === 2 ? (k % 8 === 2 ? 0x7ffffff0 + (rnd() % 64) : rnd()) : rnd()));
  writeFileSync(join(dir, 'in.bin'), new Uint8Array(input.buffer));
  const src = `shl.b r5.x, r0.x, 2
(rpt5)nop
ldib.b.untyped.1d.u32.4.imm r2.x, r5.x, 1
(rpt5)nop
(sy)nop
stib.b.untyped.1d.u32.1.imm r1.x, r0.x, 0
end
`;
  const cases = [
    { dp4: true, mixed: false, high: false, neg: false, sat: false },
    { dp4: true, mixed: true, high: false, neg: false, sat: true },
    { dp4: true, mixed: false, high: false, neg: false, sat: true },
    { dp4: false, mixed: true, high: true, neg: true, sat: false },
    { dp4: false, mixed: false, high: false, neg: false, sat: false },
  ];
  for (const cs of cases) {
    // r1.x = dp(r2.x, r2.y) + r2.z, patched over the `(sy)nop` (instruction 4).
    const o = run(src, {
      gpuId: 730,
      over: { buffers: [{ name: 'o', kind: 'ssbo', type: 'u32', count: 64, ibo: 0 }, { name: 'in', kind: 'ssbo', type: 'u32', count: 256, ibo: 1, file: join(dir, 'in.bin') }] },
      patch: (w) => {
        const [lo, hi] = dpWord(cs.dp4, { dst: 4, s1: 8, s2: 9, s3: 10, ...cs });
        w[8] = lo;
        w[9] = (hi | (1 << 28)) >>> 0; // (sy)
      },
    });
    for (let l = 0; l < 64; l++) {
      const a = input[l * 4]!, b = input[l * 4 + 1]!, c = input[l * 4 + 2]!;
      const bytes = cs.dp4 ? [0, 1, 2, 3] : cs.high ? [2, 3] : [0, 1];
      let r = cs.mixed ? c | 0 : c;
      if (cs.neg) r = -r;
      for (const j of bytes) {
        const x = (a >>> (8 * j)) & 0xff;
        r += (cs.mixed && x >= 128 ? x - 256 : x) * ((b >>> (8 * j)) & 0xff);
      }
      if (cs.sat) r = cs.mixed ? Math.max(-(2 ** 31), Math.min(2 ** 31 - 1, r)) : Math.max(0, Math.min(2 ** 32 - 1, r));
      assert.equal(o[l], ((r % 2 ** 32) + 2 ** 32) % 2 ** 32, `${JSON.stringify(cs)} lane ${l}`);
    }
  }
});

test('adreno.ir3.sync-ss fires on a local atomic result read without (ss), not with (sy)', () => {
  const body = (flag: string): string[] => {
    const r = runIr3Dispatch(manifest(), { words: assembleIr3(`mov.u32u32 r1.x, 0
(rpt5)nop
atomic.add.untyped.1d.u32.1.l r4.x, l[r1.x], r0.x
${flag}nop
stib.b.untyped.1d.u32.1.imm r4.x, r0.x, 0
end
`, { gpuId: 630 }) });
    return r.diag.list.map((d) => d.id);
  };
  assert.deepEqual(body('(sy)'), ['adreno.ir3.sync-ss']);
  assert.deepEqual(body('(ss)'), []);
});

test('dsx / dsy (coarse) and dsxpp.1 / dsypp.1 (fine) difference within 2x2 quads of fibers 4k..4k+3', () => {
  // r1.x = float(lane * lane) (not linear, so fine and coarse differ); results at o[2*lane].
  const deriv = (op: string): Float32Array => new Float32Array(run(`mul.u24 r1.x, r0.x, r0.x
shl.b r5.x, r0.x, 1
(rpt5)nop
cov.u32f32 r1.x, r1.x
(rpt5)nop
${op}
(sy)stib.b.untyped.1d.u32.1.imm r3.x, r5.x, 0
end
`).buffer);
  const v = (l: number): number => l * l;
  // Fiber q+0 top-left, q+1 top-right, q+2 bottom-left, q+3 bottom-right.
  const want: [string, (l: number) => number][] = [
    ['dsx (f32)(x)r3.x, r1.x', (l) => v((l & ~3) + 1) - v(l & ~3)],
    ['dsy (f32)(x)r3.x, r1.x', (l) => v((l & ~3) + 2) - v(l & ~3)],
    ['dsxpp.1 (x)r3.x, r1.x', (l) => v(l | 1) - v(l & ~1)],
    ['dsypp.1 (x)r3.x, r1.x', (l) => v(l | 2) - v(l & ~2)],
  ];
  for (const [op, f] of want) {
    const o = deriv(op);
    for (let l = 0; l < 64; l++) assert.equal(o[2 * l], f(l), `${op} lane ${l}`);
  }
});

test('ldg.k copies SIZE vec4s of global memory (SRC1 + OFF bytes) into the const file at DST dwords', () => {
  for (const gpuId of [630, 730]) {
    // o[0..63] is zero-filled by the driver; the first pass writes 1000 + 7k to o[64 + k] through
    // stib, then ldg.k reads o[64 + 4 ..] (OFF 16 bytes past o + 256) into c2.x.. (DST 8), and
    // lane l stores c2.x + c3.w + l at o[l].
    const o = run(`mov.u32u32 r2.x, c0.x
mov.u32u32 r2.y, c0.y
mul.u24 r3.x, r0.x, 7
add.u r3.y, r0.x, 64
(rpt5)nop
add.u r3.x, r3.x, 1000
(rpt5)nop
stib.b.untyped.1d.u32.1.imm r3.x, r3.y, 0
add.u r2.x, r2.x, 256
(rpt5)nop
(sy)ldg.k.u32 c[8], g[r2.x+16], 2
(rpt5)nop
(sy)add.u r4.x, c2.x, c3.w
(rpt5)nop
add.u r4.x, r4.x, r0.x
(rpt5)nop
stib.b.untyped.1d.u32.1.imm r4.x, r0.x, 0
end
`, { gpuId, global: true, over: { constlen: 4, consts: new Uint32Array(16) } });
    const mem = (k: number): number => 1000 + 7 * k;
    for (let l = 0; l < 64; l++) assert.equal(o[l], mem(4) + mem(4 + 7) + l, `gpu ${gpuId} lane ${l}`);
  }
});

test('stsc (a730) copies HLSQ_SHARED_CONSTS_IMM entries SRC.. into the const file at DST dwords', () => {
  const imm = Array.from({ length: 64 }, (_, k) => 5000 + k * 11);
  // c2.x..c3.w = entries 4..11; c1.x = entry 40.
  const words = assembleIr3(`mov.u32u32 r1.x, 40
(rpt5)nop
stsc.u32 c[8], 4, 8
stsc.u32 c[4], 40, 1
(rpt5)nop
(sy)add.u r2.x, c2.x, c3.w
(rpt5)nop
add.u r2.x, r2.x, c1.x
(rpt5)nop
add.u r2.x, r2.x, r0.x
(rpt5)nop
stib.b.untyped.1d.u32.1.imm r2.x, r0.x, 0
end
`, { gpuId: 730 });
  const m = manifest({ gpuId: 730, constlen: 4, consts: new Uint32Array(16) });
  const r = runIr3Dispatch(m, { words, state: (cs) => { imm.forEach((v, k) => cs.reg(`HLSQ_SHARED_CONSTS_IMM[${k}]`, v)); } });
  assert.deepEqual(r.diag.list.map((d) => d.id), []);
  const o = new Uint32Array(r.buffers.get('o')!.buffer.slice(0));
  for (let l = 0; l < 64; l++) assert.equal(o[l], imm[4]! + imm[11]! + imm[40]! + l, `lane ${l}`);
});

test('resinfo (a3xx-style encoding): the IBO dimensions of g[imm] and g[register]', () => {
  for (const gpuId of [630, 730]) {
    // img: 8 x 6 u32 image at IBO 1; o: 128-element buffer at IBO 0 (r1.x = 0 names it).
    const o = run(`mov.u32u32 r1.x, 0
(rpt5)nop
resinfo.u32.2d r2.x, g[1]
resinfo.u32.1d r3.x, g[r1.x]
(rpt5)nop
(sy)mul.u24 r2.x, r2.x, 1000
(rpt5)nop
add.u r2.x, r2.x, r2.y
(rpt5)nop
add.u r2.x, r2.x, r3.x
(rpt5)nop
stib.b.untyped.1d.u32.1.imm r2.x, r0.x, 0
end
`, { gpuId, over: { buffers: [{ name: 'o', kind: 'ssbo', type: 'u32', count: 128, ibo: 0 }, { name: 'img', kind: 'image', type: 'u32', count: 48, ibo: 1, width: 8 }] } });
    for (let l = 0; l < 64; l++) assert.equal(o[l], 8 * 1000 + 6 + 128, `gpu ${gpuId} lane ${l}`);
  }
});

test('wmm / wmm.accu: x * (y1 + y2 + y3 + y4), repeated 1 << (SRC3 / 32) times; accu adds but overwrites the first', () => {
  // x = (l, l+1, l+2, l+3) and y = (1, 2, 3, l) as f32 (exact), DST r4.x.. ; o[2l] = r4.x,
  // o[2l+1] = the last register written (r5.w with SRC3 = 32: 8 registers).
  const prog = (op: string, pre = ''): Float32Array => new Float32Array(run(`cov.u32f32 r1.x, r0.x
add.u r6.x, r0.x, 1
add.u r6.y, r0.x, 2
add.u r6.z, r0.x, 3
mov.u32u32 r3.x, 1
mov.u32u32 r3.y, 2
mov.u32u32 r3.z, 3
(rpt5)nop
cov.u32f32 r1.y, r6.x
cov.u32f32 r1.z, r6.y
cov.u32f32 r1.w, r6.z
cov.u32f32 r2.x, r3.x
cov.u32f32 r2.y, r3.y
cov.u32f32 r2.z, r3.z
cov.u32f32 r2.w, r0.x
${pre}
(rpt5)nop
${op}
shl.b r7.x, r0.x, 1
(rpt5)nop
add.u r7.y, r7.x, 1
(rpt5)nop
stib.b.untyped.1d.u32.1.imm r4.x, r7.x, 0
stib.b.untyped.1d.u32.1.imm r5.w, r7.y, 0
end
`, { over: { fullRegs: 8 } }).buffer);
  const ys = (l: number): number => 1 + 2 + 3 + l;
  const set = (v: number): string => `mov.u32u32 r6.w, ${v}\n(rpt5)nop\ncov.u32f32 r4.x, r6.w\ncov.u32f32 r5.w, r6.w`;
  const plain = prog('wmm r4.x, r1.x, r2.x, 32');
  const accu = prog('wmm.accu r4.x, r1.x, r2.x, 32', set(100));
  const once = prog('wmm r4.x, r1.x, r2.x, 0', set(7));
  for (let l = 0; l < 64; l++) {
    assert.equal(plain[2 * l], l * ys(l), `wmm lane ${l} r4.x`);
    assert.equal(plain[2 * l + 1], (l + 3) * ys(l), `wmm lane ${l} r5.w (second copy)`);
    assert.equal(accu[2 * l], l * ys(l), `wmm.accu lane ${l}: the first register is overwritten`);
    assert.equal(accu[2 * l + 1], (l + 3) * ys(l) + 100, `wmm.accu lane ${l}: r5.w accumulates`);
    assert.equal(once[2 * l + 1], 7, `SRC3 = 0 writes one copy: r5.w untouched (lane ${l})`);
  }
});
