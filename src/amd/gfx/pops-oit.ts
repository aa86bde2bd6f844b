/**
 * The order-independent-transparency / programmable-blending scene of issue 6 on real machine
 * code: many overlapping translucent primitives whose pixel shader read-modify-writes a per-sample
 * storage image in its ordered section with a non-commutative blend (v * 31 + primitive + 1). With
 * POPS the image equals a serial primitive-order reference whatever the scheduler does.
 *
 * The pixel shader's arguments as this scene's runner loads them (the draw pipeline's own PS input
 * layout is the pipeline's business; POPS only needs COLLISION_WAVEID and INTRAWAVE_COLLISION):
 *   s0 COLLISION_WAVEID, s5 INTRAWAVE_COLLISION, s[6:7] image VA, s8 samples of the draw,
 *   s11 bytes per sample plane, v0 byte offset of the lane's pixel in a plane, v1 coverage mask,
 *   v2 primitive index; EXEC = covered lanes.
 * The image is stored as 8 sample planes (slot = sample * pixels + pixel), so draws with different
 * sample counts share it (POPS orders by sample index only) and a 128-byte cache line holds 32
 * pixels of a row: it spans two 16-pixel packer tiles, so waves of different packers, which run
 * their ordered sections concurrently, share lines.
 */
import { Diagnostics } from '../../core/diagnostics.js';
import { Memory } from '../../core/memory.js';
import type { IsaTarget } from '../isa/target.js';
import { HWREG, SREG, STATUS } from '../wave/wave.js';
import { decodePopsDraw, setField } from './pops-config.js';
import type { PopsChip } from './pops-config.js';
import { POPS_ENUMS } from './pops-regs.gen.js';
import type { PopsDrawConfig, PopsGen } from './pops-config.js';
import { PopsUnit } from './pops.js';
import type { PopsDrawStats, PopsQuad } from './pops.js';
import { POPS_ENTER, POPS_EXIT } from './pops-asm.js';
import { assembleWithLabels, popsRng, runPopsWaves } from './pops-run.js';
import type { PopsRunResult, PopsTrace, PsLaunch } from './pops-run.js';
import type { WaveTimeline } from '../sq/timeline.js';
import { PopsCaches, popsCacheShape } from './pops-cache.js';
import type { PopsCacheStats } from './pops-cache.js';

export interface OitDraw {
  /** Rasterization samples (1, 2, 4, 8). */
  readonly samples: number;
  readonly interlock: 'pixel' | 'sample';
  /** DB_SHADER_CONTROL.PRIMITIVE_ORDERED_PIXEL_SHADER (default on). */
  readonly pops?: boolean;
  /** Load INTRAWAVE_COLLISION (GFX9-10.3). */
  readonly intrawave?: boolean;
  /**
   * DB_DFSM_CONTROL.POPS_DRAIN_PS_ON_OVERLAP where the chip needs it (Vega10/Raven with 8 or more
   * samples; default on); false leaves the workaround out.
   */
  readonly drain?: boolean;
}

/**
 * Shader variants: the correct one and the documented mistakes.
 * - no-wait: the entering sequence removed;
 * - plain-first-read: the first read of the ordered section without GLC DLC: a CU's L0 (or its
 *   array's GL1) may hold the line from before another CU's store reached L2 (wrong);
 * - plain-last-write: the last write without GLC DLC: still right, the vector L0 and the GL1 are
 *   write-through (a store is in L2 once its counter says it completed; pops-cache.ts);
 * - first-read-glc: the first read with GLC but no DLC: right on GFX11 (GLC bypasses L0 and GL1,
 *   what ACO emits) and GFX9 (no GL1), wrong on GFX10.3 (the array's GL1 may be stale);
 * - invalidate-first-read: a plain first read after the acquire's cache invalidations (GFX10+:
 *   buffer_gl1_inv, buffer_gl0_inv as LLVM's memory model acquires; GFX9: buffer_wbinvl1_vol): right;
 *   gl0-inv-only / gl1-inv-only (GFX10+): one of the two left out: wrong;
 * - no-exit-wait: the exit does not await the memory counters;
 * - all-coherent: every access GLC DLC (also correct; the seed says only first and last need it);
 * - load-at-exit (GFX10+ global): after its last store each pass re-reads the value into v6 (as a
 *   tail that uses the per-pixel data after the ordered section would), and the exit awaits
 *   VS_CNT but not VM_CNT: the load is outstanding when overlapping waves resume, s_waitcnt
 *   vmcnt(0) follows the exit; load-at-exit-awaited is the same with VM_CNT awaited (correct).
 */
