/**
 * GFX9/GFX10.3 parameter interpolation (VINTRP and its VOP3 forms).
 *
 * Each quad of a pixel-shader wave interpolates one primitive's attribute from LDS, where the
 * SPI stored, per primitive and attribute channel, P0 (the vertex-0 value), P10 = P1 - P0 and
 * P20 = P2 - P0. The LDS layout is not specified by the ISA; gpusim uses one layout for every
 * generation, ldsdir-vinterp.ts's PARAM_LAYOUT, through `paramAddr` below (a front end preloading LDS
 * calls the same function). M0 = {new_prim_mask, lds_param_offset[15:0]}: the base is
 * M0[15:0]; GFX9/GFX10 keep a 15-bit new_prim_mask in M0[30:16] for quads 1..15 (quad 0 always
 * starts primitive 0, so quad q's bit is M0 bit 15 + q); GFX11's lds_param_load reads quad q at
 * bit 16 + q (`NEW_PRIM_SHIFT`). A quad's primitive is the number of set bits for quads 1..q.
 *
 * Semantics (Vega / RDNA2 ISA guides; I/J from the I/J VGPR, fused multiply-add, one rounding):
 * - v_interp_p1_f32:   D = P10 * I + P0
 * - v_interp_p2_f32:   D = P20 * J + D
 * - v_interp_mov_f32:  D = P10, P20 or P0 (the vsrc parameter)
 * - v_interp_p1ll_f16: D.f32 = P10.f16 * I.f32 + P0.f16
 * - v_interp_p1lv_f16: D.f32 = P10.f16 * I.f32 + S2.f16 (the low half of the src2 VGPR)
 * - v_interp_p2_f16 (and GFX9's v_interp_p2_legacy_f16): D.f16 = P20.f16 * J.f32 + S2.f32
 * The f16 forms read the LDS dword's low half, or its high half with `high` (attr_word). VOP3
 * forms take abs/neg on I/J and src2, omod and clamp. An f16 result replaces the low half of D;
 * GFX9 zeroes the high half, GFX10 keeps it. Only lanes enabled in EXEC are written.
 * The semantics are bound under `<name>@vintrp` (target/normalize.ts renames VINTRP-encoded
 * instructions), since GFX11's VINTERP v_interp_p2_f32 has the same name and other operands.
 * Diagnostics: `amd.vintrp.lds-out-of-range` (a read past the wave's LDS returns 0); VGPR ranges
 * as everywhere (gfx11.vgpr.*-out-of-range).
 */
import type { Wave } from '../wave/wave.js';
import { HWREG, SREG } from '../wave/wave.js';
import type { ExecEnv } from '../engine/env.js';
import { define, type Finding } from '../engine/registry.js';
import { diagAt } from './operands.js';
import { PARAM_LAYOUT } from './ldsdir-vinterp.js';
import { EXACT, f16, f32, flushF16, flushF32, roundF16, roundF32, twoSum } from '../../core/float.js';

/** M0 bit of quad q's new-primitive flag is NEW_PRIM_SHIFT[gfx] + q (q >= 1). */
export const NEW_PRIM_SHIFT: Readonly<Record<9 | 10 | 11, number>> = { 9: 15, 10: 15, 11: 16 };

/** Which P a vertex slot is: 0 P0, 1 P10, 2 P20 (PARAM_LAYOUT order). */
export type ParamVertex = 0 | 1 | 2;

/** Byte address in LDS of channel `chan` of attribute `attr`'s P (vertex slot) for primitive `prim`. */
export function paramAddr(base: number, prim: number, attr: number, vertex: ParamVertex, chan: number): number {
  return base + prim * PARAM_LAYOUT.primStride + attr * 48 + vertex * 16 + chan * 4;
}

/**
 * The M0 (PRIM_MASK SGPR) value for a wave whose quad q starts a new primitive when bit q of
 * `newPrimQuads` is set (bit 0 is implied), with lds_param_offset `base`.
 */
export function primMaskM0(gfx: 9 | 10 | 11, newPrimQuads: number, base = 0): number {
  let m = base & 0xffff;
  for (let q = 1; q < 16; q++) if ((newPrimQuads >>> q) & 1) m |= 1 << (NEW_PRIM_SHIFT[gfx] + q);
  return m >>> 0;
}

/** The primitive of quad `quad` under M0. */
export function primOfQuad(gfx: 9 | 10 | 11, m0: number, quad: number): number {
  let p = 0;
  const sh = NEW_PRIM_SHIFT[gfx];
  for (let q = 1; q <= quad && q < 16; q++) p += (m0 >>> (sh + q)) & 1;
  return p;
}

type Kind = 'p1' | 'p2' | 'mov' | 'p1ll' | 'p1lv' | 'p2f16';

const MOV_VERTEX: readonly ParamVertex[] = [1, 2, 0]; // p10, p20, p0

const on = (w: Wave, l: number): boolean => (l < 32 ? ((w.s[SREG.EXEC_LO]! >>> l) & 1) === 1 : ((w.s[SREG.EXEC_HI]! >>> (l - 32)) & 1) === 1);

