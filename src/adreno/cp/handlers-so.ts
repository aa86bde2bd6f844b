/**
 * Stream-out on the CP (vpc/streamout.ts holds the VPC's part): the SO program loaded by
 * VPC_SO_CNTL / VPC_SO_PROG writes, each draw's primitives written to the VPC_SO buffers when
 * VPC_SO_DISABLE is clear and VPC_SO_STREAM_CNTL enables stream 0, the buffers' offsets kept in
 * VPC_SO[n].BUFFER_OFFSET (the model's place for the VPC's running offset), FLUSH_SO_n writing
 * that offset in dwords to VPC_SO[n].FLUSH_BASE (what turnip turns into the byte counter
 * CP_DRAW_AUTO reads), WRITE_PRIMITIVE_COUNTS writing {written, generated} per stream (64-bit
 * each) at VPC_SO_STREAM_COUNTS.
 *
 * GMEM: fd6 and turnip let stream-out run once per draw — in the binning pass (VPC_SO_DISABLE
 * clear during it, set for the render passes), or in sysmem; turnip's begin / end / bind commands
 * run under CP_COND_REG_EXEC RENDER_MODE SYSMEM | BINNING. A draw streaming out again in a later
 * bin of the same pass writes its primitives once more (`adreno.vpc.so-per-bin`).
 */
import { decodeFields } from '../regs/db.js';
import { SO_STREAMS, SoProgram, StreamOut, type SoBuffer } from '../vpc/streamout.js';
import type { CommandProcessor } from './cp.js';
import type { PacketRecord } from './walker.js';
import type { DrawJob } from '../pc/draw.js';

interface SoState {
  readonly prog: SoProgram;
  /** Per stream: primitives written and generated (WRITE_PRIMITIVE_COUNTS). */
  readonly written: number[];
  readonly generated: number[];
  /** Draws that streamed out in the current binning / GMEM pass, and the mode of the last one. */
  readonly passDraws: Set<string>;
  lastMode: string;
}
const STATE = new WeakMap<CommandProcessor, SoState>();
function soState(cp: CommandProcessor): SoState {
  let s = STATE.get(cp);
  if (!s) STATE.set(cp, (s = { prog: new SoProgram(), written: [0, 0, 0, 0], generated: [0, 0, 0, 0], passDraws: new Set(), lastMode: '' }));
  return s;
}

/** The SO program RAM of a CP (tests and tools read it). */
export function soProgram(cp: CommandProcessor): SoProgram {
  return soState(cp).prog;
}

/** Register-write side effects: VPC_SO_CNTL sets the program address (RESET clears the enables), VPC_SO_PROG loads a dword. */
export function installStreamOut(cp: CommandProcessor): void {
  const cntl = cp.regsDb.offsetOf('VPC_SO_CNTL');
  const prog = cp.regsDb.offsetOf('VPC_SO_PROG');
  if (cntl === undefined || prog === undefined) return;
  cp.writeHooks.set(cntl, (v) => soState(cp).prog.cntl(v));
  cp.writeHooks.set(prog, (v) => soState(cp).prog.prog(v));
}

const raw = (cp: CommandProcessor, name: string): number => cp.readReg(cp.regsDb.reg(name));
const addr = (cp: CommandProcessor, name: string): number => {
  const o = cp.regsDb.reg(name);
  return cp.readReg(o + 1) * 2 ** 32 + cp.readReg(o);
};

/** Is stream-out on for stream 0 (VPC_SO_DISABLE clear, STREAM_ENABLE bit 0), and which buffers does stream 0 feed? */
function streamBuffers(cp: CommandProcessor): number[] | undefined {
  if (raw(cp, 'VPC_SO_DISABLE') & 1) return undefined;
  const f = decodeFields('A6XX.VPC_SO_STREAM_CNTL', raw(cp, 'VPC_SO_STREAM_CNTL'), 0, cp.gen);
  if (!((f['STREAM_ENABLE'] ?? 0) & 1)) return undefined;
  return [0, 1, 2, 3].filter((n) => f[`BUF${n}_STREAM`] === 1);
}

