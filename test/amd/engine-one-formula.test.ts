// One formula per op: every op the fast tier accelerates takes its result from the description the
// reference interpreter compiles too (exec/valu-int.ts, valu-f32.ts, valu-cmp-ops.ts, salu-ops.ts),
// so a fast binder registered for an op without one (a second copy of its formula) fails here. And
// the generated handlers keep the structured-code contract block.ts relies on (engine/code.ts):
// hand-backs only at explicit points, every free name declared.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assemble, decodeAt } from '../../src/amd/isa/target.js';
import { gfx11 } from '../../src/amd/isa/gfx11/index.js';
import { bindInstruction } from '../../src/amd/engine/bind.js';
import { fastImplemented, handlerOf, isFast, liftNumbers } from '../../src/amd/engine/fast-registry.js';
import { implemented } from '../../src/amd/engine/registry.js';
import { handsBack, renderHandler } from '../../src/amd/engine/code.js';
import { Diagnostics } from '../../src/core/diagnostics.js';
import { WAVE_STATE_SEED, type ExecEnv } from '../../src/amd/engine/env.js';
import { INT_OPS } from '../../src/amd/exec/valu-int.js';
import { F32_OPS } from '../../src/amd/exec/valu-f32.js';
import { CMP_OPS } from '../../src/amd/exec/valu-cmp-ops.js';
import { BRANCH_OPS, SALU_OPS, SAVEEXEC_OPS } from '../../src/amd/exec/salu-ops.js';
import { CODE_VA } from './exec-harness.js';
import { Program } from '../../src/amd/engine/program.js';
import { Wave, SREG } from '../../src/amd/wave/wave.js';
import { APERTURE } from '../../src/amd/exec/vmem.js';
import { Memory } from '../../src/core/memory.js';

function described(): Set<string> {
  const d = new Set<string>([...INT_OPS.keys(), ...F32_OPS.keys(), ...SALU_OPS.keys(), ...BRANCH_OPS.keys()]);
  for (const n of CMP_OPS.keys()) d.add(n).add(n.replace(/^v_cmp_/, 'v_cmpx_'));
  for (const n of SAVEEXEC_OPS.keys()) d.add(`s_${n}_saveexec_b32`).add(`s_${n}_saveexec_b64`);
  return d;
}

test('one formula: every op with a fast binder is described once, for both tiers', () => {
  const d = described();
  // A VOPD op (v_dual_*) is its two halves, each a described VALU op.
  const stray = fastImplemented().filter((n) => !d.has(n) && !(n.startsWith('v_dual_') && d.has(n.replace(/^v_dual_/, 'v_'))));
  assert.deepEqual(stray, [], 'fast binders without a description (a second formula)');
  // The reference interpreter binds every described op (it compiles the same description).
  const ref = new Set(implemented());
  assert.deepEqual([...d].filter((n) => !ref.has(n)), [], 'described ops the interpreter does not bind');
  assert.ok(fastImplemented().length > 200);
});

const LINES = [
  'v_add_f32_e32 v1, v2, v3', 'v_max_f32_e32 v1, s2, v3', 'v_min_f32_e64 v1, v2, 1.0', 'v_mul_hi_u32 v1, v2, v3', 'v_bcnt_u32_b32 v1, v2, s3',
  'v_add_co_ci_u32_e32 v1, vcc_lo, v2, v3, vcc_lo', 'v_cmp_lt_f32_e32 vcc_lo, v1, v2', 'v_cmpx_eq_u32_e32 v1, v2', 'v_cvt_f32_u32_e32 v1, v2',
  'v_dual_max_f32 v0, v1, v2 :: v_dual_mov_b32 v3, v6', 'v_dual_add_f32 v0, v1, v2 :: v_dual_add_nc_u32 v3, v6, v7',
  's_mul_hi_u32 s1, s2, s3', 's_add_u32 s1, s2, s3', 's_lshl_b64 s[2:3], s[4:5], s6', 's_cmp_lt_i32 s1, s2', 's_nand_saveexec_b32 s1, s2',
  's_cbranch_scc0 1', 'global_load_b32 v1, v2, s[0:1]', 'global_store_b32 v2, v1, s[0:1]', 'ds_load_b32 v1, v2', 's_load_b32 s4, s[0:1], 0x0',
];

test('generated handlers: hand-backs only where marked, exactly the free names they use declared', () => {
  const env: ExecEnv = { space: gfx11.space, diag: new Diagnostics(), seed: WAVE_STATE_SEED, waveSize: 32, vgprs: 16, now: () => 0, engine: 'fast' };
  let inlined = 0;
  for (const line of LINES) {
    const b = bindInstruction(decodeAt(gfx11, Uint32Array.from(assemble(gfx11, line)), 0, CODE_VA), env);
    assert.ok(isFast(b.run), `${line}: bound to a fast handler`);
    const inl = b.inline;
    if (inl === undefined) continue;
    inlined++;
    const text = renderHandler(inl.code);
    for (const p of inl.code) if (typeof p === 'string') assert.doesNotMatch(p, /\breturn\b/, `${line}: a return outside the hand-back points`);
    assert.equal(inl.params.includes('ref'), handsBack(inl.code), `${line}: ref is a free name exactly when the code hands back`);
    assert.equal(new Set(inl.params).size, inl.params.length);
    assert.equal(inl.args.length, inl.params.length);
    for (const p of inl.params) assert.match(text, new RegExp(`\\b${p}\\b`), `${line}: ${p} is declared but not used`);
    assert.equal(inl.key, `${inl.params.join(',')}\n${text}`);
    assert.equal(inl.movesPc === true, line.startsWith('s_cbranch'), `${line}: only branches move the PC`);
  }
  assert.equal(inlined, LINES.length, 'every handler carries its code');
});

