/**
 * DB, the depth/stencil backend: DB_DEPTH_CONTROL (Z_ENABLE, Z_WRITE_ENABLE, ZFUNC, STENCIL_ENABLE,
 * STENCILFUNC[_BF], BACKFACE_ENABLE), DB_STENCIL_CONTROL ops, DB_STENCILREFMASK[_BF], the depth
 * surface DB_Z_INFO (Z_16 unorm or Z_32_FLOAT) at DB_Z_READ_BASE/DB_Z_WRITE_BASE, the stencil
 * surface DB_STENCIL_INFO (STENCIL_8) at DB_STENCIL_READ_BASE/WRITE_BASE, sized by DB_DEPTH_SIZE_XY.
 *
 * Surfaces are linear (gpusim does not model tiling or HTILE): sample s of pixel (x, y) is at
 * base + ((y * width + x) * samples + s) * bytes. Depth is clamped to [0, 1] before the test (the
 * viewport depth range) and stored as round(z * 65535) for Z_16. The test runs per covered sample
 * in rasterization order: before the pixel shader when DB_SHADER_CONTROL allows early Z
 * (decodeZOrder, earlyDepthStencil), otherwise after it (late Z) so exported depth and discards
 * are honoured.
 */
import type { Diagnostics } from '../../core/diagnostics.js';
import type { Memory } from '../../core/memory.js';
import { f32, f32bits } from '../../core/float.js';
import type { GfxRegs } from './regs.js';

export interface StencilFace { func: string; fail: string; zpass: string; zfail: string; ref: number; mask: number; writeMask: number; opVal: number }

export interface DepthState {
  readonly zEnable: boolean;
  readonly zWrite: boolean;
  readonly zFunc: string;
  readonly zFormat: 'Z_16' | 'Z_32_FLOAT' | null;
  readonly zReadVa: number;
  readonly zWriteVa: number;
  readonly stencilEnable: boolean;
  readonly stencilVa: number;
  readonly stencilWriteVa: number;
  readonly front: StencilFace;
  readonly back: StencilFace;
  readonly width: number;
  readonly height: number;
  readonly samples: number;
  /** DB_SHADER_CONTROL.Z_EXPORT_ENABLE: the PS's mrtz export replaces the interpolated depth. */
  readonly zExport: boolean;
}