/**
 * The stream-out of one draw, or undefined when it is off: `emit` is the DrawJob's per-primitive
 * hook, `finish` stores the offsets back and counts. `name` labels the diagnostics.
 */
export function drawStreamOut(cp: CommandProcessor, r: PacketRecord, job: DrawJob, name: string, drawId = 0): { emit: NonNullable<DrawJob['streamOut']>; finish(): void } | undefined {
  const bufs = streamBuffers(cp);
  if (!bufs) return undefined;
  const st = soState(cp);
  const entries = st.prog.entries(0);
  if (!entries.length || !bufs.length) return undefined;
  // Once per draw per pass: the binning pass or sysmem capture it; a GMEM bin doing it again double-writes.
  const key = `${r.iova}:${drawId}`;
  if (cp.mode === 'SYSMEM' || (cp.mode === 'BINNING' && st.lastMode !== 'BINNING')) st.passDraws.clear();
  if (cp.mode === 'GMEM' && st.passDraws.has(key))
    cp.report('adreno.vpc.so-per-bin', 'warning', `${name}: stream-out is enabled in the GMEM render pass and this draw already streamed out in this pass (binning pass or an earlier bin): its primitives are written to the buffers again in bin ${cp.binIndex >= 0 ? cp.binIndex : '(window ' + windowText(cp) + ')'} (fd6 / turnip set VPC_SO_DISABLE after the binning pass)`);
  st.passDraws.add(key);
  st.lastMode = cp.mode;

  // Every buffer the stream feeds, with its registers' checks.
  const used = new Set(entries.map((e) => e.buf));
  const buffers: SoBuffer[] = [];
  for (const n of bufs) {
    const base = addr(cp, `VPC_SO[${n}].BUFFER_BASE`);
    const sizeRaw = raw(cp, `VPC_SO[${n}].BUFFER_SIZE`);
    const offRaw = raw(cp, `VPC_SO[${n}].BUFFER_OFFSET`);
    const stride = (raw(cp, `VPC_SO[${n}].BUFFER_STRIDE`) & 0x3ff) * 4;
    const size = sizeRaw & ~3, offset = offRaw & ~3;
    const bad: string[] = [];
    if (base % 32) bad.push(`BUFFER_BASE 0x${base.toString(16)} is not 32-byte aligned`);
    if (sizeRaw & 3) bad.push(`BUFFER_SIZE ${sizeRaw} has bits 0..1 set (the register keeps bytes in bits 2..31)`);
    if (offRaw & 3) bad.push(`BUFFER_OFFSET ${offRaw} has bits 0..1 set`);
    if (bad.length) cp.report('adreno.vpc.so-misaligned', 'error', `${name}: VPC_SO[${n}] ${bad.join('; ')}: the low bits are dropped, the records land elsewhere than the driver meant`);
    if (!used.has(n)) {
      buffers.push({ index: n, base, size, stride, offset });
      continue;
    }
    if (stride === 0 || entries.some((e) => e.buf === n && e.off + 4 > stride))
      cp.report('adreno.vpc.so-entry-past-stride', 'warning', `${name}: VPC_SO_PROG writes buffer ${n} at byte ${Math.max(...entries.filter((e) => e.buf === n).map((e) => e.off))} of a ${stride}-byte record (VPC_SO[${n}].BUFFER_STRIDE): vertices overwrite each other`);
    if (size > offset && !cp.mem.find(base + offset, size - offset)) {
      cp.report('adreno.vpc.so-buffer-unmapped', 'error', `${name}: VPC_SO[${n}] ${size - offset} bytes at 0x${(base + offset).toString(16)} (BUFFER_BASE + BUFFER_OFFSET .. BUFFER_SIZE) are not in GPU memory: a page fault; nothing is written to it`);
      continue;
    }
    buffers.push({ index: n, base, size, stride, offset });
  }
  for (const b of new Set(entries.map((e) => e.buf)))
    if (!bufs.includes(b)) cp.report('adreno.vpc.so-buffer-not-in-stream', 'warning', `${name}: VPC_SO_PROG (stream 0) writes buffer ${b}, which VPC_SO_STREAM_CNTL BUF${b}_STREAM does not give to stream 0: not written`);
  // The locations the VS writes (VPC_VS_PACK STRIDE_IN_VPC and the SP_VS_OUT components).
  const written = new Set<number>();
  for (const o of job.vsOutputs) for (let c = 0; c < 4; c++) if (o.compmask & (1 << c)) written.add(o.loc + c);
  const past = entries.filter((e) => !written.has(e.loc));
  if (past.length) cp.report('adreno.vpc.so-prog-past-outputs', 'error', `${name}: VPC_SO_PROG reads VPC location(s) ${past.map((e) => e.loc).join(', ')} that no VS output writes (SP_VS_OUT / SP_VS_VPC_DST): the captured values are undefined (the model writes 0)`);

  const so = new StreamOut(buffers, entries, (a, v) => cp.mem.write32(a, v));
  return {
    emit: (verts) => so.primitive(verts),
    finish: () => {
      for (const b of so.buffers) cp.writeReg(cp.regsDb.reg(`VPC_SO[${b.index}].BUFFER_OFFSET`), b.offset, true);
      st.generated[0]! += so.counts.generated;
      st.written[0]! += so.counts.written;
      const dropped = so.counts.generated - so.counts.written;
      if (dropped) cp.report('adreno.vpc.so-overflow', 'info', `${name}: ${dropped} of ${so.counts.generated} primitive(s) did not fit below VPC_SO BUFFER_SIZE and were not written (no partial primitives; the offsets stop before them)`);
    },
  };
}