export type OitVariant = 'correct' | 'no-wait' | 'plain-first-read' | 'plain-last-write' | 'first-read-glc' | 'invalidate-first-read' | 'gl0-inv-only' | 'gl1-inv-only'
  | 'no-exit-wait' | 'all-coherent' | 'load-at-exit' | 'load-at-exit-awaited';

const log2 = (n: number): number => 31 - Math.clz32(n);

/** Register values a driver programs for a POPS draw (correct ones). */
export function oitDrawRegs(gen: PopsGen, d: OitDraw, chip: PopsChip = 'other'): Record<string, number> {
  const pops = d.pops ?? true;
  const gran = d.interlock === 'pixel' ? 0 : log2(d.samples);
  let dbsc = setField(gen, 'DB_SHADER_CONTROL', 'PRIMITIVE_ORDERED_PIXEL_SHADER', pops ? 1 : 0);
  if (gen === 'gfx11') {
    dbsc = setField(gen, 'DB_SHADER_CONTROL', 'OVERRIDE_INTRINSIC_RATE_ENABLE', 1, dbsc);
    dbsc = setField(gen, 'DB_SHADER_CONTROL', 'OVERRIDE_INTRINSIC_RATE', gran, dbsc);
  } else {
    dbsc = setField(gen, 'DB_SHADER_CONTROL', 'POPS_OVERLAP_NUM_SAMPLES', gran, dbsc);
  }
  const iw = d.intrawave && gen !== 'gfx11' ? 1 : 0;
  let rsrc = setField(gen, 'SPI_SHADER_PGM_RSRC2_PS', 'LOAD_COLLISION_WAVEID', 1);
  rsrc = setField(gen, 'SPI_SHADER_PGM_RSRC2_PS', 'LOAD_INTRAWAVE_COLLISION', iw, rsrc);
  let pasc = setField(gen, 'PA_SC_SHADER_CONTROL', 'LOAD_COLLISION_WAVEID', 1);
  pasc = setField(gen, 'PA_SC_SHADER_CONTROL', 'LOAD_INTRAWAVE_COLLISION', iw, pasc);
  let aa = setField(gen, 'PA_SC_AA_CONFIG', 'MSAA_NUM_SAMPLES', log2(d.samples));
  aa = setField(gen, 'PA_SC_AA_CONFIG', 'MSAA_EXPOSED_SAMPLES', log2(d.samples), aa);
  return {
    DB_SHADER_CONTROL: dbsc, SPI_SHADER_PGM_RSRC2_PS: rsrc, PA_SC_SHADER_CONTROL: pasc, PA_SC_AA_CONFIG: aa,
    DB_Z_INFO: setField(gen, 'DB_Z_INFO', 'NUM_SAMPLES', log2(d.samples)),
    SPI_SHADER_COL_FORMAT: setField(gen, 'SPI_SHADER_COL_FORMAT', 'COL0_EXPORT_FORMAT', POPS_ENUMS.SPI_SHADER_32_R),
    // The Vega10/Raven hardware-bug workaround (PAL's waMiscPopsMissedOverlap) for 8x+ MSAA.
    ...(gen === 'gfx9' && (chip === 'vega10' || chip === 'raven') && d.samples >= 8 && d.drain !== false
      ? { DB_DFSM_CONTROL: setField(gen, 'DB_DFSM_CONTROL', 'POPS_DRAIN_PS_ON_OVERLAP', 1) } : {}),
  };
}

/** Wave size of the scene's pixel shader: GFX9 has wave64 only; GFX10.3/GFX11 run wave32. */
export function oitWaveSize(gen: PopsGen): 32 | 64 {
  return gen === 'gfx9' ? 64 : 32;
}

