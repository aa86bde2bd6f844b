/**
 * The GFX9 / GFX10.3 legacy geometry path: the hardware VS stage (VGT_SHADER_STAGES_EN.VS_EN =
 * real VS, PRIMGEN_EN = 0) and the parameter cache its `exp paramN` fill, plus what every vertex
 * stage (NGG or VS) hands the rest of the pipeline (pipeline.ts): positions, primitives
 * and a parameter reader the PS launch preloads LDS from (param-cache.ts).
 *
 * VS wave launch (Mesa's hardware-VS argument declarations, radeonsi/RADV, and LLVM's AMDGPUUsage):
 *   PC = SPI_SHADER_PGM_LO/HI_VS; VGPRs (RSRC1_VS.VGPRS + 1) * 4 (wave64) or * 8 (wave32, GFX10.3
 *   VGT_SHADER_STAGES_EN.VS_W32_EN); MODE from RSRC1_VS FLOAT_MODE/DX10_CLAMP/IEEE_MODE.
 *   SGPRs: s0.. SPI_SHADER_USER_DATA_VS_0.. (RSRC2_VS.USER_SGPR | USER_SGPR_MSB << 5), then with
 *   RSRC2_VS.SO_EN the streamout config and write index and one offset per SO_BASEn_EN (streamout
 *   is not modelled: they read 0, amd.vs.streamout-not-modelled), then with SCRATCH_EN the scratch
 *   wave offset (0).
 *   VGPRs up to RSRC1_VS.VGPR_COMP_CNT: GFX9 v0 VertexID, v1 InstanceID, v2 PrimID (0), v3 0;
 *   GFX10.3 v0 VertexID, v1 0 (user VGPR), v2 PrimID (0), v3 InstanceID.
 * Vertex reuse (gpusim's choice, the hardware's reuse depth is not architectural): the draw's
 * primitives are cut, in order, into waves of at most wave-size distinct vertices; inside a wave
 * each index value is shaded once (first-use order, like NGG subgroups), across waves never.
 * Exports: `exp pos0` (SPI_SHADER_POS_FORMAT.POS0_EXPORT_FORMAT must not be SPI_SHADER_NONE) is
 * the clip-space position; pos1..3 (misc vector, clip distances) are accepted and unused (with
 * PA_CL_VS_OUT_CNTL asking for them: amd.pa.vs-out-cntl-not-modelled). The last
 * position export must carry done (else the hardware never frees the position buffer: a hang,
 * amd.vs.no-pos-done). `exp paramN` (N <= SPI_VS_OUT_CONFIG.VS_EXPORT_COUNT) writes the vertex's
 * parameter N into the parameter cache; compressed (compr) exports are f16 pairs.
 */
import type { Diagnostics } from '../../core/diagnostics.js';
import type { Memory } from '../../core/memory.js';
import type { Program } from '../engine/program.js';
import { setExportSink, type ExportEvent } from '../exec/exp.js';
import { Wave, SREG } from '../wave/wave.js';
import { APERTURE } from '../exec/vmem.js';
import type { Pm4Gen } from '../cp/regdb.js';
import type { Primitive } from './primitive-assembly.js';
import type { GfxRegs } from './regs.js';
import { expChannel, laneOn, ParamCache, type VertexOutput } from './param-cache.js';

/** The pipeline services a vertex stage uses (GfxPipeline implements it). */
export interface StageHost {
  readonly gen: Pm4Gen;
  readonly mem: Memory;
  readonly diag: Diagnostics;
  readonly stats: { gsWaves: number; gsInstructions: number; aborted: boolean };
  program(pc: number, waveSize: 32 | 64, vgprs: number, stage: string, where: Record<string, number | string>): Program | null;
  nextWaveId(): number;
  /** Run one stage's waves (all running `program`) on the SQ's scheduler (order, seed, budget, clock). */
  run(waves: readonly Wave[], program: Program, stage?: string): StageRun;
}

/** What a stage's run on the scheduler gave. */
export interface StageRun {
  readonly instructions: number;
  readonly aborted: boolean;
}

interface VsWaveOut {
  readonly verts: number[];
  readonly pos: Float64Array;
  readonly posSet: Uint8Array;
  readonly cache: ParamCache;
  done: boolean;
}

/** Cut primitives into VS waves of at most `maxV` distinct vertices (first-use order). */
export function vsWaves(prims: readonly Primitive[], maxV: number): { verts: number[]; prims: number[][] }[] {
  const out: { verts: number[]; prims: number[][] }[] = [];
  let cur: { verts: number[]; prims: number[][] } | null = null;
  let map = new Map<number, number>();
  for (const p of prims) {
    const fresh = p.v.filter((v, i) => !map.has(v) && p.v.indexOf(v) === i).length;
    if (!cur || cur.verts.length + fresh > maxV) {
      cur = { verts: [], prims: [] };
      out.push(cur);
      map = new Map();
    }
    const c = cur;
    c.prims.push(p.v.map((v) => {
      let l = map.get(v);
      if (l === undefined) {
        l = c.verts.length;
        map.set(v, l);
        c.verts.push(v);
      }
      return l;
    }));
  }
  return out;
}

