/**
 * Feedback loops at a sysmem draw (gras/overlap.ts): an FS texture descriptor whose memory meets
 * a range the draw's RB writes (handlers-cache.ts `sysmemDrawRanges`). GRAS_SC_CNTL
 * SINGLE_PRIM_MODE then decides whether GRAS stalls overlapping primitives and whether the FS
 * sees the earlier primitives' writes; when it does not and a primitive does overlap, the stale
 * read is a diagnostic naming the mode that was needed.
 */
import { decodeFields, enumName } from '../regs/db.js';
import { fmt6 } from '../rb/fmt6.js';
import { meet, neededMode, overlapBehaviour, singlePrimMode, staleView, type LoopRange } from '../gras/overlap.js';
import type { DrawJob } from '../pc/draw.js';
import type { CommandProcessor } from './cp.js';
import { sysmemDrawRanges } from './handlers-cache.js';
import { resolveTexConst } from './handlers-compute.js';
import { parseTexConst } from '../sp/tex.js';

/** GRAS_SC_CNTL SINGLE_PRIM_MODE's raw value. */
export function singlePrimField(cp: CommandProcessor): number {
  const o = cp.regsDb.reg('GRAS_SC_CNTL');
  return decodeFields(cp.regsDb.at(o)!.type, cp.readReg(o), 0, cp.gen)['SINGLE_PRIM_MODE'] ?? 0;
}

/** The ranges the draw's FS textures (t#) share with what its RB writes (sysmem). */
export function feedbackRanges(cp: CommandProcessor, job: DrawJob): LoopRange[] {
  const out: LoopRange[] = [];
  const tex = job.fs?.textures?.tex ?? [];
  const writes = sysmemDrawRanges(cp);
  tex.forEach((d, k) => {
    if (!d || d.every((x) => x === 0)) return;
    const t = resolveTexConst(d, cp.gen);
    // A UBWC texture reads its flag plane too (one row of flags per 4-row block row).
    const p = parseTexConst(d, cp.gen);
    const reads = [{ base: t.base, len: t.size, of: '' }, ...(p.flag ? [{ base: p.flagBase, len: p.flagPitch * Math.ceil(p.height / 4), of: ' flags' }] : [])];
    for (const r of reads)
      for (const w of writes) {
        const m = meet(r.base, r.len, w.base, w.len);
        if (m && cp.mem.find(m.base, m.len)) out.push({ ...m, what: `t#${k}${r.of} samples ${w.what}`, ...(w.ubwc ? { ubwc: true } : {}) });
      }
  });
  return out;
}

/** CPs that reported a reserved SINGLE_PRIM_MODE already (once a run). */
const RESERVED_SEEN = new WeakSet<CommandProcessor>();

/**
 * The job as GRAS_SC_CNTL makes a feedback loop run (unchanged without one): the FS's memory is
 * the stale view when the mode does not make the writes visible, and overlapping primitives stall
 * when it flushes. Reports, once per draw, the first overlap that reads stale bytes.
 */
export function withFeedback(cp: CommandProcessor, job: DrawJob, name: string): DrawJob {
  const v = singlePrimField(cp);
  const mode = singlePrimMode(v);
  if (!mode && !RESERVED_SEEN.has(cp)) {
    RESERVED_SEEN.add(cp);
    cp.report('adreno.gras.single-prim-mode-reserved', 'warning', `${name}: GRAS_SC_CNTL SINGLE_PRIM_MODE ${v} is not a value of a6xx_single_prim_mode (NO_FLUSH 0, FLUSH_PER_OVERLAP_AND_OVERWRITE 1, FLUSH_PER_OVERLAP 3): read as NO_FLUSH`);
  }
  if (!job.fs) return job;
  const ranges = feedbackRanges(cp, job);
  if (!ranges.length) return job;
  const m = mode ?? 'NO_FLUSH';
  const { stall, coherent } = overlapBehaviour(m, true);
  // The register XML: without FLUSH_PER_OVERLAP_AND_OVERWRITE a pixel's UBWC flags and data can be
  // flushed out of step, so texture fetches through UCHE may combine them — whether or not
  // primitives overlap. The model reads a consistent copy; the stream is wrong either way.
  const ubwc = ranges.filter((r) => r.ubwc);
  if (ubwc.length && m !== 'FLUSH_PER_OVERLAP_AND_OVERWRITE')
    cp.report('adreno.gras.feedback-ubwc-sync', 'error', `${name}: the FS samples a UBWC target the draw writes (${ubwc.map((r) => r.what).join(', ')}) with GRAS_SC_CNTL SINGLE_PRIM_MODE ${m} in sysmem: the pixel's flags and data can reach UCHE out of step and the fetch is unpredictable; FLUSH_PER_OVERLAP_AND_OVERWRITE was needed`);
  let reported = false;
  const onOverlap = (prim: number): void => {
    if (coherent || reported) return;
    reported = true;
    const need = neededMode(true);
    const id = m === 'NO_FLUSH' ? 'adreno.gras.feedback-no-flush' : 'adreno.gras.feedback-needs-overwrite';
    const why = m === 'NO_FLUSH' ? 'nothing flushes between overlapping primitives' : 'FLUSH_PER_OVERLAP invalidates UCHE but leaves the writes in the CCU';
    cp.report(id, 'error', `${name}: the FS samples what the draw writes (${ranges.map((r) => r.what).join(', ')}) and primitive ${prim} covers pixels an earlier primitive of the draw wrote; with GRAS_SC_CNTL SINGLE_PRIM_MODE ${m} in sysmem ${why}, so it reads the bytes from before the draw: ${need} was needed`);
  };
  // The stale view is what UCHE holds: an earlier draw's CCU writes not flushed are not in it
  // either (adreno.cache.stale-read names the flush), this draw's own are not made yet.
  const read = (r: LoopRange): Uint8Array => cp.caches.read(r.base, r.len, `${name}: the FS's ${r.what.replace(/ samples .*/, '')} (TP / UCHE)`, ['uche'], true);
  return { ...job, fs: coherent ? job.fs : { ...job.fs, mem: staleView(cp.mem, ranges, read) }, overlap: { stall, onOverlap } };
}