/** The ordered section: per covered sample, two read-modify-write halves of the blend. */
function orderedSection(gen: PopsGen, variant: OitVariant): string {
  const coherent = gen === 'gfx9' ? 'glc' : 'glc dlc';
  const invalidated = variant === 'invalidate-first-read' || variant === 'gl0-inv-only' || variant === 'gl1-inv-only';
  if (invalidated && variant !== 'invalidate-first-read' && gen === 'gfx9') throw new Error(`${variant}: GFX9 has no GL1`);
  const first = variant === 'plain-first-read' || invalidated ? '' : variant === 'first-read-glc' ? ' glc' : ` ${coherent}`;
  // The acquire by invalidation before a plain first read (after the entering wait).
  const inv = !invalidated ? '' : gen === 'gfx9' ? '  buffer_wbinvl1_vol\n'
    : `${variant === 'gl0-inv-only' ? '' : '  buffer_gl1_inv\n'}${variant === 'gl1-inv-only' ? '' : '  buffer_gl0_inv\n'}`;
  const last = variant === 'plain-last-write' ? '' : ` ${coherent}`;
  const mid = variant === 'all-coherent' ? ` ${coherent}` : '';
  const w64 = gen === 'gfx9';
  const ld = gen === 'gfx11' ? 'global_load_b32' : 'global_load_dword';
  const st = gen === 'gfx11' ? 'global_store_b32' : 'global_store_dword';
  const vadd = gen === 'gfx9' ? 'v_add_u32' : 'v_add_nc_u32';
  return `  s_mov_b32 s9, 0
.Lsample:
  v_bfe_u32 v3, v1, s9, 1
  v_cmp_ne_u32_e32 ${w64 ? 'vcc' : 'vcc_lo'}, 0, v3
  ${w64 ? 's_and_saveexec_b64 s[18:19], vcc' : 's_and_saveexec_b32 s10, vcc_lo'}
  s_cbranch_execz .Lskip
  s_mul_i32 s12, s9, s11
  ${vadd} v4, s12, v0
${inv}  ${ld} v5, v4, s[6:7]${first}
  s_waitcnt vmcnt(0)
  v_mul_lo_u32 v5, v5, 31
  ${st} v4, v5, s[6:7]${mid}
  ${ld} v5, v4, s[6:7]${mid}
  s_waitcnt vmcnt(0)
  v_add3_u32 v5, v5, v2, 1
  ${st} v4, v5, s[6:7]${last}${variant.startsWith('load-at-exit') ? `
  s_waitcnt_vscnt null, 0x0
  ${ld} v6, v4, s[6:7] ${coherent}` : ''}
.Lskip:
  ${w64 ? 's_mov_b64 exec, s[18:19]' : 's_mov_b32 exec_lo, s10'}
  s_add_u32 s9, s9, 1
  s_cmp_lt_u32 s9, s8
  s_cbranch_scc1 .Lsample`;
}

/**
 * GFX10.3 wave32 intrawave-collision loop around the ordered section: INTRAWAVE_COLLISION (s5)
 * bits [7:1] mark quads starting a new layer; each pass runs the section for the lanes below the
 * next layer start that have not run yet (the quad mask expanded into a lane mask, as the seed
 * describes), in lane order.
 */
function intrawaveLoop(body: string): string {
  return `  s_mov_b32 s17, exec_lo
  s_mov_b32 s14, exec_lo
  s_and_b32 s13, s5, 0xfe
.Llayer:
  s_ff1_i32_b32 s15, s13
  s_mov_b32 s16, -1
  s_cmp_lt_i32 s15, 0
  s_cbranch_scc1 .Lall
  s_bitset0_b32 s13, s15
  s_lshl_b32 s15, s15, 2
  s_bfm_b32 s16, s15, 0
.Lall:
  s_and_b32 exec_lo, s14, s16
  s_andn2_b32 s14, s14, s16
${body}
  s_cmp_lg_u32 s14, 0
  s_cbranch_scc1 .Llayer
  s_mov_b32 exec_lo, s17`;
}

