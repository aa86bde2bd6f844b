/**
 * GFX11 VOPD semantics: `v_dual_X ... :: v_dual_Y ...` issues two VALU ops together. Each half
 * is the ordinary VOP1/VOP2 op of the same name (v_dual_add_f32 = v_add_f32, v_dual_fmaak_f32 =
 * v_fmaak_f32 with the shared literal as K, v_dual_cndmask_b32 reads VCC, v_dual_dot2acc_f32_f16
 * and v_dual_fmac_f32 accumulate into their destination), so both halves reuse the VALU
 * semantics bound through the registry with a synthesised VOP1/VOP2 instruction.
 *
 * Both halves read all their sources before either writes (RDNA3 ISA, VOPD): the X half runs
 * first, its result row is set aside and the X destination restored, then the Y half runs on the
 * original values, and the X result is written last. (The encoding makes vdstX and vdstY differ
 * in parity, so the two writes never collide.)
 *
 * Rules:
 * - wave-state seed: a source VGPR past the allocation is forced to (VGPRaddr % 4) in VOPD (not
 *   VGPR0 as in other VALU encodings): gfx11.vopd.src-out-of-range;
 * - a destination past the allocation: VOPD has two destinations, so nothing is written
 *   (gfx11.vgpr.dst-out-of-range);
 * - the ISA's VGPR bank constraints (src0 of X and Y in different banks, VGPR % 4; likewise the
 *   vsrc1s; one even and one odd destination is guaranteed by the encoding): a pair that breaks
 *   them is not a legal VOPD (llvm-mc refuses it) and its result is unpredictable; gpusim runs it
 *   with read-all-then-write semantics and reports gfx11.vopd.bank-conflict.
 */
import type { Instruction } from '../isa/types.js';
import type { VopdInfo, VopdOp } from '../isa/gfx11/vopd.js';
import { VOPD_X, VOPD_Y } from '../isa/gfx11/vopd.gen.js';
import type { ExecEnv } from '../engine/env.js';
import { define, lookup, type Bound, type Finding } from '../engine/registry.js';

/** Scratch rows for the read-all-then-write ordering (max wave64). */
const SAVE = new Uint32Array(64);
const XRES = new Uint32Array(64);

/** The VOP1/VOP2 instruction a VOPD half stands for. */
function half(inst: Instruction, op: VopdOp, vdst: number, src0: number, vsrc1: number): Instruction {
  const base = op.mnemonic.replace(/^v_dual_/, 'v_');
  const vop1 = !op.shape.includes('vsrc1');
  const fields: Record<string, number> = vop1 ? { vdst, src0 } : { vdst, src0, vsrc1 };
  return {
    encoding: vop1 ? 'VOP1' : 'VOP2', opcode: -1, mnemonic: base + '_e32', size: inst.size, words: inst.words, fields,
    literal: inst.literal, variant: 'e32', info: undefined,
  };
}

function bindVopd(inst: Instruction, env: ExecEnv): Bound {
  const info = inst.info as VopdInfo;
  const f = inst.fields;
  const findings: Finding[] = [];
  const vg = env.vgprs;
  // Sources: src0 is a 9-bit operand (VGPRs 256+), vsrc1 a VGPR number.
  const fixSrc0 = (s: number, what: string): number => {
    if (s < 256 || s - 256 < vg) return s;
    const r = (s - 256) % 4;
    findings.push({ id: 'gfx11.vopd.src-out-of-range', message: `${inst.mnemonic}: ${what} v${s - 256} is past the ${vg} allocated VGPRs; VOPD reads v${r} (VGPRaddr % 4)` });
    return 256 + r;
  };
  const fixV = (r: number, what: string): number => {
    if (r < vg) return r;
    findings.push({ id: 'gfx11.vopd.src-out-of-range', message: `${inst.mnemonic}: ${what} v${r} is past the ${vg} allocated VGPRs; VOPD reads v${r % 4} (VGPRaddr % 4)` });
    return r % 4;
  };
  const hasV1x = info.x.shape.includes('vsrc1');
  const hasV1y = info.y.shape.includes('vsrc1');
  const sx0 = fixSrc0(f.srcX0!, 'srcX0');
  const sy0 = fixSrc0(f.srcY0!, 'srcY0');
  const vx1 = hasV1x ? fixV(f.vsrcX1!, 'vsrcX1') : 0;
  const vy1 = hasV1y ? fixV(f.vsrcY1!, 'vsrcY1') : 0;
  const dx = f.vdstX!;
  const dy = f.vdstY!;
  if (sx0 >= 256 && sy0 >= 256 && (sx0 & 3) === (sy0 & 3)) {
    findings.push({ id: 'gfx11.vopd.bank-conflict', message: `${inst.mnemonic}: srcX0 v${sx0 - 256} and srcY0 v${sy0 - 256} are in the same VGPR bank (VGPR % 4); not a legal VOPD pair` });
  }
  if (hasV1x && hasV1y && (vx1 & 3) === (vy1 & 3)) {
    findings.push({ id: 'gfx11.vopd.bank-conflict', message: `${inst.mnemonic}: vsrcX1 v${vx1} and vsrcY1 v${vy1} are in the same VGPR bank (VGPR % 4); not a legal VOPD pair` });
  }
  if (dx >= vg || dy >= vg) {
    findings.push({ id: 'gfx11.vgpr.dst-out-of-range', message: `${inst.mnemonic}: destination v${dx >= vg ? dx : dy} is past the ${vg} allocated VGPRs; with two destinations nothing is written (NOP)` });
    return { cls: 'valu', findings, run: () => {} };
  }
  const hx = half(inst, info.x, dx, sx0, vx1);
  const hy = half(inst, info.y, dy, sy0, vy1);
  const bx = lookup(hx.mnemonic);
  const by = lookup(hy.mnemonic);
  if (!bx || !by) throw new Error(`VOPD half without VALU semantics: ${!bx ? hx.mnemonic : hy.mnemonic}`);
  const X = bx(hx, env);
  const Y = by(hy, env);
  for (const g of [X.findings, Y.findings]) if (g) findings.push(...g);
  const ws = env.waveSize;
  const d = dx * ws;
  const runX = X.run;
  const runY = Y.run;
  return {
    cls: 'valu',
    findings,
    run: (w) => {
      const v = w.v;
      for (let l = 0; l < ws; l++) SAVE[l] = v[d + l]!;
      runX(w);
      for (let l = 0; l < ws; l++) {
        XRES[l] = v[d + l]!;
        v[d + l] = SAVE[l]!;
      }
      runY(w);
      for (let l = 0; l < ws; l++) v[d + l] = XRES[l]!;
    },
  };
}

const names = new Set<string>();
for (const o of Object.values(VOPD_X)) names.add(o.mnemonic);
for (const o of Object.values(VOPD_Y)) names.add(o.mnemonic);
// The instruction's mnemonic is its X op's (vopd.ts codec); Y-only names bind the same way.
define([...names], bindVopd);
