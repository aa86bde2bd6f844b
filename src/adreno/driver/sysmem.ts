/**
 * The driver half of a sysmem (bypass) draw: a described scene (render targets, buffers, ir3
 * VS/FS, state, draws) laid out in GPU memory and the a6xx command stream freedreno's sysmem path
 * emits for it (register choices after Mesa's fd6/turnip: CP_SET_MARKER RM6_BYPASS, window and
 * screen scissors, GRAS_CL_VPORT with ZERO_GB_SCALE_Z, GRAS_SU_CNTL, the MSAA registers, VFD
 * fetch/decode/dest, SP/HLSQ program state with CP_LOAD_STATE6_GEOM / _FRAG of the shaders
 * (SS6_INDIRECT) and constants, SP_VS_OUT / SP_VS_VPC_DST / VPC_VS_PACK / VPC_VAR_DISABLE,
 * GRAS_CNTL / RB_RENDER_CONTROL0 / HLSQ_CONTROL_*_REG for i/j, SP_FS_OUTPUT / RB_MRT / RB depth
 * and stencil, then CP_DRAW_INDX_OFFSET per draw). Every name and field comes from the register
 * database. Targets are cleared the way turnip's 3D clear does: a draw of one screen-covering
 * triangle with a constant-colour FS, depth ALWAYS written and stencil REPLACE.
 */
import { guardbandAdj } from '../gras/guardband.js';
import { Memory, type Segment } from '../../core/memory.js';
import { RdWriter } from '../../formats/rd.js';
import { assembleIr3 } from '../ir3/asm.js';
import { CmdStream, hi32, lo32 } from '../cp/builder.js';
import { encodeFields, enumValue, type Gen } from '../regs/db.js';
import { fmt6ByName } from '../rb/fmt6.js';
import { alignUp, defaultPitch, paddedHeight, pitchAlignLog2, type TileMode } from '../ubwc/tile6.js';
import { FLAG_UNCOMPRESSED, ubwcLayout, type UbwcLayout } from '../ubwc/ubwc.js';

export const REGID_NONE = 0xfc;
const INSTR_UNIT = 128;

/** ir3 register name (r3.y, hr1.x) -> a3xx_regid (component number). */
export function regid(name: string): number {
  const m = /^(h?)r(\d+)\.([xyzw])$/.exec(name.trim());
  if (!m) throw new Error(`not a register: ${name}`);
  return Number(m[2]) * 4 + 'xyzw'.indexOf(m[3]!);
}

export interface GfxShader {
  /** ir3 assembly text (assembled for the GPU) or code words. */
  readonly asm?: string;
  readonly words?: Uint32Array;
  readonly fullRegs: number;
  readonly halfRegs?: number;
  /** Const file, vec4 units as dwords. */
  readonly consts?: Uint32Array;
}

export interface VsInput {
  readonly buffer: string;
  readonly stride: number;
  readonly offset: number;
  readonly format: string;
  readonly regid: number;
  readonly mask: number;
  readonly instanced?: boolean;
  readonly stepRate?: number;
}

/** A colour target's layout: UBWC is TILE6_3 plus a flag plane (ubwc/ubwc.ts `ubwcLayout`). */
export type TargetTile = 'TILE6_LINEAR' | 'TILE6_3' | 'UBWC';

export interface GfxScene {
  readonly gpuId: number;
  readonly width: number;
  readonly height: number;
  readonly samples: 1 | 2 | 4;
  /** Colour targets: FMT6 format, clear colour, layout (TILE6_LINEAR by default, TILE6_3, or UBWC = TILE6_3 with a flag buffer). */
  readonly targets: readonly { readonly format: string; readonly clear: readonly number[]; readonly tile?: TargetTile; readonly srgb?: boolean }[];
  /** `ubwc`: the depth buffer laid out as fdl6 lays out a UBWC depth image (flag plane, then TILE6_3 pixels; 4, 8 or 16 bytes per pixel). */
  readonly depth?: { readonly format: 'DEPTH6_16' | 'DEPTH6_24_8' | 'DEPTH6_32'; readonly clear: number; readonly stencil?: { readonly clear: number }; readonly ubwc?: boolean };
  readonly buffers: ReadonlyMap<string, Uint8Array>;
  readonly vs: GfxShader & {
    readonly inputs: readonly VsInput[];
    readonly vertexIdReg?: number;
    readonly instanceIdReg?: number;
    readonly outputs: readonly { readonly regid: number; readonly compmask: number; readonly loc: number }[];
    readonly positionLoc: number;
  };
  readonly fs: GfxShader & {
    readonly threadsize?: 64 | 128;
    readonly ijPersp?: number;
    /** Further i/j pairs (full registers) HLSQ loads: linear at the centre, perspective / linear at the centroid and at the sample. */
    readonly ijLinear?: number;
    readonly ijPerspCentroid?: number;
    readonly ijLinearCentroid?: number;
    readonly ijPerspSample?: number;
    readonly ijLinearSample?: number;
    /** Frag coord: x, y (u32, 1/16 pixel) at `fragCoord`, z, 1/w (f32) at `fragCoordZw`; `coordMask` x=1 y=2 z=4 w=8. */
    readonly fragCoord?: number;
    readonly fragCoordZw?: number;
    readonly coordMask?: number;
    /** Front-facing (half register: 0 front, -1 back), sample id (half), coverage mask (full). */
    readonly face?: number;
    readonly sampleId?: number;
    readonly sampleMask?: number;
    /** The FS writes the coverage mask from this full register (SAMPMASK_REGID, FRAG_WRITES_SAMPMASK). */
    readonly sampleMaskOut?: number;
    /** Dual-source blending: outputs[1] is target 0's SRC1 colour (DUAL_COLOR_IN_ENABLE). */
    readonly dualSource?: boolean;
    /** Per-sample shading (GRAS_SAMPLE_CNTL / RB_SAMPLE_CNTL PER_SAMP_MODE, FRAGCOORD_SAMPLE). */
    readonly sampleShading?: boolean;
    readonly outputs: readonly number[];
    /** The outputs are half registers (SP_FS_OUTPUT[i].REG HALF_PRECISION). */
    readonly halfOutputs?: boolean;
    /** Texel buffers the FS reads (t#0...): A6XX_TEX_CONST descriptors loaded into SB6_FS_TEX. */
    readonly textures?: readonly { readonly buffer: string; readonly format: string; readonly elements: number }[];
    /** 2D images the FS samples (t# after the texel buffers): a buffer of tightly packed rows, laid out linear at fdl6's pitch. */
    readonly images?: readonly { readonly buffer: string; readonly format: string; readonly width: number; readonly height: number; readonly levels?: number }[];
    /**
     * Colour targets the FS samples as 2D images (t# after the images): a feedback loop, as an
     * input attachment or framebuffer fetch reads the target. The stream then sets GRAS_SC_CNTL
     * SINGLE_PRIM_MODE as turnip does for a feedback loop in sysmem (FLUSH_PER_OVERLAP_AND_OVERWRITE).
     */
    readonly feedback?: readonly number[];
    /**
     * The depth buffer sampled as a 2D image (t# after the colour feedback reads): a depth input
     * attachment of the subpass that renders it (D24S8's depth aspect FMT6_Z24_UNORM_S8_UINT,
     * DEPTH6_32 FMT6_32_FLOAT, DEPTH6_16 FMT6_16_UNORM), a feedback loop like `feedback`.
     */
    readonly feedbackDepth?: boolean;
    /** Samplers (s#0...): A6XX_TEX_SAMP in SB6_FS_TEX (ST6_SHADER); `mip` none (level 0 only, MAX_LOD 0), nearest or linear. */
    readonly samplers?: readonly { readonly linear: boolean; readonly wrap: 'A6XX_TEX_REPEAT' | 'A6XX_TEX_CLAMP_TO_EDGE' | 'A6XX_TEX_MIRROR_REPEAT'; readonly mip?: 'none' | 'nearest' | 'linear' }[];
  };
  readonly state: GfxState;
  readonly draws: readonly GfxDraw[];
}

export interface StencilDesc {
  readonly func: string;
  readonly fail: string;
  readonly zpass: string;
  readonly zfail: string;
  readonly ref: number;
  readonly mask?: number;
  readonly wrmask?: number;
}

export interface BlendDesc {
  readonly enable: boolean;
  readonly rgbSrc: string;
  readonly rgbDst: string;
  readonly rgbOp: string;
  readonly aSrc: string;
  readonly aDst: string;
  readonly aOp: string;
  readonly mask?: number;
}

export interface GfxState {
  readonly cullFront?: boolean;
  readonly cullBack?: boolean;
  readonly frontCw?: boolean;
  readonly provokingLast?: boolean;
  readonly viewport: readonly [number, number, number, number];
  readonly scissor: readonly [number, number, number, number];
  readonly depthFunc?: string;
  readonly depthWrite?: boolean;
  readonly depthTest?: boolean;
  readonly stencil?: StencilDesc;
  readonly blend: readonly (BlendDesc | undefined)[];
  readonly blendConstant?: readonly number[];
  /** Polygon offset (GRAS_SU_CNTL POLY_OFFSET): constant (in minimum resolvable differences), slope, clamp. */
  readonly depthBias?: { readonly constant: number; readonly slope: number; readonly clamp?: number };
  /** Depth bounds test (RB_DEPTH_CNTL Z_BOUNDS_ENABLE, RB_Z_BOUNDS_MIN / _MAX). */
  readonly depthBounds?: readonly [number, number];
  /** A logic op on every target (a3xx_rop_code name, RB_MRT[i].CONTROL ROP_ENABLE; blending off). */
  readonly logicOp?: string;
  /** Vulkan depthClampEnable: GRAS_CL_CNTL / RB_DEPTH_CNTL Z_CLAMP_ENABLE with the viewport's [0, 1] range. */
  readonly depthClamp?: boolean;
  /** VK_EXT_depth_clip_enable (default !depthClamp): false sets GRAS_CL_CNTL ZNEAR / ZFAR_CLIP_DISABLE. */
  readonly depthClip?: boolean;
  /** GRAS_SC_CNTL SINGLE_PRIM_MODE of the scene's draws, overriding the driver's choice (a6xx_single_prim_mode name). */
  readonly singlePrimMode?: string;
}