function windowText(cp: CommandProcessor): string {
  const tl = raw(cp, 'GRAS_SC_WINDOW_SCISSOR_TL'), br = raw(cp, 'GRAS_SC_WINDOW_SCISSOR_BR');
  return `${tl & 0x3fff},${(tl >>> 16) & 0x3fff}..${br & 0x3fff},${(br >>> 16) & 0x3fff}`;
}

/** FLUSH_SO_n: buffer n's offset in dwords to VPC_SO[n].FLUSH_BASE; WRITE_PRIMITIVE_COUNTS: the per-stream counts. */
export function soEvent(cp: CommandProcessor, name: string): void {
  const m = /^FLUSH_SO_(\d)$/.exec(name);
  if (m) {
    const n = Number(m[1]);
    const at = addr(cp, `VPC_SO[${n}].FLUSH_BASE`);
    if (at % 32) cp.report('adreno.vpc.so-misaligned', 'error', `FLUSH_SO_${n}: VPC_SO[${n}].FLUSH_BASE 0x${at.toString(16)} is not 32-byte aligned`);
    if (!cp.mem.find(at, 4)) {
      cp.report('adreno.vpc.so-flush-unmapped', 'error', `FLUSH_SO_${n}: VPC_SO[${n}].FLUSH_BASE 0x${at.toString(16)} is not in GPU memory: a page fault; the offset is not written`);
      return;
    }
    cp.mem.write32(at, (raw(cp, `VPC_SO[${n}].BUFFER_OFFSET`) >>> 2) >>> 0);
    return;
  }
  if (name === 'WRITE_PRIMITIVE_COUNTS') {
    const st = soState(cp);
    const at = addr(cp, 'VPC_SO_STREAM_COUNTS');
    if (!cp.mem.find(at, 16 * SO_STREAMS)) {
      cp.report('adreno.vpc.so-flush-unmapped', 'error', `WRITE_PRIMITIVE_COUNTS: VPC_SO_STREAM_COUNTS 0x${at.toString(16)} (${16 * SO_STREAMS} bytes) is not in GPU memory: nothing is written`);
      return;
    }
    for (let s = 0; s < SO_STREAMS; s++) {
      cp.mem.write64(at + 16 * s, st.written[s]!);
      cp.mem.write64(at + 16 * s + 8, st.generated[s]!);
    }
  }
}