// GMEM mode ------------------------------------------------------------------------------------

/** A TILE6_2 descriptor: the TP reads GMEM (seed 004: "TILE6_2 is what gmem uses"). */
export function isGmemTexture(d: Uint32Array, gen: CommandProcessor['gen']): boolean {
  return decodeFields('A6XX_TEX_CONST.0', d[0]!, 0, gen)['TILE_MODE'] === 2;
}

function reg(cp: CommandProcessor, name: string, field?: string): number {
  const o = cp.regsDb.reg(name);
  return field === undefined ? cp.readReg(o) : (decodeFields(cp.regsDb.at(o)!.type, cp.readReg(o), 0, cp.gen)[field] ?? 0);
}

/** The GMEM bytes a draw in RM6_GMEM writes: its MRTs' and depth buffer's bin buffers (handlers-gmem.ts). */
function gmemDrawRanges(cp: CommandProcessor, samples: number): { base: number; len: number; what: string }[] {
  const binW = reg(cp, 'GRAS_BIN_CONTROL', 'BINW'), binH = reg(cp, 'GRAS_BIN_CONTROL', 'BINH');
  const out: { base: number; len: number; what: string }[] = [];
  const nMrt = reg(cp, 'RB_FS_OUTPUT_CNTL1', 'MRT');
  for (let i = 0; i < nMrt; i++) {
    const fm = fmt6(reg(cp, `RB_MRT[${i}].BUF_INFO`, 'COLOR_FORMAT'));
    if (fm) out.push({ base: reg(cp, `RB_MRT[${i}].BASE_GMEM`) & ~0xfff, len: binW * binH * fm.cpp * samples, what: `MRT${i} in GMEM` });
  }
  const dfmt = enumName('a6xx_depth_format', reg(cp, 'RB_DEPTH_BUFFER_INFO', 'DEPTH_FORMAT'), cp.gen);
  const dcpp = dfmt === 'DEPTH6_16' ? 2 : dfmt === 'DEPTH6_24_8' || dfmt === 'DEPTH6_32' ? 4 : 0;
  if (dcpp) out.push({ base: reg(cp, 'RB_DEPTH_BUFFER_BASE_GMEM') & ~0xfff, len: binW * binH * dcpp * samples, what: 'depth in GMEM' });
  return out;
}

/** Sysmem textures read by this render pass's GMEM draws (checked against its resolves). */
const PASS_READS = new WeakMap<CommandProcessor, { base: number; len: number; what: string }[]>();
const ALIAS_SEEN = new WeakMap<CommandProcessor, Set<string>>();

/** The render pass ended (RM6_BYPASS / a new binning pass): forget its texture reads. */
export function endGmemPass(cp: CommandProcessor): void {
  PASS_READS.delete(cp);
}

/**
 * A draw in RM6_GMEM. A TILE6_2 FS texture whose GMEM bytes meet a bin buffer the draw writes is
 * a feedback loop in GMEM: the RB writes GMEM directly and the TP reads it through UCHE, so
 * (register XML) FLUSH_PER_OVERLAP — or FLUSH_PER_OVERLAP_AND_OVERWRITE — stalls an overlapping
 * primitive and invalidates UCHE: the FS sees the earlier primitives' writes; NO_FLUSH sees GMEM
 * as it was when the draw started in this bin, and an overlap reading it is
 * `adreno.gras.feedback-no-flush`. Other FS textures are recorded for the resolve check.
 */