/** The whole pixel shader of the scene, as a compiler emits it. `intrawave`: GFX10.3 layered ordered section. */
export function oitShader(gen: PopsGen, variant: OitVariant = 'correct', intrawave = false): string {
  const enter = variant === 'no-wait' ? '' : POPS_ENTER[gen];
  let exit = POPS_EXIT[gen];
  if (variant === 'no-exit-wait') exit = exit.split('\n').filter((l) => !/s_waitcnt/.test(l)).join('\n');
  if (variant.startsWith('load-at-exit') && gen === 'gfx9') throw new Error('the load-at-exit variants use s_waitcnt_vscnt (GFX10+)');
  if (variant === 'load-at-exit') exit = `${exit.replace('s_waitcnt vmcnt(0) lgkmcnt(0)', 's_waitcnt lgkmcnt(0)')}\n  s_waitcnt vmcnt(0)`;
  let body = orderedSection(gen, variant);
  if (intrawave) {
    if (gen !== 'gfx103') throw new Error('the intrawave loop is written for GFX10.3 wave32');
    body = intrawaveLoop(body);
  }
  // GFX9-10.3: the export every POPS shader needs (a null one, after ORDERED_PS_DONE so overlapping
  // waves resume before the export can stall this one); GFX11 exits with its export.
  const exp = gen !== 'gfx11' ? '\n  exp null off, off, off, off done vm' : '';
  return `${enter}\n${body}\n${exit}${exp}\n  s_endpgm\n`;
}

/** Random primitives over a `size` x `size` screen: each covers a few quads around a point, random coverage. */
export function oitQuads(r: () => number, samples: number, prims: number, size: number, primBase = 0): PopsQuad[] {
  const out: PopsQuad[] = [];
  const full = (1 << samples) - 1;
  for (let p = 0; p < prims; p++) {
    const n = 1 + Math.floor(r() * 4);
    const bx = Math.floor(r() * (size / 2 - 1)) * 2;
    const by = Math.floor(r() * (size / 2 - 1)) * 2;
    for (let i = 0; i < n; i++) {
      const x = Math.min(size - 2, bx + 2 * Math.floor(r() * 2));
      const y = Math.min(size - 2, by + 2 * Math.floor(r() * 2));
      const cov = [0, 1, 2, 3].map(() => (r() < 0.15 ? 0 : 1 + Math.floor(r() * full))) as unknown as [number, number, number, number];
      out.push({ x, y, coverage: cov, primitive: primBase + p });
    }
  }
  return out;
}

/** Sample planes in the image (up to 8x MSAA). */
export const SLOTS_PER_PIXEL = 8;

const blend = (v: number, prim: number): number => (Math.imul(v, 31) + prim + 1) >>> 0;

export interface OitOptions {
  readonly gen: PopsGen;
  readonly target: IsaTarget;
  /** Scheduler seed. */
  readonly seed: number;
  readonly draws: readonly OitDraw[];
  /** Scene seed (which primitives; fixed while the scheduler seed varies). Default 1. */
  readonly sceneSeed?: number;
  readonly variant?: OitVariant;
  readonly prims?: number;
  readonly size?: number;
  readonly computeUnits?: number;
  readonly slotsPerCu?: number;
  /** Attach the L0/L1/L2 model (default on). */
  readonly caches?: boolean;
  readonly trace?: PopsTrace;
  /** Record the waves' scheduler turns (`gpusim pops oit --timeline`). */
  readonly timeline?: WaveTimeline;
  /** Shader text (default: oitShader(gen, variant)), assembled for `target` with assembleWithLabels. */
  readonly shader?: string;
  /** Launch the waves with STATUS.SKIP_EXPORT (GFX10+ export skipping). */
  readonly exportSkipping?: boolean;
  /** Most clocks a load takes in the cache model (default: PopsCaches' 128). */
  readonly maxLoadDelay?: number;
  /** Most clocks an ended wave's stores stay in flight in the cache model (default: PopsCaches' 64). */
  readonly maxStoreDelay?: number;
  /** The chip (hardware-bug workarounds: Vega10/Raven drain on 8x+ MSAA). */
  readonly chip?: PopsChip;
}

export interface OitResult {
  readonly image: Uint32Array;
  readonly reference: Uint32Array;
  readonly diags: Diagnostics;
  readonly unit: PopsUnit;
  readonly stats: PopsDrawStats[];
  readonly run: PopsRunResult;
  readonly cache: PopsCacheStats | null;
  readonly configs: PopsDrawConfig[];
}

