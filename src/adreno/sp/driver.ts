/**
 * The driver half of a compute dispatch: turn an ir3-corpus manifest into GPU memory and the
 * a6xx/a7xx command stream freedreno's compute path emits (program state, CP_LOAD_STATE6_FRAG of
 * the shader, constants, UBO and IBO descriptors into SB6_CS_SHADER, HLSQ_CS_NDRANGE_*,
 * CP_EXEC_CS). Every register and field name comes from the register database (src/adreno/regs);
 * the CP (cp/handlers-compute.ts) then executes the stream and hands the SP what it programmed.
 */
import { Memory, type Segment } from '../../core/memory.js';
import { RdWriter } from '../../formats/rd.js';
import { ELEM } from '../../core/elements.js';
import { CmdStream, hi32, lo32 } from '../cp/builder.js';
import { encodeFields, genFromGpuId, type Gen } from '../regs/db.js';
import type { Ir3Manifest, Ir3Texture } from './manifest.js';
import { texFormatBytes } from './tex.js';
import { alignUp, defaultPitch, linearToTile6, paddedHeight, tile6Supported, TILE6_A630 } from '../ubwc/tile6.js';
import { InputError } from '../../core/errors.js';

/** Shader instruction units of SP_CS_INSTRLEN and the ST6_SHADER NUM_UNIT: 128 bytes. */
const INSTR_UNIT = 128;
/** a3xx_regid of r63.x: "no register" (WGSIZECONSTID, WGOFFSETCONSTID, LINEARLOCALIDREGID). */
const REGID_NONE = 63 * 4;

export interface BuiltDispatch {
  readonly gen: Gen;
  readonly mem: Memory;
  /** The command stream (IB1) and its address. */
  readonly stream: Uint32Array;
  readonly streamIova: number;
  /** Every buffer the stream references (shader, buffers, descriptors, stream), for .rd files. */
  readonly segments: readonly Segment[];
  /** The manifest buffers by name. */
  readonly buffers: ReadonlyMap<string, Segment>;
}

export interface BuildOptions {
  /** BRANCHSTACK for SP_CS_CTRL_REG0 (the variant's branchstack; default 0). */
  readonly branchstack?: number;
  /** SP_CS_INSTRLEN (the variant's instrlen; default the binary's size in 128-byte units). */
  readonly instrlen?: number;
  /**
   * More state before the grid (textures, samplers, bindless sets, border colours): gets the
   * stream and an allocator of GPU memory (tests and tools that program what a manifest has no
   * key for).
   */
  readonly state?: (cs: CmdStream, alloc: (bytes: Uint8Array, label: string) => Segment) => void;
}

const has = (cs: CmdStream, name: string): boolean => {
  try {
    cs.regs.reg(name);
    return true;
  } catch {
    return false;
  }
};

/** A 16-dword A6XX_TEX_CONST descriptor: a texel buffer of 32-bit elements or a linear 2D R32_UINT image. */
export function texConst(gen: Gen, base: number, o: { elements: number } | { width: number; height: number; pitch: number }): number[] {
  const d = new Array<number>(16).fill(0);
  d[0] = encodeFields('A6XX_TEX_CONST.0', { TILE_MODE: 'TILE6_LINEAR', SWIZ_X: 'A6XX_TEX_X', SWIZ_Y: 'A6XX_TEX_Y', SWIZ_Z: 'A6XX_TEX_Z', SWIZ_W: 'A6XX_TEX_W', FMT: 'FMT6_32_UINT', SWAP: 'WZYX' }, gen);
  if ('elements' in o) {
    d[1] = encodeFields('A6XX_TEX_CONST.1', { WIDTH: o.elements % 2 ** 15, HEIGHT: Math.floor(o.elements / 2 ** 15) }, gen);
    d[2] = encodeFields('A6XX_TEX_CONST.2', { TYPE: 'A6XX_TEX_BUFFER' }, gen);
  } else {
    d[1] = encodeFields('A6XX_TEX_CONST.1', { WIDTH: o.width, HEIGHT: o.height }, gen);
    d[2] = encodeFields('A6XX_TEX_CONST.2', { PITCH: o.pitch, TYPE: 'A6XX_TEX_2D' }, gen);
    d[3] = encodeFields('A6XX_TEX_CONST.3', { ARRAY_PITCH: o.pitch * o.height }, gen);
  }
  d[4] = encodeFields('A6XX_TEX_CONST.4', { BASE_LO: lo32(base) }, gen);
  d[5] = encodeFields('A6XX_TEX_CONST.5', { BASE_HI: hi32(base), DEPTH: 1 }, gen);
  return d;
}

