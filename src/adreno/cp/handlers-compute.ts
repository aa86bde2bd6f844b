/**
 * Compute state and dispatch: CP_LOAD_STATE6* into the CS state blocks (shader, constants, UBO
 * and IBO descriptors, texture descriptors) and CP_EXEC_CS / CP_EXEC_CS_INDIRECT, which hands the
 * SP (src/adreno/sp/compute.ts) everything it needs from the registers the stream programmed
 * (SP_CS_CTRL_REG0, HLSQ_CS_CNTL_0 / SP_CS_CNTL_0, HLSQ_CS_CNTL, HLSQ_CS_NDRANGE_*,
 * SP_CS_OBJ_START / SP_CS_INSTRLEN, SP_CS_UNKNOWN_A9B1) and the loaded state, never from elsewhere.
 *
 * Buffers are GPU memory: an IBO or UBO descriptor's base address resolves to the mapped segment
 * holding it. A dispatch whose shader, state or buffers are not in memory (a capture that did not
 * record them) is not run: an info diagnostic `adreno.cp.cs-not-run` says what is missing.
 */
import { InputError } from '../../core/errors.js';
import { decodeFields, enumName, type RegisterSpace } from '../regs/db.js';
import { runCompute, type ComputeJob } from '../sp/compute.js';
import type { BindlessBase, GmemTexView, TexState } from '../sp/tex.js';
import type { CommandProcessor } from './cp.js';
import { a64, need } from './exec.js';
import type { PacketRecord } from './walker.js';

/** The CS state blocks, as the CP_LOAD_STATE6 packets left them. */
export class CsState {
  /** Shader words from ST6_SHADER into SB6_CS_SHADER (undefined: fetch from SP_CS_OBJ_START). */
  shader: Uint32Array | undefined = undefined;
  /** Const file by dword (ST6_CONSTANTS into SB6_CS_SHADER, DST_OFF and NUM_UNIT in vec4s). */
  readonly consts = new Uint32Array(256 * 4);
  /** UBO descriptors (2 dwords each, A6XX_UBO), by slot. */
  readonly ubo: (Uint32Array | undefined)[] = [];
  /** IBO descriptors (16 dwords, A6XX_TEX_CONST layout), by slot. */
  readonly ibo: (Uint32Array | undefined)[] = [];
  /** Texture descriptors (ST6_CONSTANTS into SB6_CS_TEX) and samplers (ST6_SHADER into SB6_CS_TEX). */
  readonly tex: (Uint32Array | undefined)[] = [];
  readonly samp: (Uint32Array | undefined)[] = [];
  /** What a load could not read (its memory not mapped), reported at the next dispatch. */
  readonly missing: string[] = [];
}

/** One CP_EXEC_CS the SP ran (or did not). */
export interface ComputeRun {
  readonly iova: number;
  readonly groups: readonly [number, number, number];
  readonly block: readonly [number, number, number];
  readonly waveSize: number;
  readonly ran: boolean;
  readonly waves: number;
  readonly instructions: number;
  readonly fiberInstructions: number;
  /** Why it did not run. */
  readonly missing: readonly string[];
  /** What the SP was handed (when it ran). */
  readonly job?: ComputeJob;
}

/** Unit sizes in dwords of a state block's state types (shader units are 128 bytes). */
export function unitDwords(block: string, type: string): number {
  if (type === 'ST6_SHADER') return block.endsWith('_TEX') ? 4 : 32;
  if (type === 'ST6_CONSTANTS') return block.endsWith('_TEX') ? 16 : 4;
  if (type === 'ST6_UBO') return 2;
  return 16; // ST6_IBO
}

/** The payload's data: inline (SS6_DIRECT) or from memory (SS6_INDIRECT); undefined if unreadable. */
export function stateData(cp: CommandProcessor, r: PacketRecord, src: string, dwords: number, what: string): Uint32Array | undefined {
  const p = r.payload;
  if (src === 'SS6_DIRECT') {
    if (p.length < 3 + dwords) {
      cp.report('adreno.cp.short-payload', 'error', `${r.name} ${what}: ${dwords} inline dwords announced, ${Math.max(p.length - 3, 0)} present`);
      return p.slice(3);
    }
    return p.slice(3, 3 + dwords);
  }
  if (src !== 'SS6_INDIRECT') {
    cp.cs.missing.push(`${what} from ${src} (not modelled)`);
    return undefined;
  }
  const addr = a64(p, 1);
  const seg = cp.mem.find(addr, dwords * 4);
  if (!seg) {
    cp.cs.missing.push(`${what} at 0x${addr.toString(16)} (${dwords * 4} bytes not in memory)`);
    return undefined;
  }
  const off = addr - seg.base;
  const out = new Uint32Array(dwords);
  for (let k = 0; k < dwords; k++) out[k] = seg.dv.getUint32(off + 4 * k, true);
  return out;
}