export interface GfxDraw {
  readonly prim: string;
  readonly count: number;
  readonly instances?: number;
  readonly indices?: { readonly buffer: string; readonly size: 1 | 2 | 4 };
  readonly first?: number;
  readonly vertexOffset?: number;
  readonly firstInstance?: number;
  readonly restart?: number;
  /** Draw through CP_DRAW_INDIRECT / CP_DRAW_INDX_INDIRECT with the parameters in memory. */
  readonly indirect?: boolean;
  /**
   * Draw through one CP_DRAW_INDIRECT_MULTI (as turnip's vkCmdDraw(Indexed)Indirect(Count)):
   * this draw's parameters then `more` sub-draws, `stride` bytes apart (default the Vulkan
   * struct's size); `count`: the dword INDIRECT_COUNT points at (DRAW_COUNT stays the maximum);
   * `dstOff`: the VS constant vec4 that gets {draw_id, first_vertex, first_instance, 0}.
   */
  readonly multi?: { readonly more?: readonly Pick<GfxDraw, 'count' | 'instances' | 'first' | 'vertexOffset' | 'firstInstance'>[]; readonly stride?: number; readonly count?: number; readonly dstOff?: number };
  /**
   * Draw through CP_DRAW_AUTO (DI_SRC_SEL_AUTO_XFB): vertices = (counter - `offset`) / `stride`.
   * The counter is `bytes` placed in memory, or (`xfb`) the byte counter an earlier draw's
   * transform feedback into that buffer wrote (vkCmdDrawIndirectByteCountEXT); with `inputs`
   * every VS input fetches from that buffer (its offsets kept, `stride` apart) for this draw.
   */
  readonly auto?: { readonly bytes: number; readonly offset: number; readonly stride: number } | { readonly xfb: string; readonly stride: number; readonly offset?: number; readonly inputs?: boolean };
  /**
   * Transform feedback of this draw (VK_EXT_transform_feedback as turnip emits it): VS outputs
   * captured into scene buffer `buffer` from byte `offset` (`size` bytes, default the rest), one
   * `stride`-byte record a vertex, output `loc` .. `loc + components - 1` at byte `at` of the
   * record; `discard` turns rasterization off for the draw (rasterizerDiscardEnable); `resume`
   * continues after an earlier capture into the same buffer (its counter read back at begin).
   */
  readonly xfb?: GfxXfb;
  /** State changed before this draw (kept for the following ones). */
  readonly state?: Partial<GfxState>;
}

export interface GfxXfb {
  readonly buffer: string;
  readonly offset?: number;
  readonly size?: number;
  readonly stride: number;
  readonly outputs: readonly { readonly loc: number; readonly components: number; readonly at: number }[];
  readonly discard?: boolean;
  /** Continue after what the buffer's counter says an earlier capture wrote (a counter buffer at begin). */
  readonly resume?: boolean;
}

/**
 * The SO program of one capture as turnip's tu6_setup_streamout builds it (stream 0, buffer 0):
 * dword loc / 2 of the 64-dword stream block, the A half for even locations, B for odd, each with
 * its buffer and byte offset; returned as VPC_SO_CNTL / VPC_SO_PROG writes over the runs of used dwords.
 */
export function xfbProgram(x: GfxXfb, gen: Gen = 'a6xx'): [string, number][] {
  const prog = new Uint32Array(64);
  const valid = new Set<number>();
  for (const o of x.outputs)
    for (let c = 0; c < o.components; c++) {
      const loc = o.loc + c;
      const off = o.at + 4 * c;
      if (loc >= 128 || off % 4) throw new Error(`xfb output at location ${loc}, byte ${off}: locations 0..127, dword offsets`);
      const d = loc >> 1;
      prog[d] = (prog[d]! | encodeFields('A6XX.VPC_SO_PROG', loc & 1 ? { B_EN: true, B_BUF: 0, B_OFF: off } : { A_EN: true, A_BUF: 0, A_OFF: off }, gen)) >>> 0;
      valid.add(d);
    }
  const out: [string, number][] = [];
  let first = true;
  for (let d = 0; d < 64; d++) {
    if (!valid.has(d) || valid.has(d - 1)) continue;
    out.push(['VPC_SO_CNTL', encodeFields('A6XX.VPC_SO_CNTL', { RESET: first, ADDR: d }, gen)]);
    for (let e = d; valid.has(e); e++) out.push(['VPC_SO_PROG', prog[e]!]);
    first = false;
  }
  return out;
}

/** A colour target in memory; UBWC ones carry their flag plane (it precedes the pixel plane, as fdl6 lays it out). */
export interface BuiltTarget {
  readonly base: number;
  readonly pitch: number;
  readonly format: string;
  readonly cpp: number;
  readonly tile: TileMode;
  readonly ubwc?: { readonly flags: number; readonly flagPitch: number; readonly layout: UbwcLayout };
}

