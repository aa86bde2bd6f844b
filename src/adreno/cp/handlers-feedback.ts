/**
 * Feedback loops at a sysmem draw (gras/overlap.ts): an FS texture descriptor whose memory meets
 * a range the draw's RB writes (handlers-cache.ts `sysmemDrawRanges`). GRAS_SC_CNTL
 * SINGLE_PRIM_MODE then decides whether GRAS stalls overlapping primitives and whether the FS
 * sees the earlier primitives' writes; when it does not and a primitive does overlap, the stale
 * read is a diagnostic naming the mode that was needed.
 */
import { decodeFields } from '../regs/db.js';
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