/** Run the hardware VS for one instance of a draw; null when nothing can be drawn. */
export function runLegacyVs(h: StageHost, regs: GfxRegs, prims: readonly Primitive[], instanceId: number, where: Record<string, number>): VertexOutput | null {
  const gfx10 = h.gen === 'gfx103';
  const w32 = gfx10 && regs.field('VGT_SHADER_STAGES_EN', 'VS_W32_EN') === 1;
  const ws: 32 | 64 = w32 ? 32 : 64;
  const pc = regs.addr256('SPI_SHADER_PGM_LO_VS', 'SPI_SHADER_PGM_HI_VS', 'MEM_BASE');
  const r1 = regs.raw('SPI_SHADER_PGM_RSRC1_VS');
  const r2 = regs.raw('SPI_SHADER_PGM_RSRC2_VS');
  const vgprs = Math.min(256, (regs.field('SPI_SHADER_PGM_RSRC1_VS', 'VGPRS', r1) + 1) * (w32 ? 8 : 4));
  if (regs.enumOf('SPI_SHADER_POS_FORMAT', 'POS0_EXPORT_FORMAT') === 'SPI_SHADER_NONE') {
    h.diag.report({ id: 'amd.vs.pos0-format-none', severity: 'error', where, message: 'SPI_SHADER_POS_FORMAT.POS0_EXPORT_FORMAT = SPI_SHADER_NONE: the VS has no position to export; nothing drawn' });
    return null;
  }
  const prog = h.program(pc, ws, vgprs, 'vertex shader', where);
  if (!prog) return null;
  const user = regs.field('SPI_SHADER_PGM_RSRC2_VS', 'USER_SGPR', r2) | (regs.field('SPI_SHADER_PGM_RSRC2_VS', 'USER_SGPR_MSB', r2) << 5);
  const soEn = regs.field('SPI_SHADER_PGM_RSRC2_VS', 'SO_EN', r2) === 1;
  let soBases = 0;
  for (let i = 0; i < 4; i++) soBases += regs.field('SPI_SHADER_PGM_RSRC2_VS', `SO_BASE${i}_EN`, r2);
  if (soEn) h.diag.report({ id: 'amd.vs.streamout-not-modelled', severity: 'warning', where, message: 'SPI_SHADER_PGM_RSRC2_VS.SO_EN: streamout is not modelled; its SGPRs read 0 and nothing is written to the streamout buffers' });
  const scratch = regs.field('SPI_SHADER_PGM_RSRC2_VS', 'SCRATCH_EN', r2) === 1;
  const comp = regs.field('SPI_SHADER_PGM_RSRC1_VS', 'VGPR_COMP_CNT', r1);
  const mode = (regs.field('SPI_SHADER_PGM_RSRC1_VS', 'FLOAT_MODE', r1) & 0xff) | (regs.field('SPI_SHADER_PGM_RSRC1_VS', 'DX10_CLAMP', r1) << 8) | (regs.field('SPI_SHADER_PGM_RSRC1_VS', 'IEEE_MODE', r1) << 9);
  const params = regs.field('SPI_VS_OUT_CONFIG', 'VS_EXPORT_COUNT') + 1;
  // Per-vertex misc-vector and clip/cull-distance outputs (pos1..3) change rasterization; not modelled.
  const outCntl = regs.raw('PA_CL_VS_OUT_CNTL');
  const used = ['USE_VTX_POINT_SIZE', 'USE_VTX_EDGE_FLAG', 'USE_VTX_KILL_FLAG', 'USE_VTX_RENDER_TARGET_INDX', 'USE_VTX_VIEWPORT_INDX'].filter((f) => regs.field('PA_CL_VS_OUT_CNTL', f, outCntl));
  if (outCntl & 0xffff) used.push('CLIP_DIST_ENA/CULL_DIST_ENA');
  if (used.length) h.diag.report({ id: 'amd.pa.vs-out-cntl-not-modelled', severity: 'warning', where, message: `PA_CL_VS_OUT_CNTL ${used.join(', ')}: per-vertex misc/clip outputs are not modelled; pos1..3 exports are ignored` });

  const groups = vsWaves(prims, ws);
  const outs: VsWaveOut[] = [];
  const list: Wave[] = [];
  const byWave = new Map<Wave, VsWaveOut>();
  groups.forEach((g, gi) => {
    const o: VsWaveOut = { verts: g.verts, pos: new Float64Array(4 * g.verts.length).fill(NaN), posSet: new Uint8Array(g.verts.length), cache: new ParamCache(g.verts.length, params), done: false };
    outs.push(o);
    const w = new Wave({ waveSize: ws, vgprs, pc, sharedBase: APERTURE.SHARED, privateBase: APERTURE.PRIVATE, mode, status: 0 }, h.mem, new Uint8Array(0), { wg: [gi, 0, 0], waveInGroup: 0, id: h.nextWaveId() });
    w.peers = [w];
    let s = 0;
    for (; s < user && s < 106; s++) w.s[s] = regs.raw(`SPI_SHADER_USER_DATA_VS_${s}`);
    if (soEn) s += 2 + soBases; // streamout config, write index, offsets: 0
    if (scratch) w.s[s++] = 0; // scratch wave offset
    const put = (reg: number, lane: number, v: number): void => {
      if (reg < vgprs && reg <= comp) w.v[reg * ws + lane] = v >>> 0;
    };
    for (let l = 0; l < g.verts.length; l++) {
      put(0, l, g.verts[l]!);
      put(gfx10 ? 3 : 1, l, instanceId);
    }
    let lo = 0, hi = 0;
    for (let l = 0; l < g.verts.length; l++) if (l < 32) lo |= 1 << l; else hi |= 1 << (l - 32);
    w.s[SREG.EXEC_LO] = lo >>> 0;
    w.s[SREG.EXEC_HI] = ws === 64 ? hi >>> 0 : 0;
    byWave.set(w, o);
    setExportSink(w, { export: (wv, e) => vsExport(h.diag, wv, e, byWave.get(wv)!, params) });
    list.push(w);
  });
  h.stats.gsWaves += list.length;
  const r = h.run(list, prog);
  h.stats.gsInstructions += r.instructions;
  if (r.aborted) return null;

  let total = 0;
  for (const o of outs) total += o.verts.length;
  const positions = new Float64Array(4 * total);
  const cacheOf = new Int32Array(total);
  const localOf = new Int32Array(total);
  const out: Primitive[] = [];
  let base = 0;
  let pi = 0; // waves take the draw's primitives in order
  outs.forEach((o, oi) => {
    if (!o.done) h.diag.report({ id: 'amd.vs.no-pos-done', severity: 'error', where: { ...where, wave: oi }, message: 'the VS wave ended without a position export carrying done: the hardware never releases its position buffer (a hang); its vertices are used as exported' });
    positions.set(o.pos, 4 * base);
    for (let l = 0; l < o.verts.length; l++) { cacheOf[base + l] = oi; localOf[base + l] = l; }
    for (const local of groups[oi]!.prims) {
      const p = prims[pi++]!;
      const missing = local.find((v) => !o.posSet[v]);
      if (missing !== undefined) {
        h.diag.report({ id: 'amd.vs.vertex-not-exported', severity: 'error', where: { ...where, wave: oi, lane: missing }, message: `VS lane ${missing} (vertex ${o.verts[missing]}) made no pos0 export; primitive ${p.primId} is dropped` });
        continue;
      }
      out.push({ ...p, v: local.map((v) => base + v) });
    }
    base += o.verts.length;
  });
  return {
    positions, prims: out, params,
    param: (v, p, dst) => outs[cacheOf[v]!]!.cache.read(localOf[v]!, p, dst),
  };
}