export function decodeDepthState(r: GfxRegs, samples: number, diag?: Diagnostics): DepthState {
  const dc = r.raw('DB_DEPTH_CONTROL');
  const zf = r.enumOf('DB_Z_INFO', 'FORMAT');
  let zFormat: DepthState['zFormat'] = null;
  if (zf === 'Z_16' || zf === 'Z_32_FLOAT') zFormat = zf;
  else if (zf !== 'Z_INVALID' && zf !== '') {
    diag?.report({ id: 'amd.db.format-unsupported', severity: 'error', where: { DB_Z_INFO: r.raw('DB_Z_INFO') }, message: `DB_Z_INFO.FORMAT ${zf} is not modelled (Z_16, Z_32_FLOAT); depth is off` });
  }
  const stencilFmt = r.enumOf('DB_STENCIL_INFO', 'FORMAT') === 'STENCIL_8';
  const zEnable = r.field('DB_DEPTH_CONTROL', 'Z_ENABLE', dc) === 1 && zFormat !== null;
  const stencilEnable = r.field('DB_DEPTH_CONTROL', 'STENCIL_ENABLE', dc) === 1 && stencilFmt;
  const sc = r.raw('DB_STENCIL_CONTROL');
  const rm = r.raw('DB_STENCILREFMASK');
  const rmBf = r.raw('DB_STENCILREFMASK_BF');
  const E = (reg: string, f: string, v: number): string => r.enumOf(reg, f, v);
  const front: StencilFace = {
    func: E('DB_DEPTH_CONTROL', 'STENCILFUNC', dc), fail: E('DB_STENCIL_CONTROL', 'STENCILFAIL', sc), zpass: E('DB_STENCIL_CONTROL', 'STENCILZPASS', sc), zfail: E('DB_STENCIL_CONTROL', 'STENCILZFAIL', sc),
    ref: rm & 0xff, mask: (rm >>> 8) & 0xff, writeMask: (rm >>> 16) & 0xff, opVal: rm >>> 24,
  };
  const back: StencilFace = r.field('DB_DEPTH_CONTROL', 'BACKFACE_ENABLE', dc)
    ? {
      func: E('DB_DEPTH_CONTROL', 'STENCILFUNC_BF', dc), fail: E('DB_STENCIL_CONTROL', 'STENCILFAIL_BF', sc), zpass: E('DB_STENCIL_CONTROL', 'STENCILZPASS_BF', sc), zfail: E('DB_STENCIL_CONTROL', 'STENCILZFAIL_BF', sc),
      ref: rmBf & 0xff, mask: (rmBf >>> 8) & 0xff, writeMask: (rmBf >>> 16) & 0xff, opVal: rmBf >>> 24,
    }
    : front;
  const sizeReg = r.db.get('DB_DEPTH_SIZE_XY') ? 'DB_DEPTH_SIZE_XY' : 'DB_DEPTH_SIZE'; // GFX9's name
  const size = r.raw(sizeReg);
  return {
    zEnable, zWrite: zEnable && r.field('DB_DEPTH_CONTROL', 'Z_WRITE_ENABLE', dc) === 1, zFunc: E('DB_DEPTH_CONTROL', 'ZFUNC', dc), zFormat,
    zReadVa: r.addr256('DB_Z_READ_BASE', 'DB_Z_READ_BASE_HI', 'BASE_HI'), zWriteVa: r.addr256('DB_Z_WRITE_BASE', 'DB_Z_WRITE_BASE_HI', 'BASE_HI'),
    stencilEnable, stencilVa: r.addr256('DB_STENCIL_READ_BASE', 'DB_STENCIL_READ_BASE_HI', 'BASE_HI'), stencilWriteVa: r.addr256('DB_STENCIL_WRITE_BASE', 'DB_STENCIL_WRITE_BASE_HI', 'BASE_HI'),
    front, back, width: r.field(sizeReg, 'X_MAX', size) + 1, height: r.field(sizeReg, 'Y_MAX', size) + 1, samples,
    zExport: r.field('DB_SHADER_CONTROL', 'Z_EXPORT_ENABLE') === 1,
  };
}

export function compare(func: string, a: number, b: number): boolean {
  switch (func) {
    case 'FRAG_NEVER': return false;
    case 'FRAG_LESS': return a < b;
    case 'FRAG_EQUAL': return a === b;
    case 'FRAG_LEQUAL': return a <= b;
    case 'FRAG_GREATER': return a > b;
    case 'FRAG_NOTEQUAL': return a !== b;
    case 'FRAG_GEQUAL': return a >= b;
    default: return true;
  }
}

function stencilOp(op: string, v: number, f: StencilFace): number {
  switch (op) {
    case 'STENCIL_KEEP': return v;
    case 'STENCIL_ZERO': return 0;
    case 'STENCIL_ONES': return 0xff;
    case 'STENCIL_REPLACE_TEST': return f.ref;
    case 'STENCIL_REPLACE_OP': return f.opVal;
    case 'STENCIL_ADD_CLAMP': return Math.min(255, v + f.opVal);
    case 'STENCIL_SUB_CLAMP': return Math.max(0, v - f.opVal);
    case 'STENCIL_INVERT': return ~v & 0xff;
    case 'STENCIL_ADD_WRAP': return (v + f.opVal) & 0xff;
    case 'STENCIL_SUB_WRAP': return (v - f.opVal) & 0xff;
    case 'STENCIL_AND': return v & f.opVal;
    case 'STENCIL_OR': return v | f.opVal;
    case 'STENCIL_XOR': return v ^ f.opVal;
    case 'STENCIL_NAND': return ~(v & f.opVal) & 0xff;
    case 'STENCIL_NOR': return ~(v | f.opVal) & 0xff;
    case 'STENCIL_XNOR': return ~(v ^ f.opVal) & 0xff;
    default: return v;
  }
}

