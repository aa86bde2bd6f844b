/**
 * Draws in the GMEM passes (the GMEM half of issue 19, next to handlers-gfx.ts's sysmem draws):
 * - RM6_GMEM: the render targets are GMEM buffers: RB_MRT[i].BASE_GMEM / RB_DEPTH_BUFFER_BASE_GMEM
 *   in the bin at RB_WINDOW_OFFSET of GRAS_BIN_CONTROL's width, laid out as rb/gmem.ts's
 *   `gmemOffset` (pitch = bin width x cpp x samples); writes are checked against the CCU ranges;
 * - RM6_BINNING: the draw's triangles after setup, as screen boxes, are what the VSC bins.
 */
import { decodeFields, enumName } from '../regs/db.js';
import { Memory } from '../../core/memory.js';
import { fmt6 } from '../rb/fmt6.js';
import { sysmemColor, sysmemDepth, type ColorSurface, type DepthSurface, type Rgba, type RbTargets, type StencilSurface } from '../rb/output.js';
import type { DrawJob } from '../pc/draw.js';
import type { PrimBox } from '../vsc/vsc.js';
import type { CommandProcessor } from './cp.js';
import { arrayLength } from './exec.js';

const GMEM_VIEWS = new WeakMap<CommandProcessor, Memory>();

/** The GMEM bytes as a Memory at address 0 (the sysmem surface code addresses it). */
function gmemView(cp: CommandProcessor): Memory {
  let m = GMEM_VIEWS.get(cp);
  if (!m) {
    m = new Memory();
    m.map(0, cp.gmem!.bytes.length, 'gmem', cp.gmem!.bytes);
    GMEM_VIEWS.set(cp, m);
  }
  return m;
}

function f(cp: CommandProcessor, name: string, field: string): number {
  const o = cp.regsDb.reg(name);
  return decodeFields(cp.regsDb.at(o)!.type, cp.readReg(o), 0, cp.gen)[field] ?? 0;
}

/** Translate bin-relative surfaces: (x, y) on screen -> (x - win.x, y - win.y) in the GMEM buffer. */
function shifted<T extends object>(s: T, wx: number, wy: number): T {
  return new Proxy(s, {
    get(t, k) {
      const v = (t as Record<string | symbol, unknown>)[k];
      if (typeof v !== 'function') return v;
      return (x: number, y: number, ...rest: unknown[]) => (v as (...a: unknown[]) => unknown).call(t, x - wx, y - wy, ...rest);
    },
  });
}

/** The GMEM render targets for a draw in RM6_GMEM. */
export function gmemTargets(cp: CommandProcessor, job: DrawJob, missing: string[]): RbTargets {
  const g = cp.gmem;
  if (!g) {
    missing.push(`no GMEM size known for a${cp.gpuId}`);
    return { colors: [] };
  }
  const binW = f(cp, 'GRAS_BIN_CONTROL', 'BINW');
  const wx = f(cp, 'RB_WINDOW_OFFSET', 'X'), wy = f(cp, 'RB_WINDOW_OFFSET', 'Y');
  if (!binW) missing.push('GRAS_BIN_CONTROL.BINW is 0 in a GMEM pass');
  const samples = job.rb.samples;
  const view = gmemView(cp);
  const colors: (ColorSurface | undefined)[] = [];
  const nMrt = Math.min(f(cp, 'RB_FS_OUTPUT_CNTL1', 'MRT'), arrayLength(cp, 'RB_MRT[%].BASE'));
  const binH = f(cp, 'GRAS_BIN_CONTROL', 'BINH');
  const check = (base: number, ecpp: number, what: string): void => {
    g.beginEvent();
    g.checkWrite(cp, base, binW * binH * ecpp, what);
  };
  for (let i = 0; i < nMrt; i++) {
    const fv = f(cp, `RB_MRT[${i}].BUF_INFO`, 'COLOR_FORMAT');
    const fm = fmt6(fv);
    const swap = f(cp, `RB_MRT[${i}].BUF_INFO`, 'COLOR_SWAP');
    if (!fm || swap > 1) {
      missing.push(`MRT${i}: format ${enumName('a6xx_format', fv, cp.gen)}, swap ${swap} (not modelled)`);
      colors.push(undefined);
      continue;
    }
    const base = cp.readReg(cp.regsDb.reg(`RB_MRT[${i}].BASE_GMEM`)) & ~0xfff;
    check(base, fm.cpp * samples, `GMEM draw MRT${i}`);
    const sw = swap === 1 ? (c: Rgba): Rgba => [c[2], c[1], c[0], c[3]] : (c: Rgba): Rgba => c;
    colors.push(shifted(sysmemColor({ mem: view, base, pitch: binW * fm.cpp * samples, cpp: fm.cpp, samples, tile: 'linear', tile6: cp.tile6 }, fm, sw), wx, wy));
  }
  let depth: DepthSurface | undefined;
  let stencil: StencilSurface | undefined;
  const dfmt = enumName('a6xx_depth_format', f(cp, 'RB_DEPTH_BUFFER_INFO', 'DEPTH_FORMAT'), cp.gen);
  if (dfmt === 'DEPTH6_16' || dfmt === 'DEPTH6_24_8' || dfmt === 'DEPTH6_32') {
    const cpp = dfmt === 'DEPTH6_16' ? 2 : 4;
    const base = cp.readReg(cp.regsDb.reg('RB_DEPTH_BUFFER_BASE_GMEM')) & ~0xfff;
    check(base, cpp * samples, 'GMEM draw depth');
    const d = shifted(sysmemDepth({ mem: view, base, pitch: binW * cpp * samples, cpp, samples, tile: 'linear', tile6: cp.tile6 }, dfmt), wx, wy);
    depth = d;
    if (dfmt === 'DEPTH6_24_8') stencil = d;
  }
  if (f(cp, 'RB_STENCIL_INFO', 'SEPARATE_STENCIL')) missing.push('separate stencil in GMEM (not modelled)');
  return { colors, ...(depth ? { depth } : {}), ...(stencil ? { stencil } : {}) };
}

/**
 * The binning job: each primitive's triangles to one screen box (inclusive pixels, clipped to the
 * job's scissor), at boxes[base + primitive]; `fill` pads primitives without a triangle (clipped,
 * culled, discarded) with empty boxes up to a count.
 */
export function binningJob(job: DrawJob, boxes: PrimBox[], base = 0): DrawJob {
  const s = job.scissor;
  return {
    ...job,
    onTriangle: (v, prim) => {
      const xs = v.map((p) => p.x), ys = v.map((p) => p.y);
      const b = { x0: Math.max(s.x0, Math.floor(Math.min(...xs))), y0: Math.max(s.y0, Math.floor(Math.min(...ys))), x1: Math.min(s.x1, Math.ceil(Math.max(...xs))), y1: Math.min(s.y1, Math.ceil(Math.max(...ys))) };
      if (!(b.x1 >= b.x0 && b.y1 >= b.y0)) return;
      fillBoxes(boxes, base + prim);
      const o = boxes[base + prim];
      boxes[base + prim] = o && o.x1 >= o.x0 ? { x0: Math.min(o.x0, b.x0), y0: Math.min(o.y0, b.y0), x1: Math.max(o.x1, b.x1), y1: Math.max(o.y1, b.y1) } : b;
    },
  };
}

/** Pad `boxes` with empty boxes (x1 < x0) up to `n` entries. */
export function fillBoxes(boxes: PrimBox[], n: number): void {
  while (boxes.length < n) boxes.push({ x0: 0, y0: 0, x1: -1, y1: -1 });
}