function vintrp(name: string, kind: Kind): void {
  // '@vintrp': target/normalize.ts renames VINTRP-encoded instructions (GFX11's VINTERP ops share the names).
  define(`${name}@vintrp`, (inst, env: ExecEnv) => {
    const findings: Finding[] = [];
    const f = inst.fields;
    const ws = env.waveSize;
    const vg = env.vgprs;
    const gfx = env.space.gfx;
    const vop3 = inst.variant === 'e64';
    const vdst = f.vdst!;
    const okDst = vdst < vg;
    if (!okDst) findings.push({ id: 'gfx11.vgpr.dst-out-of-range', message: `${inst.mnemonic}: destination v${vdst} is past the ${vg} allocated VGPRs; the instruction is ignored (NOP)` });
    const vrow = (r: number): number => {
      if (r >= vg) {
        findings.push({ id: 'gfx11.vgpr.src-out-of-range', message: `${inst.mnemonic}: source v${r} is past the ${vg} allocated VGPRs; the hardware reads VGPR0` });
        return 0;
      }
      return r * ws;
    };
    // I/J (or the mov parameter), and src2 of the 3-source forms
    const param = kind === 'mov' ? (vop3 ? f.src1! : f.vsrc!) : 0;
    const ij = kind === 'mov' ? -1 : vrow(vop3 ? f.src1! - 256 : f.vsrc!);
    const s2 = kind === 'p1lv' || kind === 'p2f16' ? vrow(f.src2! - 256) : -1;
    const abs = f.abs ?? 0;
    const neg = f.neg ?? 0;
    const clamp = f.clamp === 1;
    const omod = [1, 2, 4, 0.5][f.omod ?? 0]!;
    const half = f.high === 1 ? 16 : 0;
    const f16in = kind === 'p1ll' || kind === 'p1lv' || kind === 'p2f16';
    const f16out = kind === 'p2f16';
    const zeroHi = gfx === 9;
    const d = vdst * ws;
    const attr = f.attr!;
    const chan = f.attr_chan!;
    const vtx: ParamVertex = kind === 'mov' ? MOV_VERTEX[param] ?? 0 : kind === 'p2' || kind === 'p2f16' ? 2 : 1;
    const src = (x: number, k: number): number => {
      if ((abs >> k) & 1) x = Math.abs(x);
      return (neg >> k) & 1 ? -x : x;
    };
    return {
      cls: 'valu',
      findings,
      run: (w) => {
        if (!okDst) return;
        const m0 = w.s[SREG.M0]!;
        const base = m0 & 0xffff;
        const m = w.hw[HWREG.MODE]!;
        const rm = f16out ? (m >>> 2) & 3 : m & 3;
        const fin32 = ((m >>> 4) & 1) === 0;
        const fin16 = ((m >>> 6) & 1) === 0;
        const fout = f16out ? ((m >>> 6) & 2) === 0 : ((m >>> 4) & 2) === 0;
        const v = w.v;
        const lds = w.ldsView;
        const len = w.lds.length;
        let warned = false;
        let n = 0;
        const ld = (a: number): number => {
          if (a + 4 > len) {
            if (!warned) diagAt(env, w, w.pc - inst.size, 'amd.vintrp.lds-out-of-range', `${inst.mnemonic}: LDS address 0x${a.toString(16)} is past the ${len}-byte allocation; reads 0`);
            warned = true;
            return 0;
          }
          return lds.getUint32(a, true);
        };
        const p16 = (bits: number): number => {
          let h = (bits >>> half) & 0xffff;
          if (fin16) h = flushF16(h);
          return f16(h);
        };
        const p32 = (bits: number): number => f32(fin32 ? flushF32(bits >>> 0) : bits >>> 0);
        let quad = -1;
        let prim = 0;
        for (let l = 0; l < ws; l++) {
          if (!on(w, l)) continue;
          n++;
          if (l >> 2 !== quad) {
            quad = l >> 2;
            prim = primOfQuad(gfx, m0, quad);
          }
          const pa = paramAddr(base, prim, attr, vtx, chan);
          if (kind === 'mov') {
            v[d + l] = ld(pa);
            continue;
          }
          const x1 = src(p32(v[ij + l]!), 1);
          let a: number;
          let b: number;
          if (kind === 'p1' || kind === 'p2') {
            a = p32(ld(pa));
            b = kind === 'p1' ? p32(ld(paramAddr(base, prim, attr, 0, chan))) : p32(v[d + l]!);
          } else {
            a = p16(ld(pa));
            if (kind === 'p1ll') b = p16(ld(paramAddr(base, prim, attr, 0, chan)));
            else if (kind === 'p1lv') {
              let h = v[s2 + l]! & 0xffff;
              if (fin16) h = flushF16(h);
              b = src(f16(h), 2);
            } else b = src(p32(v[s2 + l]!), 2);
          }
          const s = twoSum(a * x1 * omod, b * omod);
          const e = EXACT[0]!;
          let r: number;
          if (f16out) {
            if (s !== s) r = 0xfe00; // the default NaN (as ldsdir-vinterp.ts)
            else {
              r = roundF16(s, e, rm);
              if (fout) r = flushF16(r);
              if (clamp) r = r >>> 15 ? 0 : r > 0x3c00 ? 0x3c00 : r;
            }
            v[d + l] = zeroHi ? r : ((v[d + l]! & 0xffff0000) | r) >>> 0;
          } else {
            if (s !== s) r = 0xffc00000;
            else {
              r = roundF32(s, e, rm);
              if (fout) r = flushF32(r);
              if (clamp) r = r >>> 31 ? 0 : r > 0x3f800000 ? 0x3f800000 : r;
            }
            v[d + l] = r >>> 0;
          }
        }
        w.laneOps += n;
      },
    };
  });
}

vintrp('v_interp_p1_f32', 'p1');
vintrp('v_interp_p2_f32', 'p2');
vintrp('v_interp_mov_f32', 'mov');
vintrp('v_interp_p1ll_f16', 'p1ll');
vintrp('v_interp_p1lv_f16', 'p1lv');
vintrp('v_interp_p2_f16', 'p2f16');
vintrp('v_interp_p2_legacy_f16', 'p2f16');