/**
 * ST6_CONSTANTS into a stage's const file (vec4s from DST_OFF): what lies past the model's file
 * (256 vec4s) is dropped with `adreno.cp.consts-past-file` (DST_OFF is 14 bits, the file is not).
 */
export function loadConsts(cp: CommandProcessor, r: PacketRecord, consts: Uint32Array, dst: number, data: Uint32Array, what: string): void {
  const room = Math.max(0, consts.length - dst * 4);
  if (data.length > room) cp.report('adreno.cp.consts-past-file', 'warning', `${r.name} ${what}: ${data.length / 4} vec4(s) at DST_OFF ${dst} reach past the ${consts.length / 4}-vec4 constant file: ${Math.ceil((data.length - room) / 4)} dropped`);
  if (room) consts.set(data.subarray(0, Math.min(data.length, room)), dst * 4);
}

/** Remember a CP_LOAD_STATE6* (the record list) and fill the CS state blocks it targets. */
export function loadState6(cp: CommandProcessor, r: PacketRecord): number {
  need(cp, r, 1);
  const p = r.payload;
  const f = decodeFields('CP_LOAD_STATE6.0', p[0]!, 0, cp.gen);
  const block = enumName('a6xx_state_block', f['STATE_BLOCK']!, cp.gen) ?? String(f['STATE_BLOCK']);
  const type = enumName('a6xx_state_type', f['STATE_TYPE']!, cp.gen) ?? String(f['STATE_TYPE']);
  const src = enumName('a6xx_state_src', f['STATE_SRC']!, cp.gen) ?? String(f['STATE_SRC']);
  const dst = f['DST_OFF']!;
  const units = f['NUM_UNIT']!;
  cp.loadStates.push({ packet: r.name, dstOff: dst, stateType: f['STATE_TYPE']!, stateSrc: f['STATE_SRC']!, stateBlock: block, numUnit: units, ...(src !== 'SS6_DIRECT' && p.length >= 3 ? { addr: a64(p, 1) } : {}) });
  const cs = cp.cs;
  const isCs = block === 'SB6_CS_SHADER' || block === 'SB6_CS_TEX' || block === 'SB6_CS_IBO';
  if (!isCs) return 0;
  const ud = unitDwords(block, type);
  const data = stateData(cp, r, src, units * ud, `${block} ${type}`);
  if (!data) return 0;
  const slots = (arr: (Uint32Array | undefined)[]): void => {
    for (let k = 0; k < units; k++) arr[dst + k] = data.slice(k * ud, k * ud + ud);
  };
  if (block === 'SB6_CS_SHADER' && type === 'ST6_SHADER') cs.shader = data;
  else if (block === 'SB6_CS_SHADER' && type === 'ST6_CONSTANTS') loadConsts(cp, r, cs.consts, dst, data, `${block} ${type}`);
  else if (block === 'SB6_CS_SHADER' && type === 'ST6_UBO') slots(cs.ubo);
  else if (type === 'ST6_IBO') slots(cs.ibo);
  else if (block === 'SB6_CS_TEX' && type === 'ST6_CONSTANTS') slots(cs.tex);
  else if (block === 'SB6_CS_TEX' && type === 'ST6_SHADER') slots(cs.samp);
  return 0;
}

const field = (cp: CommandProcessor, regs: RegisterSpace, reg: string, name: string): number => {
  const o = regs.reg(reg);
  return decodeFields(regs.at(o)!.type, cp.readReg(o), 0, cp.gen)[name] ?? 0;
};
const has = (regs: RegisterSpace, name: string): boolean => {
  try {
    regs.reg(name);
    return true;
  } catch {
    return false;
  }
};

