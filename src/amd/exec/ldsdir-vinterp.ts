/**
 * GFX11 LDSDIR and VINTERP semantics.
 *
 * LDSDIR:
 * - lds_direct_load vdst: reads one value from LDS at the byte address M0[15:0] with the data
 *   type M0[18:16] (0 u8, 1 u16, 2 b32, 4 i8, 5 i16; 3/6/7 are reserved — read as b32 and
 *   diagnosed, gfx11.ldsdir.bad-type) and writes it to vdst in every active lane. Reading past
 *   the wave's LDS allocation returns 0 (gfx11.ldsdir.out-of-range).
 * - lds_param_load vdst, attrN.c: pixel-shader parameter load. Each quad reads one primitive's
 *   attribute channel: lane 0 of the quad receives P0, lane 1 P10 (P1 - P0), lane 2 P20
 *   (P2 - P0), lane 3 0 — the layout the v_interp_* ops read. The primitive of quad q is the
 *   number of set bits of new_prim_mask (M0[31:17], bit 16+q for quad q >= 1; quad 0 always
 *   starts primitive 0) among quads 1..q. The LDS layout of the parameter data is written by the
 *   SPI and not specified by the ISA; gpusim uses PARAM_LAYOUT: base = M0[15:0] (lds_param_offset),
 *   primitive p at base + p * primStride, attribute a at + a * 48, vertex value Pv (v = 0, 10, 20)
 *   at + v' * 16 (v' = 0, 1, 2), channel c at + c * 4 — so a graphics front end that fills LDS the
 *   same way gets the ISA's per-lane results.
 * Both only write lanes enabled in EXEC (the seed: skipped when EXEC == 0).
 *
 * VINTERP (RDNA3 ISA pseudocode; quad-relative reads of S0 and S2, P0 in lane 0 of the quad):
 * - v_interp_p10_f32:  D = fma(S0[quad lane 1], S1, S2[quad lane 0])   (P10 * I + P0)
 * - v_interp_p2_f32:   D = fma(S0[quad lane 2], S1, S2)                 (P20 * J + tmp)
 * - v_interp_p10_f16_f32: as p10 with S0/S2 f16 halves (op_sel[0], op_sel[2]), S1 f32, D f32
 * - v_interp_p2_f16_f32:  as p2 with S0 an f16 half (op_sel[0]), S1/S2 f32, D an f16 half (op_sel[3])
 * - *_rtz_*: round toward zero instead of MODE's rounding.
 * neg[k] negates source k; clamp clamps to [0, 1]. wait_exp is a hazard hint (no semantics here).
 */
import type { Instruction } from '../isa/types.js';
import type { Wave } from '../wave/wave.js';
import { HWREG, SREG } from '../wave/wave.js';
import type { ExecEnv } from '../engine/env.js';
import { define, type Finding } from '../engine/registry.js';
import { diagAt, sread32 } from './operands.js';
import { EXACT, f16, f32, flushF16, flushF32, roundF16, roundF32, twoSum } from '../../core/float.js';

/** gpusim's model of the SPI's parameter layout in LDS (see the file comment). */
export const PARAM_LAYOUT = { primStride: 32 * 48 };

function vdstOk(env: ExecEnv, inst: Instruction, vdst: number, findings: Finding[]): boolean {
  if (vdst >= env.vgprs) {
    findings.push({ id: 'gfx11.vgpr.dst-out-of-range', message: `${inst.mnemonic}: destination v${vdst} is past the ${env.vgprs} allocated VGPRs; the instruction is ignored (NOP)` });
    return false;
  }
  return true;
}

const on = (w: Wave, l: number): boolean => (l < 32 ? ((w.s[SREG.EXEC_LO]! >>> l) & 1) === 1 : ((w.s[SREG.EXEC_HI]! >>> (l - 32)) & 1) === 1);