export interface BuiltDraw {
  readonly gen: Gen;
  readonly mem: Memory;
  readonly stream: Uint32Array;
  readonly streamIova: number;
  readonly segments: readonly Segment[];
  /** Colour targets and depth / stencil: base and pitch (bytes), samples stored per pixel. */
  readonly targets: readonly BuiltTarget[];
  readonly depth?: { readonly base: number; readonly pitch: number; readonly cpp: number; readonly ubwc?: { readonly flags: number; readonly flagPitch: number; readonly layout: UbwcLayout } };
  readonly stencil?: { readonly base: number; readonly pitch: number };
  /**
   * Feedback loops (GfxScene fs.feedback; target -1: fs.feedbackDepth): where each target-reading A6XX_TEX_CONST lies (GMEM mode
   * rewrites it into a TILE6_2 descriptor of the bin buffer), and the stream dword of the
   * GRAS_SC_CNTL write (GMEM mode sets its SINGLE_PRIM_MODE).
   */
  readonly feedback?: { readonly descs: readonly { readonly iova: number; readonly target: number }[]; readonly scCntlAt: number };
  /** Multisampled scenes: each colour target resolved by the 2D engine (CP_BLIT, samples averaged) into a linear surface. */
  readonly resolved?: readonly { readonly base: number; readonly pitch: number; readonly format: string; readonly cpp: number }[];
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
const fbits = (x: number): number => {
  f32[0] = x;
  return u32[0]!;
};

/** Lay out memory and build the stream of a scene. */
export function buildDraw(sc: GfxScene): BuiltDraw {
  const gen: Gen = 'a6xx';
  const mem = new Memory();
  const segs: Segment[] = [];
  const alloc = (bytes: Uint8Array, label: string): Segment => {
    const s = mem.alloc(Math.max(bytes.length, 4), label, 0x1000, bytes.length ? bytes : new Uint8Array(4));
    segs.push(s);
    return s;
  };
  const { width, height, samples } = sc;
  const code = (sh: GfxShader, what: string): { seg: Segment; instrlen: number } => {
    const words = sh.words ?? assembleIr3(sh.asm ?? '', { gpuId: sc.gpuId });
    const instrlen = Math.ceil((words.length * 4) / INSTR_UNIT);
    const b = new Uint8Array(instrlen * INSTR_UNIT);
    b.set(new Uint8Array(words.buffer, words.byteOffset, words.length * 4));
    return { seg: alloc(b, what), instrlen };
  };
  const buffers = new Map<string, Segment>();
  for (const [name, data] of sc.buffers) buffers.set(name, alloc(data, `buf:${name}`));

  // Render targets: fdl6 pitch and height for the layout, samples of a pixel side by side.
  const targets = sc.targets.map((t, i): BuiltTarget => {
    const f = fmt6ByName(t.format);
    if (t.tile === 'UBWC') {
      // fdl6: the flag plane first (pitch = blocks per row aligned to 64, 16-row aligned, 4 KiB
      // aligned), the TILE6_3 pixel plane after it. Every flag starts "stored whole" (0x1f) over
      // the zeroed pixels: a valid encoding for any format.
      const layout = ubwcLayout(width, height, f.cpp * samples);
      const init = new Uint8Array(layout.dataOffset + layout.dataSize);
      init.fill(FLAG_UNCOMPRESSED, 0, layout.metaSize);
      const s = alloc(init, `mrt${i}`);
      return { base: s.base + layout.dataOffset, pitch: layout.pitch, format: t.format, cpp: f.cpp, tile: 'tile6_3', ubwc: { flags: s.base, flagPitch: layout.metaPitch, layout } };
    }
    const tile: TileMode = t.tile === 'TILE6_3' ? 'tile6_3' : 'linear';
    const pitch = defaultPitch(width, f.cpp * samples, tile);
    const s = alloc(new Uint8Array(pitch * paddedHeight(height, tile, f.cpp * samples)), `mrt${i}`);
    return { base: s.base, pitch, format: t.format, cpp: f.cpp, tile };
  });
  let depth: BuiltDraw['depth'];
  let stencil: BuiltDraw['stencil'];
  if (sc.depth) {
    const cpp = sc.depth.format === 'DEPTH6_16' ? 2 : 4;
    if (sc.depth.ubwc) {
      // As the colour targets: fdl6's flag plane first (every flag "stored whole"), the TILE6_3 pixel plane after it.
      const layout = ubwcLayout(width, height, cpp * samples);
      const init = new Uint8Array(layout.dataOffset + layout.dataSize);
      init.fill(FLAG_UNCOMPRESSED, 0, layout.metaSize);
      const s = alloc(init, 'depth');
      depth = { base: s.base + layout.dataOffset, pitch: layout.pitch, cpp, ubwc: { flags: s.base, flagPitch: layout.metaPitch, layout } };
    } else {
      const pitch = defaultPitch(width, cpp * samples, 'linear');
      depth = { base: alloc(new Uint8Array(pitch * height), 'depth').base, pitch, cpp };
    }
    if (sc.depth.stencil && sc.depth.format !== 'DEPTH6_24_8') {
      const sp = defaultPitch(width, samples, 'linear');
      stencil = { base: alloc(new Uint8Array(sp * height), 'stencil').base, pitch: sp };
    }
  }

  const cs = new CmdStream(gen);
  const fbDescs: { iova: number; target: number }[] = [];
  const E = (e: string, v: string): number => {
    const x = enumValue(e, v, gen);
    if (x === undefined) throw new Error(`${e} has no ${v}`);
    return x;
  };
  const ls6 = (block: string, type: string, src: string, dst: number, units: number): number => encodeFields('CP_LOAD_STATE6.0', { DST_OFF: dst, STATE_TYPE: type, STATE_SRC: src, STATE_BLOCK: block, NUM_UNIT: units }, gen);
  const msaa = samples === 4 ? 'MSAA_FOUR' : samples === 2 ? 'MSAA_TWO' : 'MSAA_ONE';

  cs.setMarker('RM6_BYPASS');
  // turnip's hardware init: stream-out off until a transform feedback begins.
  const usesXfb = sc.draws.some((d) => d.xfb);
  if (usesXfb) cs.reg('VPC_SO_DISABLE', { DISABLE: true });
  // Surfaces, window, MSAA (fd6 sysmem prep: the window scissor covers the whole framebuffer).
  cs.reg('GRAS_SC_WINDOW_SCISSOR_TL', { X: 0, Y: 0 }).reg('GRAS_SC_WINDOW_SCISSOR_BR', { X: width - 1, Y: height - 1 });
  for (const r of ['GRAS_RAS_MSAA_CNTL', 'RB_RAS_MSAA_CNTL']) cs.reg(r, { SAMPLES: msaa });
  for (const r of ['GRAS_DEST_MSAA_CNTL', 'RB_DEST_MSAA_CNTL']) cs.reg(r, { SAMPLES: msaa, MSAA_DISABLE: samples === 1 });
  cs.reg('RB_SAMPLE_CONFIG', 0);
  targets.forEach((t, i) => {
    cs.reg(`RB_MRT[${i}].BUF_INFO`, { COLOR_FORMAT: t.format, COLOR_TILE_MODE: t.tile === 'tile6_3' ? 'TILE6_3' : 'TILE6_LINEAR', COLOR_SWAP: 'WZYX' });
    cs.reg(`RB_MRT[${i}].PITCH`, t.pitch >> 6).reg(`RB_MRT[${i}].ARRAY_PITCH`, (t.pitch * height) >> 6).reg64(`RB_MRT[${i}].BASE`, t.base);
    cs.reg(`SP_FS_MRT[${i}].REG`, { COLOR_FORMAT: t.format });
    // The flag buffer (fd6_emit_flag_reference: address, pitch, array pitch = the flag layer size >> 2; zeros without UBWC).
    cs.reg64(`RB_MRT_FLAG_BUFFER[${i}].ADDR`, t.ubwc?.flags ?? 0);
    cs.reg(`RB_MRT_FLAG_BUFFER[${i}].PITCH`, t.ubwc ? { PITCH: t.ubwc.flagPitch, ARRAY_PITCH: t.ubwc.layout.metaSize >> 2 } : 0);
  });
  // RB_RENDER_CNTL: which MRTs the RB writes compressed (update_render_cntl's FLAG_MRTS).
  cs.reg('RB_RENDER_CNTL', { CCUSINGLECACHELINESIZE: 2, FLAG_DEPTH: !!depth?.ubwc, FLAG_MRTS: targets.reduce((m, t, i) => (t.ubwc ? m | (1 << i) : m), 0) });
  const dfmt = sc.depth?.format ?? 'DEPTH6_NONE';
  cs.reg('RB_DEPTH_BUFFER_INFO', { DEPTH_FORMAT: dfmt }).reg('GRAS_SU_DEPTH_BUFFER_INFO', { DEPTH_FORMAT: dfmt });
  if (depth) cs.reg('RB_DEPTH_BUFFER_PITCH', depth.pitch >> 6).reg('RB_DEPTH_BUFFER_ARRAY_PITCH', (depth.pitch * height) >> 6).reg64('RB_DEPTH_BUFFER_BASE', depth.base);
  // The depth flag buffer (turnip's tu_cs_image_flag_ref: address, then the view's FLAG_BUFFER_PITCH, whose
  // encoding is the MRTs': pitch, array pitch = the flag layer size >> 2; zeros without UBWC).
  if (depth) cs.reg64('RB_DEPTH_FLAG_BUFFER_BASE', depth.ubwc?.flags ?? 0).reg('RB_DEPTH_FLAG_BUFFER_PITCH', depth.ubwc ? { PITCH: depth.ubwc.flagPitch, ARRAY_PITCH: depth.ubwc.layout.metaSize >> 2 } : 0);
  cs.reg('RB_STENCIL_INFO', { SEPARATE_STENCIL: !!stencil });
  if (stencil) cs.reg('RB_STENCIL_BUFFER_PITCH', stencil.pitch >> 6).reg('RB_STENCIL_BUFFER_ARRAY_PITCH', (stencil.pitch * height) >> 6).reg64('RB_STENCIL_BUFFER_BASE', stencil.base);
  const nMrt = targets.length;
  cs.reg('RB_FS_OUTPUT_CNTL1', { MRT: nMrt }).reg('SP_FS_OUTPUT_CNTL1', { MRT: nMrt });
  const comps: Record<string, number> = {};
  for (let i = 0; i < nMrt; i++) comps[`RT${i}`] = 0xf;
  cs.reg('RB_RENDER_COMPONENTS', comps).reg('SP_FS_RENDER_COMPONENTS', comps);
  cs.reg('GRAS_CL_CNTL', { ZERO_GB_SCALE_Z: true, VP_CLIP_CODE_IGNORE: true });
  cs.reg('HLSQ_CONTROL_1_REG', { PRIMALLOCTHRESHOLD: 3 });
  cs.reg('HLSQ_CONTROL_5_REG', { LINELENGTHREGID: REGID_NONE, FOVEATIONQUALITYREGID: REGID_NONE });

  /** The program state of one VS/FS pair (fd6_program: VS, VPC, FS). */
  const program = (vs: GfxScene['vs'], fs: GfxScene['fs'], inputs: readonly { seg: Segment; inp: VsInput }[], fsConstOverride?: Uint32Array): void => {
    const v = code(vs, 'vs');
    const f = code(fs, 'fs');
    cs.reg('HLSQ_INVALIDATE_CMD', { VS_STATE: true, HS_STATE: true, DS_STATE: true, GS_STATE: true, FS_STATE: true, GFX_IBO: true });
    // VS.
    const vsConstlen = Math.ceil((vs.consts?.length ?? 0) / 16) * 4;
    cs.reg('SP_VS_CTRL_REG0', { FULLREGFOOTPRINT: vs.fullRegs, HALFREGFOOTPRINT: vs.halfRegs ?? 0, MERGEDREGS: true });
    cs.reg('SP_VS_CONFIG', { ENABLED: true }).reg('HLSQ_VS_CNTL', { CONSTLEN: vsConstlen, ENABLED: true });
    cs.reg64('SP_VS_OBJ_START', v.seg.base).reg('SP_VS_INSTRLEN', v.instrlen);
    cs.pkt('CP_LOAD_STATE6_GEOM', [ls6('SB6_VS_SHADER', 'ST6_SHADER', 'SS6_INDIRECT', 0, v.instrlen), lo32(v.seg.base), hi32(v.seg.base)]);
    if (vsConstlen) cs.pkt('CP_LOAD_STATE6_GEOM', [ls6('SB6_VS_SHADER', 'ST6_CONSTANTS', 'SS6_DIRECT', 0, vsConstlen), 0, 0, ...Array.from({ length: vsConstlen * 4 }, (_, k) => vs.consts![k] ?? 0)]);
    // VFD: one fetch per input (turnip binds per binding; here per attribute for simplicity).
    cs.reg('VFD_CONTROL_0', { FETCH_CNT: inputs.length, DECODE_CNT: inputs.length });
    cs.reg('VFD_CONTROL_1', { REGID4VTX: vs.vertexIdReg ?? REGID_NONE, REGID4INST: vs.instanceIdReg ?? REGID_NONE, REGID4PRIMID: REGID_NONE, REGID4VIEWID: REGID_NONE });
    cs.reg('VFD_ADD_OFFSET', { VERTEX: true, INSTANCE: true });
    inputs.forEach(({ seg, inp }, i) => {
      cs.reg64(`VFD_FETCH[${i}].BASE`, seg.base).reg(`VFD_FETCH[${i}].SIZE`, seg.size).reg(`VFD_FETCH[${i}].STRIDE`, inp.stride);
      cs.reg(`VFD_DECODE[${i}].INSTR`, { IDX: i, OFFSET: inp.offset, INSTANCED: !!inp.instanced, FORMAT: inp.format, SWAP: 'WZYX', UNK30: true, FLOAT: !/_(UINT|SINT)$/.test(inp.format) });
      cs.reg(`VFD_DECODE[${i}].STEP_RATE`, inp.stepRate ?? 1);
      cs.reg(`VFD_DEST_CNTL[${i}].INSTR`, { WRITEMASK: inp.mask, REGID: inp.regid });
    });
    // VS outputs -> VPC.
    const outs = vs.outputs;
    cs.reg('SP_VS_PRIMITIVE_CNTL', { OUT: outs.length, FLAGS_REGID: REGID_NONE });
    for (let k = 0; k < outs.length; k += 2) {
      const a = outs[k]!;
      const b = outs[k + 1];
      cs.reg(`SP_VS_OUT[${k >> 1}].REG`, { A_REGID: a.regid, A_COMPMASK: a.compmask, B_REGID: b?.regid ?? 0, B_COMPMASK: b?.compmask ?? 0 });
    }
    for (let k = 0; k < outs.length; k += 4) {
      const f: Record<string, number> = {};
      for (let j = 0; j < 4 && k + j < outs.length; j++) f[`OUTLOC${j}`] = outs[k + j]!.loc;
      cs.reg(`SP_VS_VPC_DST[${k >> 2}].REG`, f);
    }
    let maxLoc = 0;
    const used = new Uint32Array(4);
    for (const o of outs)
      for (let c = 0; c < 4; c++)
        if (o.compmask & (1 << c)) {
          const l = o.loc + c;
          maxLoc = Math.max(maxLoc, l + 1);
          if (l < vs.positionLoc || l >= vs.positionLoc + 4) used[l >> 5] = (used[l >> 5]! | (1 << (l & 31))) >>> 0;
        }
    cs.reg('VPC_VS_PACK', { STRIDE_IN_VPC: maxLoc, POSITIONLOC: vs.positionLoc, PSIZELOC: 0xff, EXTRAPOS: 0 });
    cs.reg('PC_VS_OUT_CNTL', { STRIDE_IN_VPC: maxLoc });
    const nonPos = used.reduce((a, w) => a + popcount(w), 0);
    cs.reg('VPC_CNTL_0', { NUMNONPOSVAR: nonPos, PRIMIDLOC: 0xff, VARYING: nonPos > 0, VIEWIDLOC: 0xff });
    for (let i = 0; i < 4; i++) cs.reg(`VPC_VAR[${i}].DISABLE`, ~used[i]! >>> 0);
    // FS.
    const threadsize = fs.threadsize === 128 ? 'THREAD128' : 'THREAD64';
    const fsConsts = fsConstOverride ?? fs.consts ?? new Uint32Array(0);
    const fsConstlen = Math.ceil(fsConsts.length / 16) * 4;
    cs.reg('SP_FS_CTRL_REG0', { THREADSIZE: threadsize, VARYING: nonPos > 0, FULLREGFOOTPRINT: fs.fullRegs, HALFREGFOOTPRINT: fs.halfRegs ?? 0, MERGEDREGS: true });
    cs.reg('SP_FS_CONFIG', { ENABLED: true }).reg('HLSQ_FS_CNTL', { CONSTLEN: fsConstlen, ENABLED: true });
    cs.reg('HLSQ_FS_CNTL_0', { THREADSIZE: threadsize, VARYINGS: nonPos > 0 });
    cs.reg64('SP_FS_OBJ_START', f.seg.base).reg('SP_FS_INSTRLEN', f.instrlen);
    cs.pkt('CP_LOAD_STATE6_FRAG', [ls6('SB6_FS_SHADER', 'ST6_SHADER', 'SS6_INDIRECT', 0, f.instrlen), lo32(f.seg.base), hi32(f.seg.base)]);
    if (fsConstlen) cs.pkt('CP_LOAD_STATE6_FRAG', [ls6('SB6_FS_SHADER', 'ST6_CONSTANTS', 'SS6_DIRECT', 0, fsConstlen), 0, 0, ...Array.from({ length: fsConstlen * 4 }, (_, k) => fsConsts[k] ?? 0)]);
    // Textures (fd6_emit_textures / tu6_emit_textures): A6XX_TEX_CONST (ST6_CONSTANTS) and
    // A6XX_TEX_SAMP (ST6_SHADER) through CP_LOAD_STATE6_FRAG SB6_FS_TEX, SP_FS_TEX_CONST/_SAMP.
    const texs = fs.textures ?? [];
    const imgs = fs.images ?? [];
    const samps = fs.samplers ?? [];
    const fbk = fs.feedback ?? [];
    const nTex = texs.length + imgs.length + fbk.length + (fs.feedbackDepth ? 1 : 0);
    if (nTex) {
      const d = new Uint32Array(16 * nTex);
      texs.forEach((t, k) => {
        const seg = buffers.get(t.buffer);
        if (!seg) throw new Error(`FS texture from unknown buffer ${t.buffer}`);
        d[16 * k] = encodeFields('A6XX_TEX_CONST.0', { TILE_MODE: 'TILE6_LINEAR', SWIZ_X: 'A6XX_TEX_X', SWIZ_Y: 'A6XX_TEX_Y', SWIZ_Z: 'A6XX_TEX_Z', SWIZ_W: 'A6XX_TEX_W', FMT: t.format, SWAP: 'WZYX' }, gen);
        d[16 * k + 1] = encodeFields('A6XX_TEX_CONST.1', { WIDTH: t.elements % 2 ** 15, HEIGHT: Math.floor(t.elements / 2 ** 15) }, gen);
        d[16 * k + 2] = encodeFields('A6XX_TEX_CONST.2', { TYPE: 'A6XX_TEX_BUFFER' }, gen);
        d[16 * k + 4] = encodeFields('A6XX_TEX_CONST.4', { BASE_LO: lo32(seg.base) }, gen);
        d[16 * k + 5] = encodeFields('A6XX_TEX_CONST.5', { BASE_HI: hi32(seg.base), DEPTH: 1 }, gen);
      });
      imgs.forEach((im, j) => {
        const k = texs.length + j;
        const src = sc.buffers.get(im.buffer);
        if (!src) throw new Error(`FS image from unknown buffer ${im.buffer}`);
        const cpp = fmt6ByName(im.format).cpp;
        if (!(im.width >= 1 && im.width <= 16384 && im.height >= 1 && im.height <= 16384)) throw new Error(`FS image ${im.buffer}: ${im.width}x${im.height} is outside 1..16384`);
        const levels = im.levels ?? 1;
        const maxLevels = 1 + Math.floor(Math.log2(Math.max(im.width, im.height)));
        if (!(Number.isInteger(levels) && levels >= 1 && levels <= maxLevels)) throw new Error(`FS image ${im.buffer}: ${levels} levels (a ${im.width}x${im.height} image has 1..${maxLevels})`);
        // fdl6 linear layout: rows at the aligned pitch, level k's pitch the level-0 pitch >> k
        // aligned again, the levels one after another; the buffer holds the levels tightly packed.
        const pitch = defaultPitch(im.width, cpp, 'linear');
        const align = 2 ** pitchAlignLog2(cpp, 'linear');
        const lv = Array.from({ length: levels }, (_, l) => ({ w: Math.max(1, im.width >> l), h: Math.max(1, im.height >> l), pitch: l === 0 ? pitch : alignUp(Math.max(1, pitch >> l), align) }));
        const need = lv.reduce((a, l) => a + l.w * l.h * cpp, 0);
        if (src.length < need) throw new Error(`FS image ${im.buffer}: ${im.width}x${im.height} texels of ${cpp} bytes in ${levels} level(s) need ${need} bytes, the buffer has ${src.length}`);
        const b = new Uint8Array(lv.reduce((a, l) => a + l.pitch * l.h, 0));
        let from = 0, to = 0;
        for (const l of lv) {
          for (let y = 0; y < l.h; y++) b.set(src.subarray(from + y * l.w * cpp, from + (y + 1) * l.w * cpp), to + y * l.pitch);
          from += l.w * l.h * cpp;
          to += l.pitch * l.h;
        }
        const seg = alloc(b, `image:${im.buffer}`);
        d[16 * k] = encodeFields('A6XX_TEX_CONST.0', { TILE_MODE: 'TILE6_LINEAR', SWIZ_X: 'A6XX_TEX_X', SWIZ_Y: 'A6XX_TEX_Y', SWIZ_Z: 'A6XX_TEX_Z', SWIZ_W: 'A6XX_TEX_W', MIPLVLS: levels - 1, FMT: im.format, SWAP: 'WZYX' }, gen);
        d[16 * k + 1] = encodeFields('A6XX_TEX_CONST.1', { WIDTH: im.width, HEIGHT: im.height }, gen);
        d[16 * k + 2] = encodeFields('A6XX_TEX_CONST.2', { PITCH: pitch, TYPE: 'A6XX_TEX_2D' }, gen);
        d[16 * k + 3] = encodeFields('A6XX_TEX_CONST.3', { ARRAY_PITCH: pitch * im.height }, gen);
        d[16 * k + 4] = encodeFields('A6XX_TEX_CONST.4', { BASE_LO: lo32(seg.base) }, gen);
        d[16 * k + 5] = encodeFields('A6XX_TEX_CONST.5', { BASE_HI: hi32(seg.base), DEPTH: 1 }, gen);
      });
      fbk.forEach((i, j) => {
        // A colour target read back (turnip's input attachment in sysmem): the target's own layout.
        const k = texs.length + imgs.length + j;
        const t = targets[i];
        if (!t) throw new Error(`FS feedback read of colour target ${i}: the scene has ${targets.length}`);
        // A multisampled target keeps its SAMPLES (the FS reads it per sample with isamm, txf_ms).
        if (samples > 1 && t.ubwc) throw new Error(`FS feedback read of colour target ${i}: a multisampled UBWC target is not modelled`);
        d[16 * k] = encodeFields('A6XX_TEX_CONST.0', { TILE_MODE: t.tile === 'tile6_3' ? 'TILE6_3' : 'TILE6_LINEAR', SWIZ_X: 'A6XX_TEX_X', SWIZ_Y: 'A6XX_TEX_Y', SWIZ_Z: 'A6XX_TEX_Z', SWIZ_W: 'A6XX_TEX_W', FMT: t.format, SWAP: 'WZYX', SAMPLES: msaa }, gen);
        d[16 * k + 1] = encodeFields('A6XX_TEX_CONST.1', { WIDTH: width, HEIGHT: height }, gen);
        d[16 * k + 2] = encodeFields('A6XX_TEX_CONST.2', { PITCH: t.pitch, TYPE: 'A6XX_TEX_2D' }, gen);
        d[16 * k + 3] = encodeFields('A6XX_TEX_CONST.3', { ARRAY_PITCH: t.pitch * paddedHeight(height, t.tile, t.cpp), FLAG: !!t.ubwc }, gen);
        d[16 * k + 4] = encodeFields('A6XX_TEX_CONST.4', { BASE_LO: lo32(t.base) }, gen);
        d[16 * k + 5] = encodeFields('A6XX_TEX_CONST.5', { BASE_HI: hi32(t.base), DEPTH: 1 }, gen);
        if (t.ubwc) {
          // UBWC: the flag plane (FLAG_LO/HI) and its row pitch, as fdl6 / turnip fill them.
          d[16 * k + 7] = encodeFields('A6XX_TEX_CONST.7', { FLAG_LO: lo32(t.ubwc.flags) }, gen);
          d[16 * k + 8] = encodeFields('A6XX_TEX_CONST.8', { FLAG_HI: hi32(t.ubwc.flags) }, gen);
          d[16 * k + 10] = encodeFields('A6XX_TEX_CONST.10', { FLAG_BUFFER_PITCH: t.ubwc.flagPitch }, gen);
        }
      });
      if (fs.feedbackDepth) {
        // The depth buffer read back (turnip's depth input attachment in sysmem: the image's layout).
        const k = texs.length + imgs.length + fbk.length;
        if (!depth || !sc.depth) throw new Error('FS feedback read of the depth buffer: the scene has none');
        if (depth.ubwc) throw new Error('FS feedback read of a UBWC depth buffer is not modelled');
        if (samples > 1) throw new Error('FS feedback read of the depth buffer: a multisampled depth buffer is not modelled');
        const fmt = { DEPTH6_16: 'FMT6_16_UNORM', DEPTH6_24_8: 'FMT6_Z24_UNORM_S8_UINT', DEPTH6_32: 'FMT6_32_FLOAT' }[sc.depth.format];
        d[16 * k] = encodeFields('A6XX_TEX_CONST.0', { TILE_MODE: 'TILE6_LINEAR', SWIZ_X: 'A6XX_TEX_X', SWIZ_Y: 'A6XX_TEX_Y', SWIZ_Z: 'A6XX_TEX_Z', SWIZ_W: 'A6XX_TEX_W', FMT: fmt, SWAP: 'WZYX' }, gen);
        d[16 * k + 1] = encodeFields('A6XX_TEX_CONST.1', { WIDTH: width, HEIGHT: height }, gen);
        d[16 * k + 2] = encodeFields('A6XX_TEX_CONST.2', { PITCH: depth.pitch, TYPE: 'A6XX_TEX_2D' }, gen);
        d[16 * k + 3] = encodeFields('A6XX_TEX_CONST.3', { ARRAY_PITCH: depth.pitch * height }, gen);
        d[16 * k + 4] = encodeFields('A6XX_TEX_CONST.4', { BASE_LO: lo32(depth.base) }, gen);
        d[16 * k + 5] = encodeFields('A6XX_TEX_CONST.5', { BASE_HI: hi32(depth.base), DEPTH: 1 }, gen);
      }
      const ds = alloc(new Uint8Array(d.buffer), 'fs texture descriptors');
      fbk.forEach((i, j) => fbDescs.push({ iova: ds.base + 64 * (texs.length + imgs.length + j), target: i }));
      if (fs.feedbackDepth) fbDescs.push({ iova: ds.base + 64 * (texs.length + imgs.length + fbk.length), target: -1 });
      cs.pkt('CP_LOAD_STATE6_FRAG', [ls6('SB6_FS_TEX', 'ST6_CONSTANTS', 'SS6_INDIRECT', 0, nTex), lo32(ds.base), hi32(ds.base)]);
      cs.reg64('SP_FS_TEX_CONST', ds.base).reg('SP_FS_TEX_COUNT', nTex);
    }
    if (samps.length) {
      const d = new Uint32Array(4 * samps.length);
      samps.forEach((s, k) => {
        const f = s.linear ? 'A6XX_TEX_LINEAR' : 'A6XX_TEX_NEAREST';
        const mipLinear = s.mip === 'linear';
        d[4 * k] = encodeFields('A6XX_TEX_SAMP.0', { XY_MAG: f, XY_MIN: f, WRAP_S: s.wrap, WRAP_T: s.wrap, WRAP_R: s.wrap, MIPFILTER_LINEAR_NEAR: mipLinear }, gen);
        // MIN_LOD 0, MAX_LOD the field's largest (VK_LOD_CLAMP_NONE as turnip clamps it); no
        // mipmapping (the default): MAX_LOD 0, level 0 only.
        d[4 * k + 1] = encodeFields('A6XX_TEX_SAMP.1', { MIN_LOD: 0, MAX_LOD: s.mip === 'nearest' || mipLinear ? 4095 : 0, MIPFILTER_LINEAR_FAR: mipLinear }, gen);
      });
      const ss = alloc(new Uint8Array(d.buffer), 'fs samplers');
      cs.pkt('CP_LOAD_STATE6_FRAG', [ls6('SB6_FS_TEX', 'ST6_SHADER', 'SS6_INDIRECT', 0, samps.length), lo32(ss.base), hi32(ss.base)]);
      cs.reg64('SP_FS_TEX_SAMP', ss.base);
    }
    if (nTex || samps.length) cs.reg('SP_FS_CONFIG', { ENABLED: true, NTEX: nTex, NSAMP: samps.length });
    // FS inputs as fd6 / turnip emit them: every enable follows from its register being named.
    const R = (r: number | undefined): number => r ?? REGID_NONE;
    const on = (r: number | undefined): boolean => r !== undefined && r < REGID_NONE;
    const coordMask = fs.coordMask ?? ((on(fs.fragCoord) ? 3 : 0) | (on(fs.fragCoordZw) ? 12 : 0));
    const ijs = { IJ_PERSP_PIXEL: on(fs.ijPersp), IJ_LINEAR_PIXEL: on(fs.ijLinear), IJ_PERSP_CENTROID: on(fs.ijPerspCentroid), IJ_LINEAR_CENTROID: on(fs.ijLinearCentroid), IJ_PERSP_SAMPLE: on(fs.ijPerspSample), IJ_LINEAR_SAMPLE: on(fs.ijLinearSample), COORD_MASK: coordMask };
    cs.reg('GRAS_CNTL', ijs).reg('RB_RENDER_CONTROL0', { ...ijs, UNK10: nonPos > 0 });
    cs.reg('RB_RENDER_CONTROL1', { FRAGCOORDSAMPLEMODE: fs.sampleShading ? 'FRAGCOORD_SAMPLE' : 'FRAGCOORD_CENTER', SAMPLEMASK: on(fs.sampleMask), SAMPLEID: on(fs.sampleId), FACENESS: on(fs.face) });
    cs.reg('RB_SAMPLE_CNTL', { PER_SAMP_MODE: !!fs.sampleShading }).reg('GRAS_SAMPLE_CNTL', { PER_SAMP_MODE: !!fs.sampleShading });
    cs.reg('GRAS_LRZ_PS_INPUT_CNTL', { SAMPLEID: on(fs.sampleId), FRAGCOORDSAMPLEMODE: fs.sampleShading ? 'FRAGCOORD_SAMPLE' : 'FRAGCOORD_CENTER' });
    cs.reg('HLSQ_CONTROL_2_REG', { FACEREGID: R(fs.face), SAMPLEID: R(fs.sampleId), SAMPLEMASK: R(fs.sampleMask), CENTERRHW: REGID_NONE });
    cs.reg('HLSQ_CONTROL_3_REG', { IJ_PERSP_PIXEL: R(fs.ijPersp), IJ_LINEAR_PIXEL: R(fs.ijLinear), IJ_PERSP_CENTROID: R(fs.ijPerspCentroid), IJ_LINEAR_CENTROID: R(fs.ijLinearCentroid) });
    cs.reg('HLSQ_CONTROL_4_REG', { IJ_PERSP_SAMPLE: R(fs.ijPerspSample), IJ_LINEAR_SAMPLE: R(fs.ijLinearSample), XYCOORDREGID: R(fs.fragCoord), ZWCOORDREGID: R(fs.fragCoordZw) });
    cs.reg('SP_FS_OUTPUT_CNTL0', { DEPTH_REGID: REGID_NONE, SAMPMASK_REGID: R(fs.sampleMaskOut), STENCILREF_REGID: REGID_NONE, DUAL_COLOR_IN_ENABLE: !!fs.dualSource });
    cs.reg('RB_FS_OUTPUT_CNTL0', { DUAL_COLOR_IN_ENABLE: !!fs.dualSource, FRAG_WRITES_SAMPMASK: on(fs.sampleMaskOut) });
    fs.outputs.forEach((r, i) => cs.reg(`SP_FS_OUTPUT[${i}].REG`, { REGID: r, HALF_PRECISION: !!fs.halfOutputs }));
  };

  /** RB / GRAS state of a draw. */
  const rbState = (st: GfxState, clear: boolean): void => {
    const [vx, vy, vw, vh] = st.viewport;
    // Viewport: centre and half size (Vulkan rules), depth [0, 1].
    cs.regs32('GRAS_CL_VPORT[0].XOFFSET', [fbits(vx + vw / 2), fbits(vw / 2), fbits(vy + vh / 2), fbits(vh / 2), fbits(0), fbits(1)]);
    // The guardband as fd6 / turnip compute it (fd_calc_guardband).
    cs.reg('GRAS_CL_GUARDBAND_CLIP_ADJ', { HORZ: guardbandAdj(vx + vw / 2, vw / 2), VERT: guardbandAdj(vy + vh / 2, vh / 2) });
    const [sx, sy, sw, sh] = st.scissor;
    const tl = { X: Math.max(0, sx), Y: Math.max(0, sy) };
    const br = { X: Math.max(0, sx + sw - 1), Y: Math.max(0, sy + sh - 1) };
    cs.reg('GRAS_SC_SCREEN_SCISSOR[0].TL', tl).reg('GRAS_SC_SCREEN_SCISSOR[0].BR', br);
    const vtl = { X: Math.max(0, Math.floor(Math.min(vx, vx + vw))), Y: Math.max(0, Math.floor(Math.min(vy, vy + vh))) };
    const vbr = { X: Math.max(0, Math.ceil(Math.max(vx, vx + vw)) - 1), Y: Math.max(0, Math.ceil(Math.max(vy, vy + vh)) - 1) };
    cs.reg('GRAS_SC_VIEWPORT_SCISSOR[0].TL', vtl).reg('GRAS_SC_VIEWPORT_SCISSOR[0].BR', vbr);
    cs.reg('GRAS_SU_CNTL', { CULL_FRONT: !!st.cullFront, CULL_BACK: !!st.cullBack, FRONT_CW: !!st.frontCw, LINEHALFWIDTH: 0.5 * 4, POLY_OFFSET: !clear && !!st.depthBias });
    if (!clear && st.depthBias) cs.regs32('GRAS_SU_POLY_OFFSET_SCALE', [fbits(st.depthBias.slope), fbits(st.depthBias.constant), fbits(st.depthBias.clamp ?? 0)]);
    cs.reg('GRAS_SU_POINT_SIZE', 16);
    cs.reg('PC_PRIMITIVE_CNTL_0', { PRIMITIVE_RESTART: false, PROVOKING_VTX_LAST: !!st.provokingLast });
    const zTest = !!sc.depth && (st.depthTest ?? true);
    const bounds = !clear && !!sc.depth && !!st.depthBounds;
    // Depth clamp / clip as turnip emits them (tu6_emit_viewport, the rasterizer state): GRAS_CL_CNTL
    // ZNEAR / ZFAR_CLIP_DISABLE = !depthClip, Z_CLAMP_ENABLE in GRAS_CL_CNTL and RB_DEPTH_CNTL, the
    // clamp range min / max of minDepth, maxDepth (0, 1 here) in GRAS_CL_Z_CLAMP[0] and RB_Z_CLAMP.
    const zClamp = !clear && !!st.depthClamp;
    const zClipOff = !clear && !(st.depthClip ?? !st.depthClamp);
    cs.reg('GRAS_CL_CNTL', { ZNEAR_CLIP_DISABLE: zClipOff, ZFAR_CLIP_DISABLE: zClipOff, Z_CLAMP_ENABLE: zClamp, ZERO_GB_SCALE_Z: true, VP_CLIP_CODE_IGNORE: true });
    if (zClamp) cs.regs32('GRAS_CL_Z_CLAMP[0].MIN', [fbits(0), fbits(1)]).regs32('RB_Z_CLAMP_MIN', [fbits(0), fbits(1)]);
    const ztest = { Z_TEST_ENABLE: zTest, Z_WRITE_ENABLE: zTest && (st.depthWrite ?? true), ZFUNC: st.depthFunc ?? 'FUNC_LESS', Z_CLAMP_ENABLE: zClamp, Z_READ_ENABLE: zTest || bounds, Z_BOUNDS_ENABLE: bounds };
    cs.reg('RB_DEPTH_CNTL', ztest).reg('GRAS_SU_DEPTH_CNTL', { Z_TEST_ENABLE: zTest });
    if (bounds) cs.regs32('RB_Z_BOUNDS_MIN', [fbits(st.depthBounds![0]), fbits(st.depthBounds![1])]);
    cs.reg('RB_DEPTH_PLANE_CNTL', { Z_MODE: 'A6XX_LATE_Z' }).reg('GRAS_SU_DEPTH_PLANE_CNTL', { Z_MODE: 'A6XX_LATE_Z' });
    const s = st.stencil;
    const hasS = !!sc.depth?.stencil && !!s;
    cs.reg('RB_STENCIL_CONTROL', hasS ? { STENCIL_ENABLE: true, STENCIL_READ: true, FUNC: s!.func, FAIL: s!.fail, ZPASS: s!.zpass, ZFAIL: s!.zfail } : 0);
    if (hasS) cs.reg('RB_STENCILREF', { REF: s!.ref & 0xff }).reg('RB_STENCILMASK', { MASK: s!.mask ?? 0xff }).reg('RB_STENCILWRMASK', { WRMASK: s!.wrmask ?? 0xff });
    let enableMask = 0;
    for (let i = 0; i < nMrt; i++) {
      const b = clear ? undefined : st.blend[i];
      if (b?.enable) enableMask |= 1 << i;
      const rop: Record<string, string | boolean> = !clear && st.logicOp ? { ROP_ENABLE: true, ROP_CODE: st.logicOp } : {};
      cs.reg(`RB_MRT[${i}].CONTROL`, { BLEND: !!b?.enable, BLEND2: !!b?.enable, COMPONENT_ENABLE: b?.mask ?? 0xf, ...rop });
      cs.reg(`RB_MRT[${i}].BLEND_CONTROL`, b ? { RGB_SRC_FACTOR: b.rgbSrc, RGB_BLEND_OPCODE: b.rgbOp, RGB_DEST_FACTOR: b.rgbDst, ALPHA_SRC_FACTOR: b.aSrc, ALPHA_BLEND_OPCODE: b.aOp, ALPHA_DEST_FACTOR: b.aDst } : { RGB_SRC_FACTOR: 'FACTOR_ONE', RGB_DEST_FACTOR: 'FACTOR_ZERO', ALPHA_SRC_FACTOR: 'FACTOR_ONE', ALPHA_DEST_FACTOR: 'FACTOR_ZERO' });
    }
    const dual = !clear && !!sc.fs.dualSource;
    cs.reg('RB_BLEND_CNTL', { ENABLE_BLEND: enableMask, INDEPENDENT_BLEND: true, SAMPLE_MASK: 0xffff, DUAL_COLOR_IN_ENABLE: dual }).reg('SP_BLEND_CNTL', { ENABLE_BLEND: enableMask, DUAL_COLOR_IN_ENABLE: dual });
    // sRGB targets (fd6: a bit per sRGB-format MRT); the clear writes its colour unconverted.
    const srgb: Record<string, boolean> = {};
    sc.targets.forEach((t, i) => (srgb[`SRGB_MRT${i}`] = !clear && !!t.srgb));
    cs.reg('RB_SRGB_CNTL', srgb).reg('SP_SRGB_CNTL', srgb);
    const k = st.blendConstant ?? [0, 0, 0, 0];
    cs.regs32('RB_BLEND_RED_F32', [fbits(k[0] ?? 0), fbits(k[1] ?? 0), fbits(k[2] ?? 0), fbits(k[3] ?? 0)]);
  };

  // The clear: a screen-covering triangle at the clear depth, FS = constant colours from c0...
  const clearZ = sc.depth?.clear ?? 0;
  const clearVb = alloc(new Uint8Array(new Float32Array([-1, -1, clearZ, 1, 3, -1, clearZ, 1, -1, 3, clearZ, 1]).buffer), 'clear vertices');
  const clearVs: GfxScene['vs'] = { asm: '(rpt3)mov.f32f32 r1.x, (r)r0.x\nend\n', fullRegs: 2, inputs: [], outputs: [{ regid: 4, compmask: 0xf, loc: 0 }], positionLoc: 0 };
  const clearFs: GfxScene['fs'] = { asm: [...targets.map((_, i) => `(rpt3)mov.f32f32 r${i}.x, (r)c${i}.x`), 'end', ''].join('\n'), fullRegs: Math.max(1, nMrt), outputs: targets.map((_, i) => i * 4) };
  const clearConsts = new Uint32Array(Math.max(4, nMrt * 4));
  sc.targets.forEach((t, i) => t.clear.forEach((c, k) => (clearConsts[i * 4 + k] = fbits(c))));
  program(clearVs, clearFs, [{ seg: clearVb, inp: { buffer: '', stride: 16, offset: 0, format: 'FMT6_32_32_32_32_FLOAT', regid: 0, mask: 0xf } }], clearConsts);
  rbState({ viewport: [0, 0, width, height], scissor: [0, 0, width, height], blend: [], depthFunc: 'FUNC_ALWAYS', depthWrite: true, ...(sc.depth?.stencil ? { stencil: { func: 'FUNC_ALWAYS', fail: 'STENCIL_REPLACE', zpass: 'STENCIL_REPLACE', zfail: 'STENCIL_REPLACE', ref: sc.depth.stencil.clear } } : {}) }, true);
  cs.reg('VFD_INDEX_OFFSET', 0).reg('VFD_INSTANCE_START_OFFSET', 0);
  cs.drawAuto('DI_PT_TRILIST', 3);

  // SINGLE_PRIM_MODE: turnip's sysmem choice — FLUSH_PER_OVERLAP_AND_OVERWRITE for a pipeline in a
  // feedback loop, NO_FLUSH otherwise (the clear above ran with the reset value 0, NO_FLUSH, as
  // turnip's 3D blit sets it).
  // A feedback loop also needs the clear's writes visible to the TP: the barrier's CCU colour
  // flush and CACHE_INVALIDATE.
  const feedback = (sc.fs.feedback ?? []).length > 0 || !!sc.fs.feedbackDepth;
  // (A depth read-back also needs the clear's depth writes out of the CCU depth cache.)
  if (sc.fs.feedbackDepth) cs.event('PC_CCU_FLUSH_DEPTH_TS');
  if (feedback) cs.event('PC_CCU_FLUSH_COLOR_TS').event('CACHE_INVALIDATE');
  const primMode = sc.state.singlePrimMode ?? (feedback ? 'FLUSH_PER_OVERLAP_AND_OVERWRITE' : 'NO_FLUSH');
  const scCntlAt = cs.length;
  if (feedback || sc.state.singlePrimMode !== undefined) cs.reg('GRAS_SC_CNTL', { CCUSINGLECACHELINESIZE: 2, SINGLE_PRIM_MODE: primMode });

  // The scene's program and state, then its draws.
  const inputs = sc.vs.inputs.map((inp) => {
    const seg = buffers.get(inp.buffer);
    if (!seg) throw new Error(`vertex input from unknown buffer ${inp.buffer}`);
    return { seg, inp };
  });
  program(sc.vs, sc.fs, inputs);
  rbState(sc.state, false);
  let st = sc.state;
  // Transform feedback (turnip's tu6_setup_streamout, vkCmdBindTransformFeedbackBuffersEXT,
  // vkCmdBegin / EndTransformFeedbackEXT): the counter of each captured buffer, the FLUSH_SO slots.
  const xfbCounters = new Map<string, { counter: Segment; start: number }>();
  const flushSlots = usesXfb ? alloc(new Uint8Array(4 * 32), 'xfb flush base') : undefined;
  let soProgrammed = false;
  /** The block runs in SYSMEM and BINNING only (turnip's tu_cond_exec_start: some XFB commands must run once). */
  const sysmemOrBinning = (body: CmdStream): void => {
    const w = body.dwords();
    cs.condRegExecRenderMode(['SYSMEM', 'BINNING'], w.length).raw(...w);
  };
  let endXfb: (() => void) | undefined;
  for (const d of sc.draws) {
    endXfb?.();
    endXfb = undefined;
    if (d.state) {
      st = { ...st, ...d.state };
      rbState(st, false);
    }
    const x = d.xfb;
    if (x || soProgrammed) {
      // The pipeline's stream-out state: stream 0 to buffer 0, its stride and SO program; none without.
      const pairs: [string, number][] = x
        ? [['VPC_SO_STREAM_CNTL', encodeFields('A6XX.VPC_SO_STREAM_CNTL', { STREAM_ENABLE: 1, BUF0_STREAM: 1 }, gen)], ...[0, 1, 2, 3].map((i): [string, number] => [`VPC_SO[${i}].BUFFER_STRIDE`, i === 0 ? x.stride >> 2 : 0]), ...xfbProgram(x, gen)]
        : [['VPC_SO_STREAM_CNTL', 0]];
      cs.contextRegBunch(pairs);
      soProgrammed = !!x;
    }
    let xfbOffset = 0;
    if (x) {
      const seg = buffers.get(x.buffer);
      if (!seg) throw new Error(`xfb into unknown buffer ${x.buffer}`);
      if (x.stride % 4 || x.stride <= 0 || x.stride > 4092) throw new Error(`xfb stride ${x.stride}: a multiple of 4 up to 4092 bytes`);
      const iova = seg.base + (x.offset ?? 0);
      const size = x.size ?? seg.size - (x.offset ?? 0);
      // BUFFER_BASE is 32-byte aligned: the remainder goes to BUFFER_OFFSET (and is subtracted from the counter).
      xfbOffset = iova & 0x1f;
      const bind = new CmdStream(gen).reg64('VPC_SO[0].BUFFER_BASE', iova - xfbOffset).reg('VPC_SO[0].BUFFER_SIZE', size + xfbOffset);
      sysmemOrBinning(bind);
      const begin = new CmdStream(gen).reg('VPC_SO_DISABLE', { DISABLE: false });
      for (let i = 0; i < 4; i++) begin.reg(`VPC_SO[${i}].BUFFER_OFFSET`, i === 0 ? xfbOffset : 0);
      if (x.resume) {
        // vkCmdBeginTransformFeedbackEXT with a counter buffer: continue after the bytes it counts.
        const xc = xfbCounters.get(x.buffer);
        if (!xc) throw new Error(`xfb resume into ${x.buffer}: no earlier capture wrote its counter`);
        begin.memToReg('VPC_SO[0].BUFFER_OFFSET', xc.counter.base);
        if (xfbOffset) begin.regRmw('VPC_SO[0].BUFFER_OFFSET', 0xffffffff, xfbOffset, { add: true });
      }
      sysmemOrBinning(begin);
      if (x.discard) cs.reg('PC_RASTER_CNTL', { DISCARD: true });
    }
    cs.reg('VFD_INDEX_OFFSET', d.vertexOffset ?? 0).reg('VFD_INSTANCE_START_OFFSET', d.firstInstance ?? 0);
    cs.reg('PC_PRIMITIVE_CNTL_0', { PRIMITIVE_RESTART: d.restart !== undefined, PROVOKING_VTX_LAST: !!st.provokingLast });
    if (d.restart !== undefined) cs.reg('PC_RESTART_INDEX', d.restart >>> 0);
    if (x) {
      // After the draw (at the next draw or the end): the end of transform feedback.
      endXfb = (): void => {
        if (x.discard) cs.reg('PC_RASTER_CNTL', { DISCARD: false });
        // End: stream-out off, every buffer's offset flushed (in dwords) to its slot, then the byte
        // counter = slot x 4 - the BUFFER_OFFSET remainder, through CP_SCRATCH[0].
        const slots = flushSlots!;
        const end = new CmdStream(gen).reg('VPC_SO_DISABLE', { DISABLE: true });
        for (let i = 0; i < 4; i++) end.reg64(`VPC_SO[${i}].FLUSH_BASE`, slots.base + 32 * i).event(`FLUSH_SO_${i}`);
        let xc = xfbCounters.get(x.buffer);
        if (!xc) xfbCounters.set(x.buffer, (xc = { counter: alloc(new Uint8Array(4), `xfb counter:${x.buffer}`), start: x.offset ?? 0 }));
        end.memToReg('CP_SCRATCH[0]', slots.base, 1, true);
        if (xfbOffset) end.regRmw('CP_SCRATCH[0]', 0xffffffff, -xfbOffset >>> 0, { add: true });
        end.regToMem('CP_SCRATCH[0]', xc.counter.base);
        sysmemOrBinning(end);
      };
    }
    const prim = E('pc_di_primtype', d.prim);
    const ini = (src: string, size?: string): number => encodeFields('vgt_draw_initiator_a4xx', { PRIM_TYPE: prim, SOURCE_SELECT: src, VIS_CULL: 'IGNORE_VISIBILITY', ...(size ? { INDEX_SIZE: size } : {}) }, gen);
    if (d.auto) {
      // freedreno's draw_emit_xfb: the stream-out byte counter's address, the offset subtracted, the vertex stride.
      const a = d.auto;
      if ('xfb' in a) {
        const xc = xfbCounters.get(a.xfb);
        const src = buffers.get(a.xfb);
        if (!xc || !src) throw new Error(`draw auto from xfb buffer ${a.xfb}: no earlier draw captures into it`);
        // The VS inputs fetch the captured records for this draw.
        if (a.inputs) inputs.forEach((_, i) => cs.reg64(`VFD_FETCH[${i}].BASE`, src.base + xc.start).reg(`VFD_FETCH[${i}].SIZE`, src.size - xc.start).reg(`VFD_FETCH[${i}].STRIDE`, a.stride));
        // The counter was written by CP_REG_TO_MEM: wait for it before the CP reads it.
        cs.pkt('CP_WAIT_MEM_WRITES').waitForMe();
        cs.pkt('CP_DRAW_AUTO', [ini('DI_SRC_SEL_AUTO_XFB'), d.instances ?? 1, lo32(xc.counter.base), hi32(xc.counter.base), a.offset ?? 0, a.stride]);
        if (a.inputs) inputs.forEach(({ seg, inp }, i) => cs.reg64(`VFD_FETCH[${i}].BASE`, seg.base).reg(`VFD_FETCH[${i}].SIZE`, seg.size).reg(`VFD_FETCH[${i}].STRIDE`, inp.stride));
        continue;
      }
      const c = alloc(new Uint8Array(new Uint32Array([a.bytes]).buffer), 'indirect');
      cs.pkt('CP_DRAW_AUTO', [ini('DI_SRC_SEL_AUTO_XFB'), d.instances ?? 1, lo32(c.base), hi32(c.base), a.offset, a.stride]);
      continue;
    }
    if (d.multi) {
      const all = [d, ...(d.multi.more ?? [])];
      const words = d.indices ? 5 : 4;
      const stride = d.multi.stride ?? words * 4;
      const buf = new Uint32Array(Math.max(words, (all.length - 1) * (stride >> 2) + words));
      all.forEach((s, k) => buf.set(d.indices ? [s.count, s.instances ?? 1, s.first ?? 0, (s.vertexOffset ?? 0) >>> 0, s.firstInstance ?? 0] : [s.count, s.instances ?? 1, s.vertexOffset ?? 0, s.firstInstance ?? 0], k * (stride >> 2)));
      const p = alloc(new Uint8Array(buf.buffer), 'indirect');
      const counted = d.multi.count !== undefined;
      const cnt = counted ? alloc(new Uint8Array(new Uint32Array([d.multi.count!]).buffer), 'indirect') : undefined;
      const op = E('a6xx_draw_indirect_opcode', d.indices ? (counted ? 'INDIRECT_OP_INDIRECT_COUNT_INDEXED' : 'INDIRECT_OP_INDEXED') : counted ? 'INDIRECT_OP_INDIRECT_COUNT' : 'INDIRECT_OP_NORMAL');
      const head = [op | ((d.multi.dstOff ?? 0) << 8), all.length];
      const tail = [lo32(p.base), hi32(p.base), ...(cnt ? [lo32(cnt.base), hi32(cnt.base)] : []), stride];
      if (!d.indices) cs.pkt('CP_DRAW_INDIRECT_MULTI', [ini('DI_SRC_SEL_AUTO_INDEX'), ...head, ...tail]);
      else {
        const ib = buffers.get(d.indices.buffer);
        if (!ib) throw new Error(`index buffer ${d.indices.buffer} unknown`);
        const size = d.indices.size === 1 ? 'INDEX4_SIZE_8_BIT' : d.indices.size === 2 ? 'INDEX4_SIZE_16_BIT' : 'INDEX4_SIZE_32_BIT';
        cs.pkt('CP_DRAW_INDIRECT_MULTI', [ini('DI_SRC_SEL_DMA', size), ...head, lo32(ib.base), hi32(ib.base), Math.floor(ib.size / d.indices.size), ...tail]);
      }
      continue;
    }
    if (!d.indices) {
      if (d.indirect) {
        // VkDrawIndirectCommand: vertexCount, instanceCount, firstVertex, firstInstance.
        const p = alloc(new Uint8Array(new Uint32Array([d.count, d.instances ?? 1, d.vertexOffset ?? 0, d.firstInstance ?? 0]).buffer), 'indirect');
        cs.pkt('CP_DRAW_INDIRECT', [ini('DI_SRC_SEL_AUTO_INDEX'), lo32(p.base), hi32(p.base)]);
      } else cs.pkt('CP_DRAW_INDX_OFFSET', [ini('DI_SRC_SEL_AUTO_INDEX'), d.instances ?? 1, d.count]);
      continue;
    }
    const ib = buffers.get(d.indices.buffer);
    if (!ib) throw new Error(`index buffer ${d.indices.buffer} unknown`);
    const size = d.indices.size === 1 ? 'INDEX4_SIZE_8_BIT' : d.indices.size === 2 ? 'INDEX4_SIZE_16_BIT' : 'INDEX4_SIZE_32_BIT';
    const maxIndices = Math.floor(ib.size / d.indices.size);
    if (d.indirect) {
      // VkDrawIndexedIndirectCommand: indexCount, instanceCount, firstIndex, vertexOffset, firstInstance.
      const p = alloc(new Uint8Array(new Uint32Array([d.count, d.instances ?? 1, d.first ?? 0, (d.vertexOffset ?? 0) >>> 0, d.firstInstance ?? 0]).buffer), 'indirect');
      cs.pkt('CP_DRAW_INDX_INDIRECT', [ini('DI_SRC_SEL_DMA', size), lo32(ib.base), hi32(ib.base), maxIndices, lo32(p.base), hi32(p.base)]);
    } else cs.pkt('CP_DRAW_INDX_OFFSET', [ini('DI_SRC_SEL_DMA', size), d.instances ?? 1, d.count, d.first ?? 0, lo32(ib.base), hi32(ib.base), maxIndices]);
  }
  endXfb?.();
  // MSAA: resolve each target with the 2D engine (CP_BLIT BLIT_OP_SCALE, SP_PS_2D_SRC_INFO
  // SAMPLES + SAMPLES_AVERAGE) into a single-sample linear surface, as a sysmem resolve does.
  let resolved: BuiltDraw['resolved'];
  if (samples > 1) {
    cs.event('PC_CCU_FLUSH_COLOR_TS');
    resolved = targets.map((t, i) => {
      const pitch = defaultPitch(width, t.cpp, 'linear');
      const dst = alloc(new Uint8Array(pitch * height), `resolve${i}`);
      const ifmt = t.format.includes('FLOAT') ? (t.format.startsWith('FMT6_32') ? 'R2D_FLOAT32' : 'R2D_FLOAT16') : 'R2D_UNORM8';
      const cntl = { COLOR_FORMAT: t.format, IFMT: ifmt };
      cs.reg('GRAS_2D_BLIT_CNTL', cntl).reg('RB_2D_BLIT_CNTL', cntl);
      cs.reg('GRAS_2D_DST_TL', { X: 0, Y: 0 }).reg('GRAS_2D_DST_BR', { X: width - 1, Y: height - 1 });
      cs.reg('RB_2D_DST_INFO', { COLOR_FORMAT: t.format, TILE_MODE: 'TILE6_LINEAR', COLOR_SWAP: 'WZYX' });
      cs.reg64('RB_2D_DST', dst.base).reg('RB_2D_DST_PITCH', pitch >> 6);
      cs.reg('SP_2D_DST_FORMAT', { COLOR_FORMAT: t.format, NORM: !t.format.includes('FLOAT') });
      cs.reg('GRAS_2D_SRC_TL_X', 0).reg('GRAS_2D_SRC_TL_Y', 0).reg('GRAS_2D_SRC_BR_X', (width - 1) << 8).reg('GRAS_2D_SRC_BR_Y', (height - 1) << 8);
      cs.reg('SP_PS_2D_SRC_INFO', { COLOR_FORMAT: t.format, TILE_MODE: t.tile === 'tile6_3' ? 'TILE6_3' : 'TILE6_LINEAR', COLOR_SWAP: 'WZYX', SAMPLES: msaa, SAMPLES_AVERAGE: true, FLAGS: !!t.ubwc });
      cs.reg('SP_PS_2D_SRC_SIZE', { WIDTH: width, HEIGHT: height });
      cs.reg64('SP_PS_2D_SRC', t.base).reg('SP_PS_2D_SRC_PITCH', { PITCH: t.pitch });
      if (t.ubwc) cs.reg64('SP_PS_2D_SRC_FLAGS', t.ubwc.flags).reg('SP_PS_2D_SRC_FLAGS_PITCH', t.ubwc.flagPitch >> 6);
      cs.pkt('CP_BLIT', [E('cp_blit_cmd', 'BLIT_OP_SCALE')]);
      return { base: dst.base, pitch, format: t.format, cpp: t.cpp };
    });
  }
  cs.waitForIdle();
  const stream = cs.dwords();
  const ss = alloc(new Uint8Array(stream.buffer.slice(0)), 'ib1');
  return { gen, mem, stream, streamIova: ss.base, segments: segs, targets, ...(depth ? { depth } : {}), ...(stencil ? { stencil } : {}), ...(resolved ? { resolved } : {}), ...(feedback ? { feedback: { descs: fbDescs, scCntlAt } } : {}) };
}

function popcount(x: number): number {
  let n = 0;
  for (; x; x &= x - 1) n++;
  return n;
}

/** The scene as an .rd capture (GPU id, every buffer, the stream): write it before running. */
export function drawRd(b: BuiltDraw, gpuId: number): Uint8Array {
  const w = new RdWriter();
  w.gpuId(gpuId);
  for (const s of b.segments) w.buffer(s.base, s.u8);
  return w.cmdstream(b.streamIova, b.stream.length).bytes();
}