function vsExport(diag: Diagnostics, w: Wave, e: ExportEvent, o: VsWaveOut, params: number): void {
  const ws = w.waveSize;
  if (e.kind === 'null') return;
  if (e.kind === 'pos') {
    if (e.done) o.done = true;
    if (e.index !== 0) return;
    for (let l = 0; l < o.verts.length && l < ws; l++) {
      if (!laneOn(e, l)) continue;
      for (let c = 0; c < 4; c++) o.pos[4 * l + c] = (e.en >> c) & 1 ? expChannel(e, c, l, ws) : c === 3 ? 1 : 0;
      o.posSet[l] = 1;
    }
    return;
  }
  if (e.kind === 'param') {
    if (e.index >= params) {
      diag.report({ id: 'amd.vs.param-past-export-count', severity: 'error', where: { pc: e.pc, wave: w.id }, message: `exp param${e.index}: SPI_VS_OUT_CONFIG.VS_EXPORT_COUNT allows ${params} parameter(s) (param0..${params - 1}); dropped` });
      return;
    }
    o.cache.store(e, ws, o.verts.length);
    return;
  }
  diag.report({ id: 'amd.exp.target-stage', severity: 'error', where: { pc: e.pc, wave: w.id }, message: `exp ${e.kind}${e.index}: a hardware VS exports positions and parameters only; dropped` });
}