const TEX_TYPE: Record<Ir3Texture['type'], string> = { '1d': 'A6XX_TEX_1D', '2d': 'A6XX_TEX_2D', '2d_array': 'A6XX_TEX_2D', '3d': 'A6XX_TEX_3D', cube: 'A6XX_TEX_CUBE' };

/**
 * The manifest's textures in GPU memory as fdl6 lays out level 0 (pitch and height alignment,
 * TILE6_3 with the CP's default a630 bank parameters, layers 4 KiB aligned since ARRAY_PITCH
 * counts 4 KiB units), each with its A6XX_TEX_CONST at t#slot.
 */
function layTextures(m: Ir3Manifest, gen: Gen, init: ReadonlyMap<string, Uint8Array>, alloc: (b: Uint8Array, l: string) => Segment, tex: number[][]): void {
  for (const t of m.textures ?? []) {
    const cpp = texFormatBytes(t.format)!;
    const mode = t.layout === 'tile6_3' ? 'tile6_3' : 'linear';
    if (mode === 'tile6_3' && !tile6Supported(cpp)) throw new InputError(`ir3 manifest: textures (slot ${t.slot}): TILE6_3 is modelled for 1, 2, 4, 8 and 16 bytes per texel, not ${cpp}`);
    const layers = t.type === 'cube' ? 6 * t.depth : t.depth;
    const pitch = defaultPitch(t.width, cpp, mode);
    const layerSize = alignUp(pitch * (mode === 'tile6_3' ? paddedHeight(t.height, mode, cpp) : t.height), 4096);
    const bytes = new Uint8Array(layerSize * layers);
    const src = init.get(`texture ${t.slot}`);
    const lb = t.width * t.height * cpp;
    if (src && src.length < lb * layers) throw new InputError(`ir3 manifest: textures (slot ${t.slot}): the file has ${src.length} bytes, ${lb * layers} needed (${layers} layer(s) of ${t.width}x${t.height}x${cpp})`);
    for (let z = 0; src && z < layers; z++) {
      const lin = src.subarray(z * lb, (z + 1) * lb);
      if (mode === 'tile6_3') bytes.set(linearToTile6(lin, t.width, t.height, cpp, pitch, TILE6_A630), z * layerSize);
      else for (let y = 0; y < t.height; y++) bytes.set(lin.subarray(y * t.width * cpp, (y + 1) * t.width * cpp), z * layerSize + y * pitch);
    }
    const base = alloc(bytes, `texture ${t.slot}`).base;
    const d = new Array<number>(16).fill(0);
    d[0] = encodeFields('A6XX_TEX_CONST.0', { TILE_MODE: mode === 'tile6_3' ? 'TILE6_3' : 'TILE6_LINEAR', SWIZ_X: 'A6XX_TEX_X', SWIZ_Y: 'A6XX_TEX_Y', SWIZ_Z: 'A6XX_TEX_Z', SWIZ_W: 'A6XX_TEX_W', FMT: t.format, SWAP: 'WZYX' }, gen);
    d[1] = encodeFields('A6XX_TEX_CONST.1', { WIDTH: t.width, HEIGHT: t.height }, gen);
    d[2] = encodeFields('A6XX_TEX_CONST.2', { PITCH: pitch, TYPE: TEX_TYPE[t.type] }, gen);
    d[3] = encodeFields('A6XX_TEX_CONST.3', { ARRAY_PITCH: layerSize }, gen);
    d[4] = encodeFields('A6XX_TEX_CONST.4', { BASE_LO: lo32(base) }, gen);
    d[5] = encodeFields('A6XX_TEX_CONST.5', { BASE_HI: hi32(base), DEPTH: t.depth }, gen);
    tex[t.slot] = d;
  }
}