test('generated handlers: ops differing only in registers and literals share one handler source', () => {
  const env: ExecEnv = { space: gfx11.space, diag: new Diagnostics(), seed: WAVE_STATE_SEED, waveSize: 32, vgprs: 16, now: () => 0, engine: 'fast' };
  const bind = (line: string) => bindInstruction(decodeAt(gfx11, Uint32Array.from(assemble(gfx11, line)), 0, CODE_VA), env);
  const pairs: [string, string][] = [
    ['v_add_co_u32 v1, vcc_lo, s6, v0', 'v_add_co_u32 v9, vcc_lo, s2, v7'],
    ['v_add_f32_e32 v1, v2, v3', 'v_add_f32_e32 v4, v5, v6'],
    ['v_mov_b32_e32 v1, 0x12345', 'v_mov_b32_e32 v7, 0x777'],
    ['s_add_u32 s1, s2, s3', 's_add_u32 s7, s8, s9'],
    ['global_load_b32 v1, v2, s[0:1]', 'global_load_b32 v3, v4, s[2:3] offset:64'],
    ['s_load_b64 s[4:5], s[0:1], 0x10', 's_load_b64 s[6:7], s[2:3], 0x18'],
    ['s_and_b32 s1, s0, 0xffff', 's_and_b32 s3, s2, 0x3ff'],
    ['s_cbranch_scc1 46', 's_cbranch_scc1 -17'],
  ];
  for (const [a, b] of pairs) {
    const x = bind(a), y = bind(b);
    assert.ok(isFast(x.run) && isFast(y.run), `${a}: fast`);
    assert.equal(handlerOf(x.run).toString(), handlerOf(y.run).toString(), `${a} / ${b}: one source`);
    assert.match(handlerOf(x.run).toString(), /\$k0/, `${a}: its numbers lifted`);
    // The blocks' code keeps the numbers in place.
    assert.notEqual(x.inline!.key, y.inline!.key);
  }
  // Lifted: indexes, destination rows, literal sources; the statements are otherwise unchanged.
  const l = liftNumbers('const u0 = 74565, b = 3; v[32 + l] = v[64 + f] + s[6]; v.set(OW0_32, 96); const a = (b + 24) >>> 0; if (a === 0) w.pc += -68; x <= 2;');
  assert.equal(l.shape, 'const u0 = $k0, b = $k1; v[$k2 + l] = v[$k3 + f] + s[$k4]; v.set(OW0_32, $k5); const a = (b + $k6) >>> 0; if (a === 0) w.pc += $k7; x <= 2;');
  assert.deepEqual(l.values, [74565, 3, 32, 64, 6, 96, 24, -68]);
});

test('a generated handler is made when it first runs, then takes its op\'s place', () => {
  const env: ExecEnv = { space: gfx11.space, diag: new Diagnostics(), seed: WAVE_STATE_SEED, waveSize: 32, vgprs: 16, now: () => 0, engine: 'fast' };
  const p = new Program(gfx11, CODE_VA, Uint32Array.from(assemble(gfx11, 'v_add_nc_u32_e32 v1, v2, v3')), env);
  const op = p.peek(CODE_VA);
  const first = op.run;
  assert.ok(isFast(first), 'the stand-in counts as fast (coverage reports)');
  assert.doesNotMatch(first.name, /^fast/, 'not made at bind');
  const w = new Wave({ waveSize: 32, vgprs: 16, pc: CODE_VA, sharedBase: APERTURE.SHARED, privateBase: APERTURE.PRIVATE, mode: 0xf0, status: 0 }, new Memory(), new Uint8Array(0), { wg: [0, 0, 0], waveInGroup: 0, id: 0 });
  w.s[SREG.EXEC_LO] = 0xffffffff;
  for (let l = 0; l < 32; l++) {
    w.v[2 * 32 + l] = l;
    w.v[3 * 32 + l] = 1000 * l;
  }
  w.pc += 4;
  op.run(w);
  assert.notEqual(op.run, first, 'the handler replaced the stand-in');
  assert.match(op.run.name, /^fast/);
  assert.ok(isFast(op.run));
  assert.equal(op.run, handlerOf(op.inline!.run), 'one handler, made once');
  op.run(w);
  for (let l = 0; l < 32; l++) assert.equal(w.v[32 + l], 1001 * l);
});