/** Bytes per element of the formats IBO/texel-buffer descriptors use here. */
function formatBytes(fmt: string): number {
  const m = /^FMT6_(\d+)(?:_(\d+))?(?:_(\d+))?(?:_(\d+))?_/.exec(fmt + '_');
  if (!m) return 4;
  let bits = 0;
  for (let k = 1; k <= 4; k++) bits += m[k] ? parseInt(m[k]!, 10) : 0;
  return Math.max(1, bits >>> 3);
}

/** A descriptor (A6XX_TEX_CONST) as the SP sees it: base, size, row pitch, element bytes. */
export interface ResolvedDescriptor {
  readonly base: number;
  readonly width: number;
  readonly height: number;
  readonly depth: number;
  readonly pitch: number;
  readonly type: string;
  readonly format: string;
  readonly bytesPerElem: number;
  readonly size: number;
}

export function resolveTexConst(d: Uint32Array, gen: CommandProcessor['gen']): ResolvedDescriptor {
  const f0 = decodeFields('A6XX_TEX_CONST.0', d[0]!, 0, gen);
  const f1 = decodeFields('A6XX_TEX_CONST.1', d[1]!, 0, gen);
  const f2 = decodeFields('A6XX_TEX_CONST.2', d[2]!, 0, gen);
  const f4 = decodeFields('A6XX_TEX_CONST.4', d[4]!, 0, gen);
  const f5 = decodeFields('A6XX_TEX_CONST.5', d[5]!, 0, gen);
  const type = enumName('a6xx_tex_type', f2['TYPE']!, gen) ?? String(f2['TYPE']);
  const format = enumName('a6xx_format', f0['FMT']!, gen) ?? String(f0['FMT']);
  const bpe = formatBytes(format);
  const base = f5['BASE_HI']! * 2 ** 32 + f4['BASE_LO']!;
  const buffer = type === 'A6XX_TEX_BUFFER';
  // A buffer's element count is WIDTH + (HEIGHT << 15); an image is WIDTH x HEIGHT x DEPTH rows of PITCH bytes.
  const width = buffer ? f1['WIDTH']! + f1['HEIGHT']! * 2 ** 15 : f1['WIDTH']!;
  const height = buffer ? 1 : f1['HEIGHT']!;
  const depth = Math.max(1, f5['DEPTH']!);
  const pitch = buffer ? 0 : f2['PITCH']!;
  const size = buffer ? width * bpe : pitch * height * depth;
  return { base, width, height, depth, pitch, type, format, bytesPerElem: bpe, size };
}

/** A DataView of [base, base + size) when one mapped segment holds it. */
function view(cp: CommandProcessor, base: number, size: number): DataView | undefined {
  const seg = cp.mem.find(base, Math.max(size, 1));
  if (!seg) return undefined;
  return new DataView(seg.dv.buffer, seg.dv.byteOffset + (base - seg.base), size);
}

/** A 64-bit register pair (0 when the register does not exist on this generation). */
function reg64(cp: CommandProcessor, regs: RegisterSpace, name: string): number {
  if (!has(regs, name)) return 0;
  const o = regs.reg(name);
  return cp.readReg(o + 1) * 2 ** 32 + cp.readReg(o);
}

/** The CS texture state: SB6_CS_TEX descriptors, SP_CS_BINDLESS_BASE[n], the border colours. */
/**
 * The texture state a stage's cat5 instructions see: its t#/s# descriptors and the bindless bases
 * (`SP_CS_BINDLESS_BASE` for compute, `SP_BINDLESS_BASE` for the graphics stages).
 */
export function texState(cp: CommandProcessor, tex: TexState['tex'] = cp.cs.tex, samp: TexState['samp'] = cp.cs.samp, base = 'SP_CS_BINDLESS_BASE'): TexState {
  const regs = cp.regsDb;
  const bindless: BindlessBase[] = [];
  for (let n = 0; has(regs, `${base}[${n}].DESCRIPTOR`); n++) {
    const o = regs.reg(`${base}[${n}].DESCRIPTOR`);
    const f = decodeFields(regs.at(o)!.type, cp.readReg(o), cp.readReg(o + 1), cp.gen);
    // DESC_SIZE: the descriptor stride is 2 << N dwords.
    if (f['ADDR']) bindless[n] = { addr: f['ADDR'], stride: (2 << f['DESC_SIZE']!) * 4 };
  }
  return { gen: cp.gen, tex, samp, bindless, border: reg64(cp, regs, 'SP_TP_BORDER_COLOR_BASE_ADDR'), tile6: cp.tile6, ...(cp.gmem ? { gmem: gmemTexView(cp) } : {}) };
}