define('lds_direct_load', (inst, env) => {
  const findings: Finding[] = [];
  const vdst = inst.fields.vdst!;
  const ok = vdstOk(env, inst, vdst, findings);
  const ws = env.waveSize;
  const d = vdst * ws;
  return {
    cls: 'lds',
    findings,
    run: (w) => {
      if (!ok) return;
      const m0 = w.s[SREG.M0]!;
      const addr = m0 & 0xffff;
      const type = (m0 >>> 16) & 7;
      const size = type === 0 || type === 4 ? 1 : type === 1 || type === 5 ? 2 : 4;
      const pc = w.pc - inst.size;
      if (type === 3 || type > 5) diagAt(env, w, pc, 'gfx11.ldsdir.bad-type', `lds_direct_load: M0[18:16] = ${type} is not a data type (0 u8, 1 u16, 2 b32, 4 i8, 5 i16); read as b32`);
      let val = 0;
      if (addr + size > w.lds.length) diagAt(env, w, pc, 'gfx11.ldsdir.out-of-range', `lds_direct_load: LDS address 0x${addr.toString(16)} is past the ${w.lds.length}-byte allocation; reads 0`);
      else {
        const dv = w.ldsView;
        val = type === 0 ? dv.getUint8(addr) : type === 1 ? dv.getUint16(addr, true) : type === 4 ? dv.getInt8(addr) : type === 5 ? dv.getInt16(addr, true) : dv.getUint32(addr, true);
      }
      const v = w.v;
      let n = 0;
      for (let l = 0; l < ws; l++) if (on(w, l)) (v[d + l] = val >>> 0), n++;
      w.laneOps += n;
    },
  };
});

define('lds_param_load', (inst, env) => {
  const findings: Finding[] = [];
  const f = inst.fields;
  const vdst = f.vdst!;
  const ok = vdstOk(env, inst, vdst, findings);
  const ws = env.waveSize;
  const d = vdst * ws;
  const attrOff = f.attr! * 48 + f.attr_chan! * 4;
  return {
    cls: 'lds',
    findings,
    run: (w) => {
      if (!ok) return;
      const m0 = w.s[SREG.M0]!;
      const base = m0 & 0xffff;
      const v = w.v;
      let prim = 0;
      let warned = false;
      let n = 0;
      for (let q = 0; q < ws / 4; q++) {
        if (q > 0 && q < 16 && ((m0 >>> (16 + q)) & 1) === 1) prim++;
        const at = base + prim * PARAM_LAYOUT.primStride + attrOff;
        for (let i = 0; i < 4; i++) {
          const l = q * 4 + i;
          if (!on(w, l)) continue;
          n++;
          if (i === 3) {
            v[d + l] = 0;
            continue;
          }
          const a = at + i * 16;
          if (a + 4 > w.lds.length) {
            if (!warned) diagAt(env, w, w.pc - inst.size, 'gfx11.ldsdir.out-of-range', `lds_param_load: LDS address 0x${a.toString(16)} is past the ${w.lds.length}-byte allocation; reads 0`);
            warned = true;
            v[d + l] = 0;
          } else v[d + l] = w.ldsView.getUint32(a, true);
        }
      }
      w.laneOps += n;
    },
  };
});

// ---------------------------------------------------------------------------------------------

type Kind = 'p10' | 'p2';
/** Per-lane results, written after every lane has read its sources. */
const RES = new Uint32Array(64);