/** Build the scene, run it under scheduler seed `seed`, and return the image with its serial reference. */
export function runOit(o: OitOptions): OitResult {
  const size = o.size ?? 16;
  const r = popsRng(o.sceneSeed ?? 1);
  const diags = new Diagnostics();
  const unit = new PopsUnit({ gen: o.gen, diagnostics: diags, shaderEngines: 2 });
  const mem = new Memory();
  const plane = size * size;
  const slots = plane * SLOTS_PER_PIXEL;
  const img = mem.alloc(slots * 4, 'oit-image');
  const reference = new Uint32Array(slots);
  const launches: PsLaunch[] = [];
  const ws = oitWaveSize(o.gen);
  const configs: PopsDrawConfig[] = [];
  for (let d = 0; d < o.draws.length; d++) {
    const spec = o.draws[d]!;
    const cfg = decodePopsDraw(o.gen, oitDrawRegs(o.gen, spec, o.chip ?? 'other'), diags, o.chip ?? 'other');
    configs.push(cfg);
    const quads = oitQuads(r, spec.samples, o.prims ?? 12, size, 100 * d);
    for (const q of quads) {
      for (let l = 0; l < 4; l++) {
        const cov = q.coverage[l]!;
        const px = (q.y + (l >> 1)) * size + q.x + (l & 1);
        for (let s = 0; s < spec.samples; s++) if ((cov >>> s) & 1) reference[s * plane + px] = blend(reference[s * plane + px]!, q.primitive);
      }
    }
    for (const pw of unit.rasterize(cfg, quads, ws)) {
      launches.push({
        pops: pw,
        setup: (w) => {
          w.s[0] = pw.collisionWaveId;
          w.s[5] = pw.intrawaveCollision;
          w.s[6] = img.base % 0x1_0000_0000;
          w.s[7] = Math.floor(img.base / 0x1_0000_0000);
          w.s[8] = spec.samples;
          w.s[11] = plane * 4;
          let exec = 0;
          let execHi = 0;
          pw.quads.forEach((q, qi) => {
            for (let l = 0; l < 4; l++) {
              const lane = qi * 4 + l;
              const px = (q.y + (l >> 1)) * size + q.x + (l & 1);
              w.v[0 * ws + lane] = px * 4;
              w.v[1 * ws + lane] = q.coverage[l]!;
              w.v[2 * ws + lane] = q.primitive;
              if (q.coverage[l]! !== 0) {
                if (lane < 32) exec |= 1 << lane;
                else execHi |= 1 << (lane - 32);
              }
            }
          });
          w.s[SREG.EXEC_LO] = exec >>> 0;
          w.s[SREG.EXEC_HI] = ws === 64 ? execHi >>> 0 : 0;
          if (o.exportSkipping) w.hw[HWREG.STATUS] = (w.hw[HWREG.STATUS]! | STATUS.SKIP_EXPORT) >>> 0;
        },
      });
    }
  }
  const intrawave = o.draws.some((d) => d.intrawave === true);
  const code = assembleWithLabels(o.target, o.shader ?? oitShader(o.gen, o.variant ?? 'correct', intrawave));
  const cus = o.computeUnits ?? 4;
  // The runner's CUs form one shader engine: two shader arrays (L1s) on GFX10+; GFX9 has no GL1.
  const caches = o.caches === false ? undefined : new PopsCaches(mem, { computeUnits: cus, seed: o.seed, ...popsCacheShape(o.gen, cus, cus),
    ...(o.maxLoadDelay ? { maxLoadDelay: o.maxLoadDelay } : {}), ...(o.maxStoreDelay ? { maxStoreDelay: o.maxStoreDelay } : {}) });
  const run = runPopsWaves({
    target: o.target, unit, code, mem, diags, seed: o.seed, computeUnits: cus, waveSize: ws, slotsPerCu: o.slotsPerCu ?? 4,
    ...(caches ? { caches } : {}), ...(o.trace ? { trace: o.trace } : {}), ...(o.timeline ? { timeline: o.timeline } : {}),
  }, launches);
  const image = new Uint32Array(slots);
  for (let i = 0; i < slots; i++) image[i] = mem.read32(img.base + 4 * i);
  const stats = o.draws.map((_, d) => unit.drawStats(d));
  return { image, reference, diags, unit, stats, run, cache: caches ? caches.stats() : null, configs };
}

/** Slots where two images differ. */
export function imageDiff(a: Uint32Array, b: Uint32Array): number {
  let n = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) n++;
  return n;
}