/**
 * GMEM as a TILE6_2 texture reads it: the bytes, the GPU's GMEM address, SP_TP_WINDOW_OFFSET and,
 * in GMEM rendering, the bin (GRAS_BIN_CONTROL BINW x BINH).
 */
export function gmemTexView(cp: CommandProcessor, bytes: Uint8Array = cp.gmem!.bytes): GmemTexView {
  const regs = cp.regsDb;
  const win = { x: field(cp, regs, 'SP_TP_WINDOW_OFFSET', 'X'), y: field(cp, regs, 'SP_TP_WINDOW_OFFSET', 'Y') };
  const bin = cp.mode === 'GMEM' ? { w: field(cp, regs, 'GRAS_BIN_CONTROL', 'BINW'), h: field(cp, regs, 'GRAS_BIN_CONTROL', 'BINH') } : undefined;
  return { bytes, va: cp.gmem!.info.gmemVa, window: win, bin };
}

/** Gather the dispatch from registers and CS state; run it on the SP (or say what is missing). */
function execCs(cp: CommandProcessor, r: PacketRecord, groups: [number, number, number]): void {
  const regs = cp.regsDb;
  const gen = cp.gen;
  const missing = [...cp.cs.missing];
  const cntl0 = has(regs, 'HLSQ_CS_CNTL_0') ? 'HLSQ_CS_CNTL_0' : 'SP_CS_CNTL_0';
  const block: [number, number, number] = [field(cp, regs, 'HLSQ_CS_NDRANGE_0', 'LOCALSIZEX') + 1, field(cp, regs, 'HLSQ_CS_NDRANGE_0', 'LOCALSIZEY') + 1, field(cp, regs, 'HLSQ_CS_NDRANGE_0', 'LOCALSIZEZ') + 1];
  const waveSize = enumName('a6xx_threadsize', field(cp, regs, 'SP_CS_CTRL_REG0', 'THREADSIZE'), gen) === 'THREAD128' ? 128 : 64;
  const constlen = field(cp, regs, 'HLSQ_CS_CNTL', 'CONSTLEN');
  const instrlen = cp.readReg(regs.reg('SP_CS_INSTRLEN'));
  let words = cp.cs.shader;
  if (!words) {
    const o = regs.reg('SP_CS_OBJ_START');
    const addr = cp.readReg(o + 1) * 2 ** 32 + cp.readReg(o);
    const seg = instrlen ? cp.mem.find(addr, instrlen * 128) : null;
    if (!seg) missing.push(`shader: SP_CS_OBJ_START 0x${addr.toString(16)} + SP_CS_INSTRLEN ${instrlen} x 128 bytes not in memory`);
    else words = new Uint32Array(seg.u8.slice(addr - seg.base, addr - seg.base + instrlen * 128).buffer);
  }
  const ibo: ComputeJob['ibo'] = [];
  // An all-zero descriptor is an unused slot (the driver fills the gaps with zeros).
  const unused = (d: Uint32Array | undefined): boolean => !d || d.every((x) => x === 0);
  cp.cs.ibo.forEach((d, k) => {
    if (unused(d)) return;
    const t = resolveTexConst(d!, gen);
    const v = view(cp, t.base, t.size);
    if (!v) missing.push(`IBO ${k}: ${t.size} bytes at 0x${t.base.toString(16)} not in memory`);
    else ibo[k] = { data: v, pitch: t.pitch, width: t.width, height: t.height, depth: t.depth };
  });
  // Textures stay descriptors (the SP reads texels through them, tex.ts); a bound texture whose
  // level 0 is not in memory means the capture lacks it (a TILE6_2 one reads GMEM: tex.ts checks it).
  cp.cs.tex.forEach((d, k) => {
    if (unused(d) || decodeFields('A6XX_TEX_CONST.0', d![0]!, 0, gen)['TILE_MODE'] === 2) return;
    const t = resolveTexConst(d!, gen);
    if (!cp.mem.find(t.base, 1)) missing.push(`texture ${k}: ${t.size} bytes at 0x${t.base.toString(16)} not in memory`);
  });
  const textures = texState(cp);
  const ubo: ComputeJob['ubo'] = [];
  cp.cs.ubo.forEach((d, k) => {
    if (unused(d) || !d) return;
    const f1 = decodeFields('A6XX_UBO.1', d[1]!, 0, gen);
    const base = f1['BASE_HI']! * 2 ** 32 + d[0]!;
    const size = f1['SIZE']! * 16;
    const v = view(cp, base, size);
    if (!v) missing.push(`UBO ${k}: ${size} bytes at 0x${base.toString(16)} not in memory`);
    else ubo[k] = v;
  });
  const record = (ran: boolean, waves = 0, instructions = 0, fiberInstructions = 0, job?: ComputeJob): void => {
    cp.computeRuns.push({ iova: r.iova, groups, block, waveSize, ran, waves, instructions, fiberInstructions, missing, ...(job ? { job } : {}) });
    if (ran) {
      cp.perf.add('PERF_HLSQ_COMPUTE_DRAWCALLS');
      cp.perf.add('PERF_HLSQ_CS_INVOCATIONS', groups[0] * groups[1] * groups[2] * block[0] * block[1] * block[2]);
      cp.perf.add('PERF_SP_CS_INSTRUCTIONS', instructions);
      cp.perf.add('PERF_SP_WAVE_CONTEXTS', waves);
      cp.perf.mark('dispatch', r.name, r.iova, cp.countables, cp.cycles, cp.gen);
    }
  };
  if (missing.length || !words) {
    cp.report('adreno.cp.cs-not-run', 'info', `${r.name} not executed: ${missing.join('; ')}`);
    record(false);
    return;
  }
  const job: ComputeJob = {
    gpuId: cp.gpuId,
    words,
    consts: cp.cs.consts.slice(0, constlen * 4),
    ibo,
    ubo,
    mem: cp.mem,
    textures,
    block,
    groups,
    waveSize,
    localIdReg: field(cp, regs, cntl0, 'LOCALIDREGID'),
    wgIdReg: field(cp, regs, cntl0, 'WGIDCONSTID'),
    fullRegs: field(cp, regs, 'SP_CS_CTRL_REG0', 'FULLREGFOOTPRINT'),
    halfRegs: field(cp, regs, 'SP_CS_CTRL_REG0', 'HALFREGFOOTPRINT'),
    sharedSize: (field(cp, regs, 'SP_CS_UNKNOWN_A9B1', 'SHARED_SIZE') + 1) * 1024,
    ...(cp.gen === 'a7xx' ? { sharedConsts: Uint32Array.from({ length: 64 }, (_, k) => cp.readReg(regs.reg('HLSQ_SHARED_CONSTS_IMM[0]') + k)) } : {}),
  };
  try {
    const res = runCompute({ ...job, consts: job.consts.slice() }, cp.diag, cp.computeOptions);
    record(true, res.waves, res.instructions, res.fiberInstructions, job);
  } catch (e) {
    if (!(e instanceof InputError) || cp.computeErrors === 'throw') throw e;
    cp.report('adreno.cp.cs-failed', 'error', `${r.name}: the SP stopped: ${e.message}`);
    record(false);
  }
}

export function execCsDirect(cp: CommandProcessor, r: PacketRecord): void {
  need(cp, r, 4);
  const p = r.payload;
  execCs(cp, r, [p[1]!, p[2]!, p[3]!]);
}

/** CP_EXEC_CS_INDIRECT: the group counts are three dwords at ADDR. */
export function execCsIndirect(cp: CommandProcessor, r: PacketRecord): void {
  need(cp, r, 3);
  const addr = a64(r.payload, 1);
  const seg = cp.mem.find(addr, 12);
  if (!seg) {
    cp.report('adreno.cp.cs-not-run', 'info', `${r.name} not executed: group counts at 0x${addr.toString(16)} not in memory`);
    return;
  }
  const o = addr - seg.base;
  execCs(cp, r, [seg.dv.getUint32(o, true), seg.dv.getUint32(o + 4, true), seg.dv.getUint32(o + 8, true)]);
}