/** Quantize a depth to the surface format and back (what the test compares). */
export function quantizeDepth(fmt: 'Z_16' | 'Z_32_FLOAT', z: number): number {
  const c = z !== z ? 0 : Math.min(1, Math.max(0, z));
  return fmt === 'Z_16' ? Math.round(c * 65535) / 65535 : f32(f32bits(c));
}

/**
 * Depth/stencil test of one sample; updates the surfaces and returns whether the sample passes
 * (colour is written for passing samples).
 */
export function depthStencilTest(mem: Memory, d: DepthState, x: number, y: number, s: number, z: number, front: boolean): boolean {
  const idx = (y * d.width + x) * d.samples + s;
  let pass = true;
  let stencil = 0;
  const face = front ? d.front : d.back;
  if (d.stencilEnable) {
    stencil = mem.read8(d.stencilVa + idx);
    pass = compare(face.func, face.ref & face.mask, stencil & face.mask);
  }
  let zpass = true;
  let zq = 0;
  if (d.zEnable && d.zFormat) {
    zq = quantizeDepth(d.zFormat, z);
    const stored = d.zFormat === 'Z_16' ? mem.read16(d.zReadVa + idx * 2) / 65535 : f32(mem.read32(d.zReadVa + idx * 4));
    zpass = compare(d.zFunc, zq, stored);
  }
  if (d.stencilEnable) {
    const op = !pass ? face.fail : zpass ? face.zpass : face.zfail;
    const nv = stencilOp(op, stencil, face);
    const w = (stencil & ~face.writeMask) | (nv & face.writeMask);
    if (w !== stencil) mem.write8(d.stencilWriteVa + idx, w & 0xff);
  }
  if (!pass || !zpass) return false;
  if (d.zWrite && d.zFormat) {
    if (d.zFormat === 'Z_16') mem.write16(d.zWriteVa + idx * 2, Math.round(zq * 65535));
    else mem.write32(d.zWriteVa + idx * 4, f32bits(zq));
  }
  return true;
}

/**
 * When the DB tests depth/stencil, from DB_SHADER_CONTROL (the rule table Mesa's radeonsi
 * documents next to its Z_ORDER choice):
 * - DEPTH_BEFORE_SHADER = 1: the hardware forces early Z whatever Z_ORDER says; the test and
 *   the depth/stencil writes happen before the pixel shader, so a later discard or an exported
 *   depth cannot undo them.
 * - Z_ORDER EARLY_Z_THEN_LATE_Z / EARLY_Z_THEN_RE_Z: early Z when the shader cannot change a
 *   sample's depth or coverage (no Z_EXPORT_ENABLE, STENCIL_TEST_VAL_EXPORT_ENABLE,
 *   MASK_EXPORT_ENABLE, KILL_ENABLE, no DB_ALPHA_TO_MASK), otherwise late.
 * - LATE_Z / RE_Z: late (Re-Z's pre-shader test writes nothing, so it only culls invocations the
 *   late test would reject; gpusim runs them).
 * Early Z runs in rasterization order before any pixel shader wave of the draw is launched;
 * samples that fail leave the coverage, quads left without coverage launch no lanes.
 */
export interface ZOrder {
  readonly early: boolean;
  /** Why (for statistics and diagnostics). */
  readonly reason: 'depth-before-shader' | 'early-z' | 'late-z' | 're-z' | 'shader-modifies-coverage';
  readonly killEnable: boolean;
  readonly zExportEnable: boolean;
}