/** CP_LOAD_STATE6_FRAG header dword. */
function ls6(cs: CmdStream, block: string, type: string, src: string, dst: number, units: number): number {
  return encodeFields('CP_LOAD_STATE6.0', { DST_OFF: dst, STATE_TYPE: type, STATE_SRC: src, STATE_BLOCK: block, NUM_UNIT: units }, cs.gen);
}

/** Lay out memory and build the stream of the manifest's dispatch. */
export function buildDispatch(m: Ir3Manifest, words: Uint32Array, init: ReadonlyMap<string, Uint8Array>, opts: BuildOptions = {}): BuiltDispatch {
  const gen = genFromGpuId(m.gpuId);
  if (gen !== 'a6xx' && gen !== 'a7xx') throw new Error(`compute dispatch streams are built for a6xx/a7xx, not gpu ${m.gpuId}`);
  const mem = new Memory();
  const segs: Segment[] = [];
  const alloc = (bytes: Uint8Array, label: string): Segment => {
    const s = mem.alloc(bytes.length, label, 0x1000, bytes);
    segs.push(s);
    return s;
  };
  const instrlen = opts.instrlen ?? Math.ceil((words.length * 4) / INSTR_UNIT);
  const code = new Uint8Array(Math.max(instrlen * INSTR_UNIT, words.length * 4));
  code.set(new Uint8Array(words.buffer, words.byteOffset, words.length * 4));
  const shader = alloc(code, 'shader');

  const buffers = new Map<string, Segment>();
  const ibo: number[][] = [];
  const tex: number[][] = [];
  const ubo: number[][] = [];
  for (const b of m.buffers) {
    const size = b.count * ELEM[b.type].bytes;
    const bytes = new Uint8Array(Math.max(4, Math.ceil(size / 4) * 4));
    const data = init.get(b.name);
    if (data) bytes.set(data.subarray(0, size));
    const s = alloc(bytes, b.name);
    buffers.set(b.name, s);
    if (b.kind === 'ubo' && b.uboIndex !== undefined) {
      ubo[b.uboIndex] = [encodeFields('A6XX_UBO.0', { BASE_LO: lo32(s.base) }, gen), encodeFields('A6XX_UBO.1', { BASE_HI: hi32(s.base), SIZE: Math.ceil(size / 16) }, gen)];
    }
    const width = b.width ?? 0;
    const desc = (): number[] => (b.kind === 'image' && width > 0 ? texConst(gen, s.base, { width, height: Math.ceil(b.count / width), pitch: width * 4 }) : texConst(gen, s.base, { elements: bytes.length / 4 }));
    if (b.ibo !== undefined) ibo[b.ibo] = desc();
    if (b.tex !== undefined) tex[b.tex] = desc();
  }
  layTextures(m, gen, init, alloc, tex);
  const samp: number[][] = [];
  let border: Float32Array | undefined;
  for (const sm of m.samplers ?? []) {
    const filter = sm.filter === 'linear' ? 'A6XX_TEX_LINEAR' : 'A6XX_TEX_NEAREST';
    const wrap = `A6XX_TEX_${sm.wrap.toUpperCase()}`;
    samp[sm.slot] = [
      encodeFields('A6XX_TEX_SAMP.0', { XY_MAG: filter, XY_MIN: filter, WRAP_S: wrap, WRAP_T: wrap, WRAP_R: wrap }, gen),
      encodeFields('A6XX_TEX_SAMP.1', { UNNORM_COORDS: sm.unnorm }, gen),
      // Border colour entry = the slot (128-byte entries, fp32 r g b a first).
      encodeFields('A6XX_TEX_SAMP.2', { BCOLOR: sm.slot }, gen),
      0,
    ];
    if (sm.wrap === 'clamp_to_border') {
      const b = border ?? new Float32Array(32 * 128);
      b.set(sm.border, sm.slot * 32);
      border = b;
    }
  }
  const iboDesc = new Uint32Array(16 * ibo.length);
  ibo.forEach((d, k) => iboDesc.set(d, 16 * k));
  const iboSeg = ibo.length ? alloc(new Uint8Array(iboDesc.buffer), 'ibo descriptors') : undefined;
  const texDesc = new Uint32Array(16 * tex.length);
  tex.forEach((d, k) => texDesc.set(d, 16 * k));
  const texSeg = tex.length ? alloc(new Uint8Array(texDesc.buffer), 'texture descriptors') : undefined;

  const cs = new CmdStream(gen);
  // Program state (freedreno's cs_program_emit order).
  cs.reg('HLSQ_INVALIDATE_CMD', { CS_STATE: true, CS_IBO: true });
  cs.reg('SP_CS_CONFIG', { ENABLED: true, NIBO: ibo.length, NTEX: tex.length });
  cs.reg('HLSQ_CS_CNTL', { CONSTLEN: Math.ceil(m.constlen / 4) * 4, ENABLED: true });
  cs.reg('SP_CS_CTRL_REG0', {
    THREADMODE: 'MULTI',
    THREADSIZE: m.waveSize === 128 ? 'THREAD128' : 'THREAD64',
    FULLREGFOOTPRINT: m.fullRegs,
    HALFREGFOOTPRINT: m.halfRegs,
    BRANCHSTACK: opts.branchstack ?? 0,
    MERGEDREGS: true,
  });
  const shared = Math.max(Math.floor((m.sharedSize - 1) / 1024), 1);
  cs.reg('SP_CS_UNKNOWN_A9B1', { SHARED_SIZE: shared, UNK5: true });
  if (has(cs, 'HLSQ_CS_UNKNOWN_B9D0')) cs.reg('HLSQ_CS_UNKNOWN_B9D0', { SHARED_SIZE: shared, UNK5: true });
  const cntl0 = { WGIDCONSTID: m.wgIdReg, WGSIZECONSTID: REGID_NONE, WGOFFSETCONSTID: REGID_NONE, LOCALIDREGID: m.localIdReg };
  if (has(cs, 'HLSQ_CS_CNTL_0')) cs.reg('HLSQ_CS_CNTL_0', cntl0);
  cs.reg('SP_CS_CNTL_0', cntl0);
  const threadsize = m.waveSize === 128 ? 'THREAD128' : 'THREAD64';
  cs.reg('HLSQ_CS_CNTL_1', { LINEARLOCALIDREGID: REGID_NONE, THREADSIZE: threadsize });
  cs.reg('SP_CS_CNTL_1', { LINEARLOCALIDREGID: REGID_NONE, THREADSIZE: threadsize });
  cs.reg64('SP_CS_OBJ_START', shader.base);
  cs.reg('SP_CS_INSTRLEN', instrlen);
  // Shader preload, constants, UBO and IBO descriptors into the CS state blocks.
  cs.pkt('CP_LOAD_STATE6_FRAG', [ls6(cs, 'SB6_CS_SHADER', 'ST6_SHADER', 'SS6_INDIRECT', 0, instrlen), lo32(shader.base), hi32(shader.base)]);
  if (m.constlen > 0) cs.pkt('CP_LOAD_STATE6_FRAG', [ls6(cs, 'SB6_CS_SHADER', 'ST6_CONSTANTS', 'SS6_DIRECT', 0, m.constlen), 0, 0, ...m.consts.subarray(0, m.constlen * 4)]);
  if (ubo.length) {
    const d: number[] = [];
    for (let k = 0; k < ubo.length; k++) d.push(...(ubo[k] ?? [0, 0]));
    cs.pkt('CP_LOAD_STATE6_FRAG', [ls6(cs, 'SB6_CS_SHADER', 'ST6_UBO', 'SS6_DIRECT', 0, ubo.length), 0, 0, ...d]);
  }
  if (iboSeg) {
    cs.pkt('CP_LOAD_STATE6_FRAG', [ls6(cs, 'SB6_CS_SHADER', 'ST6_IBO', 'SS6_INDIRECT', 0, ibo.length), lo32(iboSeg.base), hi32(iboSeg.base)]);
    if (has(cs, 'SP_CS_IBO')) cs.reg64('SP_CS_IBO', iboSeg.base);
    cs.reg('SP_CS_IBO_COUNT', ibo.length);
  }
  if (texSeg) {
    cs.pkt('CP_LOAD_STATE6_FRAG', [ls6(cs, 'SB6_CS_TEX', 'ST6_CONSTANTS', 'SS6_INDIRECT', 0, tex.length), lo32(texSeg.base), hi32(texSeg.base)]);
    cs.reg64('SP_CS_TEX_CONST', texSeg.base);
    cs.reg('SP_CS_TEX_COUNT', tex.length);
  }
  opts.state?.(cs, alloc);
  if (samp.length) {
    const d = new Uint32Array(4 * samp.length);
    samp.forEach((x, k) => d.set(x, 4 * k));
    const seg = alloc(new Uint8Array(d.buffer), 'samplers');
    cs.pkt('CP_LOAD_STATE6_FRAG', [ls6(cs, 'SB6_CS_TEX', 'ST6_SHADER', 'SS6_INDIRECT', 0, samp.length), lo32(seg.base), hi32(seg.base)]);
    cs.reg64('SP_CS_TEX_SAMP', seg.base);
  }
  if (border) cs.reg64('SP_TP_BORDER_COLOR_BASE_ADDR', alloc(new Uint8Array(border.buffer), 'border colours').base);
  // The grid (freedreno's launch_grid).
  cs.setMarker('RM6_COMPUTE');
  const [bx, by, bz] = m.block;
  const [gx, gy, gz] = m.groups;
  cs.reg('HLSQ_CS_NDRANGE_0', { KERNELDIM: bz > 1 || gz > 1 ? 3 : by > 1 || gy > 1 ? 2 : 1, LOCALSIZEX: bx - 1, LOCALSIZEY: by - 1, LOCALSIZEZ: bz - 1 });
  cs.regs32('HLSQ_CS_NDRANGE_1', [bx * gx, 0, by * gy, 0, bz * gz, 0]);
  if (has(cs, 'HLSQ_CS_LOCAL_SIZE')) cs.reg('HLSQ_CS_LOCAL_SIZE', { LOCALSIZEX: bx - 1, LOCALSIZEY: by - 1, LOCALSIZEZ: bz - 1 });
  cs.regs32('HLSQ_CS_KERNEL_GROUP_X', [1, 1, 1]);
  cs.execCs(gx, gy, gz);
  cs.waitForIdle();
  const stream = cs.dwords();
  const ss = alloc(new Uint8Array(stream.buffer.slice(0)), 'ib1');
  return { gen, mem, stream, streamIova: ss.base, segments: segs, buffers };
}

/**
 * The dispatch as an .rd capture (GPU id, every buffer, the command stream), as freedreno's
 * capture tools write one: `gpusim adreno decode` / `run` read it back. Call it before running
 * to capture the inputs (the buffers are written as they are now).
 */
export function dispatchRd(b: BuiltDispatch, gpuId: number): Uint8Array {
  const w = new RdWriter();
  // a7xx manifests carry no gpu_id (chip 0x07030001 for the a730 corpus).
  if (gpuId >= 700) w.chipId(0x07030001);
  else w.gpuId(gpuId);
  for (const s of b.segments) w.buffer(s.base, s.u8);
  return w.cmdstream(b.streamIova, b.stream.length).bytes();
}