function vinterp(name: string, kind: Kind, f16in: boolean, rtz: boolean): void {
  define(name, (inst, env) => {
    const findings: Finding[] = [];
    const f = inst.fields;
    const vdst = f.vdst!;
    const ok = vdstOk(env, inst, vdst, findings);
    const ws = env.waveSize;
    const vg = env.vgprs;
    const opsel = f.op_sel ?? 0;
    const neg = f.neg ?? 0;
    const clamp = f.clamp === 1;
    // Sources: VGPR rows (out of range -> VGPR0), or a uniform special value.
    const row = (k: number): number => {
      const e = [f.src0!, f.src1!, f.src2!][k]!;
      if (e < 256) return -1;
      let r = e - 256;
      if (r >= vg) {
        findings.push({ id: 'gfx11.vgpr.src-out-of-range', message: `${inst.mnemonic}: source v${r} is past the ${vg} allocated VGPRs; the hardware reads VGPR0` });
        r = 0;
      }
      return r * ws;
    };
    const rows = [row(0), row(1), row(2)];
    const reads = [f.src0!, f.src1!, f.src2!].map((e) => (e < 256 ? sread32(e, undefined) : null));
    const d = vdst * ws;
    const f16out = f16in && kind === 'p2';
    const dstHi = ((opsel >> 3) & 1) === 1;
    // Per source: is it an f16 half, and which half.
    const isH = [f16in, false, f16in && kind === 'p10'];
    const hiSel = [(opsel & 1) * 16, ((opsel >> 1) & 1) * 16, ((opsel >> 2) & 1) * 16];
    const laneOf = [kind === 'p10' ? 1 : 2, -1, kind === 'p10' ? 0 : -1];
    return {
      cls: 'valu',
      findings,
      run: (w) => {
        if (!ok) return;
        const m = w.hw[HWREG.MODE]!;
        const rm = rtz ? 3 : f16out ? (m >>> 2) & 3 : m & 3;
        const fin32 = (((m >>> 4) & 3) & 1) === 0;
        const fin16 = (((m >>> 6) & 3) & 1) === 0;
        const fout = f16out ? (((m >>> 6) & 3) & 2) === 0 : (((m >>> 4) & 3) & 2) === 0;
        const v = w.v;
        let n = 0;
        for (let l = 0; l < ws; l++) {
          if (!on(w, l)) continue;
          n++;
          let x0 = 0, x1 = 0, x2 = 0;
          for (let k = 0; k < 3; k++) {
            const rd = reads[k];
            const src = laneOf[k]! < 0 ? l : (l & ~3) | laneOf[k]!;
            let bits = rd ? rd(w) : v[rows[k]! + src]!;
            let x: number;
            if (isH[k]) {
              bits = (bits >>> hiSel[k]!) & 0xffff;
              if (fin16) bits = flushF16(bits);
              x = f16(bits);
            } else {
              if (fin32) bits = flushF32(bits >>> 0);
              x = f32(bits >>> 0);
            }
            if ((neg >> k) & 1) x = -x;
            if (k === 0) x0 = x;
            else if (k === 1) x1 = x;
            else x2 = x;
          }
          const s = twoSum(x0 * x1, x2);
          const e = EXACT[0]!;
          let r: number;
          if (f16out) {
            if (s !== s) r = 0xfe00;
            else {
              r = roundF16(s, e, rm);
              if (fout) r = flushF16(r);
              if (clamp) r = r >>> 15 ? 0 : r > 0x3c00 ? 0x3c00 : r;
            }
            RES[l] = r;
          } else {
            if (s !== s) r = 0xffc00000;
            else {
              r = roundF32(s, e, rm);
              if (fout) r = flushF32(r);
              if (clamp) r = r >>> 31 ? 0 : r > 0x3f800000 ? 0x3f800000 : r;
            }
            RES[l] = r >>> 0;
          }
        }
        // all lanes read (quad-relative) before any writes
        for (let l = 0; l < ws; l++) {
          if (!on(w, l)) continue;
          const r = RES[l]!;
          if (f16out) {
            const old = v[d + l]!;
            v[d + l] = dstHi ? ((old & 0xffff) | (r << 16)) >>> 0 : ((old & 0xffff0000) | r) >>> 0;
          } else v[d + l] = r;
        }
        w.laneOps += n;
      },
    };
  });
}
vinterp('v_interp_p10_f32', 'p10', false, false);
vinterp('v_interp_p2_f32', 'p2', false, false);
vinterp('v_interp_p10_f16_f32', 'p10', true, false);
vinterp('v_interp_p2_f16_f32', 'p2', true, false);
vinterp('v_interp_p10_rtz_f16_f32', 'p10', true, true);
vinterp('v_interp_p2_rtz_f16_f32', 'p2', true, true);