export function decodeZOrder(r: GfxRegs): ZOrder {
  const c = r.raw('DB_SHADER_CONTROL');
  const f = (name: string): number => r.field('DB_SHADER_CONTROL', name, c);
  const killEnable = f('KILL_ENABLE') === 1;
  const zExportEnable = f('Z_EXPORT_ENABLE') === 1;
  if (f('DEPTH_BEFORE_SHADER') === 1) return { early: true, reason: 'depth-before-shader', killEnable, zExportEnable };
  const order = r.enumOf('DB_SHADER_CONTROL', 'Z_ORDER', c);
  if (order === 'LATE_Z') return { early: false, reason: 'late-z', killEnable, zExportEnable };
  if (order === 'RE_Z') return { early: false, reason: 're-z', killEnable, zExportEnable };
  const a2m = r.db.get('DB_ALPHA_TO_MASK') ? r.field('DB_ALPHA_TO_MASK', 'ALPHA_TO_MASK_ENABLE') === 1 : false;
  const modifies = zExportEnable || killEnable || f('STENCIL_TEST_VAL_EXPORT_ENABLE') === 1 || f('MASK_EXPORT_ENABLE') === 1 || a2m;
  return modifies ? { early: false, reason: 'shader-modifies-coverage', killEnable, zExportEnable } : { early: true, reason: 'early-z', killEnable, zExportEnable };
}

/**
 * Whether the DB counts samples that pass the depth/stencil test for occlusion queries
 * (DB_COUNT_CONTROL): ZPASS_ENABLE != 0 and, where the field exists (GFX9, GFX10.3), not
 * ZPASS_INCREMENT_DISABLE, as radeonsi/radv program it (0 or ZPASS_INCREMENT_DISABLE when no
 * query is active, PERFECT_ZPASS_COUNTS | SAMPLE_RATE | ZPASS_ENABLE | SLICE_*_ENABLE while one
 * is). The model counts every passing sample: a perfect count at the sample rate.
 */
export function zpassCounting(r: GfxRegs): boolean {
  const c = r.raw('DB_COUNT_CONTROL');
  const disable = r.db.get('DB_COUNT_CONTROL')?.fields.some((f) => f.name === 'ZPASS_INCREMENT_DISABLE') ? r.field('DB_COUNT_CONTROL', 'ZPASS_INCREMENT_DISABLE', c) : 0;
  return disable === 0 && r.field('DB_COUNT_CONTROL', 'ZPASS_ENABLE', c) !== 0;
}

/** The render backend owning pixel (x, y): 8x8-pixel tiles spread over the RBs (a model choice). */
export function renderBackendOf(x: number, y: number, rbs: number): number {
  return ((x >> 3) + 3 * (y >> 3)) % rbs;
}

/**
 * The early depth/stencil pass over a draw's quads (rasterization order): tests and writes every
 * covered sample, returns the quads with the failing samples removed (quads with no sample left
 * are dropped). `zAt` gives the interpolated depth of sample s of pixel p of a quad.
 */
export function earlyDepthStencil<Q extends { readonly x: number; readonly y: number; readonly coverage: Uint16Array; readonly sp: { readonly front: boolean } }>(
  mem: Memory, d: DepthState, quads: readonly Q[], samples: number, zAt: (q: Q, p: number, s: number) => number,
): { quads: Q[]; samplesKilled: number } {
  const out: Q[] = [];
  let killed = 0;
  for (const q of quads) {
    let cov: Uint16Array | null = null;
    for (let p = 0; p < 4; p++) {
      const m = q.coverage[p]!;
      if (!m) continue;
      const x = q.x + (p & 1), y = q.y + (p >> 1);
      let keep = m;
      for (let s = 0; s < samples; s++) {
        if (!((m >>> s) & 1)) continue;
        if (x >= d.width || y >= d.height || !depthStencilTest(mem, d, x, y, s, zAt(q, p, s), q.sp.front)) {
          keep &= ~(1 << s);
          killed++;
        }
      }
      if (keep !== m) (cov ??= q.coverage.slice())[p] = keep;
    }
    if (cov === null) out.push(q);
    else if (cov.some((m) => m !== 0)) out.push({ ...q, coverage: cov });
  }
  return { quads: out, samplesKilled: killed };
}