export function withGmemFeedback(cp: CommandProcessor, job: DrawJob, name: string): DrawJob {
  if (!job.fs || !cp.gmem) return job;
  const tex = job.fs.textures?.tex ?? [];
  const g = cp.gmem;
  const va = g.info.gmemVa;
  const binH = reg(cp, 'GRAS_BIN_CONTROL', 'BINH');
  const writes = gmemDrawRanges(cp, job.rb.samples);
  const ranges: LoopRange[] = [];
  let reads = PASS_READS.get(cp);
  if (!reads) PASS_READS.set(cp, (reads = []));
  tex.forEach((d, k) => {
    if (!d || d.every((x) => x === 0)) return;
    const p = parseTexConst(d, cp.gen);
    if (!isGmemTexture(d, cp.gen)) {
      const t = resolveTexConst(d, cp.gen);
      if (t.size > 0 && !reads.some((r) => r.base === t.base && r.len === t.size)) reads.push({ base: t.base, len: t.size, what: `${name}: t#${k}` });
      return;
    }
    for (const w of writes) {
      const m = meet(p.base - va, p.pitch * binH, w.base, w.len);
      if (m) ranges.push({ ...m, what: `t#${k} (TILE6_2) samples ${w.what}` });
    }
  });
  if (!ranges.length) return job;
  const v = singlePrimField(cp);
  if (!singlePrimMode(v) && !RESERVED_SEEN.has(cp)) {
    RESERVED_SEEN.add(cp);
    cp.report('adreno.gras.single-prim-mode-reserved', 'warning', `${name}: GRAS_SC_CNTL SINGLE_PRIM_MODE ${v} is not a value of a6xx_single_prim_mode (NO_FLUSH 0, FLUSH_PER_OVERLAP_AND_OVERWRITE 1, FLUSH_PER_OVERLAP 3): read as NO_FLUSH`);
  }
  const m = singlePrimMode(v) ?? 'NO_FLUSH';
  const { stall, coherent } = overlapBehaviour(m, false);
  let reported = false;
  const onOverlap = (prim: number): void => {
    if (coherent || reported) return;
    reported = true;
    cp.report('adreno.gras.feedback-no-flush', 'error', `${name}: the FS samples the GMEM it renders (${ranges.map((r) => r.what).join(', ')}) and primitive ${prim} covers pixels an earlier primitive of the draw wrote; with GRAS_SC_CNTL SINGLE_PRIM_MODE ${m} in GMEM nothing stalls or invalidates UCHE between them, so it reads GMEM from before the draw: ${neededMode(false)} was needed`);
  };
  if (coherent || !job.fs.textures?.gmem) return { ...job, overlap: { stall, onOverlap } };
  // The stale view: GMEM as UCHE holds it when the draw starts in this bin.
  const textures = { ...job.fs.textures, gmem: { ...job.fs.textures.gmem, bytes: g.bytes.slice() } };
  return { ...job, fs: { ...job.fs, textures }, overlap: { stall, onOverlap } };
}

/**
 * A resolve (BLIT event) wrote `spans`: a GMEM draw of this render pass that sampled those bytes
 * as a sysmem texture read the image as the last resolve left it, not the tile the pass is
 * rendering — `adreno.gmem.stale-sysmem-read` (turnip / fd6 read it from GMEM through TILE6_2).
 */
export function checkResolve(cp: CommandProcessor, spans: readonly { base: number; len: number }[]): void {
  const reads = PASS_READS.get(cp);
  if (!reads?.length) return;
  let seen = ALIAS_SEEN.get(cp);
  if (!seen) ALIAS_SEEN.set(cp, (seen = new Set()));
  const dst = `0x${(reg(cp, 'RB_BLIT_DST') + 2 ** 32 * cp.readReg(cp.regsDb.reg('RB_BLIT_DST') + 1)).toString(16)}`;
  for (const r of reads) {
    if (seen.has(r.what)) continue;
    if (!spans.some((s) => meet(r.base, r.len, s.base, s.len))) continue;
    seen.add(r.what);
    cp.report('adreno.gmem.stale-sysmem-read', 'error', `${r.what} samples memory (0x${r.base.toString(16)}, ${r.len} bytes) that this render pass resolves from GMEM (BLIT event to ${dst}): in GMEM rendering the sysmem image holds the last resolve, not the tile being rendered; read the tile through a TILE6_2 descriptor at the GMEM buffer (turnip's input attachments, fd6's framebuffer fetch)`);
  }
}
