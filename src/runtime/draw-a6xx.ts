/**
 * `gpusim draw scene.json --gpu a630|a660`: the scene format of docs/amd-graphics.md on the a6xx
 * sysmem pipeline. The common parts (size, samples, targets, depth, buffers, state, draws) are
 * read as the AMD runner reads them and translated to the Adreno vocabulary a driver would use
 * (R8G8B8A8_UNORM -> FMT6_8_8_8_8_UNORM, FRAG_LESS -> FUNC_LESS, BLEND_SRC_ALPHA ->
 * FACTOR_SRC_ALPHA, COMB_DST_PLUS_SRC -> BLEND_DST_PLUS_SRC...); the stages' a6xx parts come from
 * the per-target keys "a6xx" (then "a630" / "a660") on each shader and on `vs` / `ps`:
 *
 *   shaders.vs.a6xx: { "asm": "vs-a6xx.s" }            ir3 assembly (src/adreno/ir3/asm.ts)
 *   vs.a6xx: { "fullRegs": 4, "position": 4,
 *              "inputs": [{ "buffer": "vertices", "stride": 32, "offset": 0, "format": "FMT6_32_32_32_32_FLOAT", "reg": "r0.x" }],
 *              "outputs": [{ "reg": "r2.x", "loc": 0 }, { "reg": "r3.x", "loc": 4 }] }
 *   ps.a6xx: { "fullRegs": 2, "ij": "r0.x", "outputs": ["r1.x"], "threadsize": 64 }
 *
 * The driver (src/adreno/driver/sysmem.ts) builds the stream; the CP runs it (src/adreno/cp).
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Diagnostics } from '../core/diagnostics.js';
import { InputError } from '../core/errors.js';
import { parseJsonText } from '../core/json.js';
import { unknownKeyMessage } from '../core/keys.js';
import { CommandProcessor } from '../adreno/cp/cp.js';
import { drawRuns, type DrawRun } from '../adreno/cp/handlers-gfx.js';
import { gmemDraw, type GmemDraw, type GmemDrawOptions } from '../adreno/driver/gmem.js';
import { buildDraw, drawRd, regid, type BlendDesc, type GfxDraw, type GfxScene, type StencilDesc, type TargetTile, type VsInput } from '../adreno/driver/sysmem.js';
import { enumValue } from '../adreno/regs/db.js';
import { fmt6ByName } from '../adreno/rb/fmt6.js';
import { paddedHeight, surfaceOffset, tile6ConfigFor } from '../adreno/ubwc/tile6.js';
import { ubwcToLinear } from '../adreno/ubwc/ubwc.js';

type Json = Record<string, unknown>;

export const A6XX_SCENE_GPUS = { a630: 630, a660: 660 } as const;
export type A6xxGpu = keyof typeof A6XX_SCENE_GPUS;
/** Per-target keys the a6xx runner reads (the AMD runner skips them). */
export const A6XX_SCENE_KEYS: readonly string[] = ['a6xx', 'a630', 'a660'];

export interface A6xxSceneResult {
  readonly gpu: A6xxGpu;
  readonly width: number;
  readonly height: number;
  readonly samples: number;
  /** Each colour target: RGBA floats per sample (pixel-major, then sample). */
  readonly targets: readonly { readonly name: string; readonly format: string; readonly data: Float32Array }[];
  /** Multisampled scenes: each target as the 2D engine resolved it (CP_BLIT, samples averaged), RGBA per pixel. */
  readonly resolved?: readonly Float32Array[];
  /** Each colour target's bytes as memory holds them (UBWC: the flag plane, then the TILE6_3 pixel plane; else pitch x rows). */
  readonly stored: readonly Uint8Array[];
  readonly diag: Diagnostics;
  readonly draws: readonly DrawRun[];
  readonly stream: Uint32Array;
  /** The inputs as an .rd capture (`gpusim adreno decode --format cffdump` reads it). */
  readonly rd: Uint8Array;
  /** GMEM mode: the bins, whether the binning pass ran, draws the visibility stream skipped. */
  readonly gmem?: { readonly binW: number; readonly binH: number; readonly nx: number; readonly ny: number; readonly binning: boolean; readonly skippedDraws: number; readonly skippedPrims: number };
  /** The CP that ran the scene (its performance counters: `cp.perf`, marks kept with `perfMarks`). */
  readonly cp: CommandProcessor;
}

const COLOR: Record<string, string> = { R8G8B8A8_UNORM: 'FMT6_8_8_8_8_UNORM', R16G16B16A16_FLOAT: 'FMT6_16_16_16_16_FLOAT', R32_FLOAT: 'FMT6_32_FLOAT' };
const DEPTH: Record<string, 'DEPTH6_16' | 'DEPTH6_32'> = { Z_16: 'DEPTH6_16', Z_32_FLOAT: 'DEPTH6_32' };
const STENCIL_OP: Record<string, string> = {
  STENCIL_KEEP: 'STENCIL_KEEP', STENCIL_ZERO: 'STENCIL_ZERO', STENCIL_REPLACE_TEST: 'STENCIL_REPLACE', STENCIL_ADD_CLAMP: 'STENCIL_INCR_CLAMP',
  STENCIL_SUB_CLAMP: 'STENCIL_DECR_CLAMP', STENCIL_INVERT: 'STENCIL_INVERT', STENCIL_ADD_WRAP: 'STENCIL_INCR_WRAP', STENCIL_SUB_WRAP: 'STENCIL_DECR_WRAP',
};
const ELEM: Record<string, number> = { u8: 1, u16: 2, u32: 4, i32: 4, f32: 4, f16: 2 };

function err(field: string, msg: string): never {
  throw new InputError(`scene ${field}: ${msg}`);
}
const obj = (v: unknown, f: string): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : err(f, 'expected an object'));
const arr = (v: unknown, f: string): unknown[] => (Array.isArray(v) ? v : err(f, 'expected an array'));
const num = (v: unknown, f: string): number => (typeof v === 'number' && Number.isFinite(v) ? v : err(f, 'expected a number'));
const str = (v: unknown, f: string): string => (typeof v === 'string' ? v : err(f, 'expected a string'));
const int = (v: unknown, f: string, min: number, max: number): number => {
  const n = num(v, f);
  return Number.isInteger(n) && n >= min && n <= max ? n : err(f, `an integer in ${min}..${max} (got ${n})`);
};
/** Most samples a target may hold (width x height x samples), as the AMD runner's MAX_SCENE_SAMPLES. */
const MAX_SCENE_SAMPLES = 1 << 24;

/** An a6xx enum value name, checked. */
function en(e: string, v: string, f: string): string {
  if (enumValue(e, v, 'a6xx') === undefined) err(f, `${v} has no a6xx equivalent (${e})`);
  return v;
}

/** The object with its "a6xx" then "<gpu>" keys merged over it (the AMD per-target keys dropped). */
function forGpu(o: Json, gpu: A6xxGpu): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(o)) if (!/^gfx\d+$/.test(k) && !A6XX_SCENE_KEYS.includes(k)) out[k] = v;
  for (const k of ['a6xx', gpu]) if (o[k] !== undefined) Object.assign(out, obj(o[k], k));
  return out;
}

export function a6xxGpu(v: string): A6xxGpu {
  if (v in A6XX_SCENE_GPUS) return v as A6xxGpu;
  return err('--gpu', `a630 or a660 (got ${v})`);
}

/** Read a scene file and run it on the a6xx pipeline. */
export function runA6xxSceneFile(path: string, gpu: A6xxGpu, gmem?: GmemDrawOptions, perfMarks = false): A6xxSceneResult {
  let text: string;
  try { text = readFileSync(path, 'utf8'); } catch (e) { throw new InputError(`cannot read scene: ${(e as Error).message}`, path); }
  return runA6xxScene(obj(parseJsonText(text, undefined, 'scene JSON'), 'scene'), dirname(resolve(path)), gpu, gmem, perfMarks);
}

/** Translate a scene for the driver. */
export function a6xxSceneDescription(scene: Json, dir: string, gpu: A6xxGpu): GfxScene {
  const gpuId = A6XX_SCENE_GPUS[gpu];
  scene = forGpu(scene, gpu);
  // The AMD runner's limits (docs/cli.md): 1..16384 a side, 2^24 samples a target.
  const width = int(scene.width, 'width', 1, 16384);
  const height = int(scene.height, 'height', 1, 16384);
  const samples = num(scene.samples ?? 1, 'samples');
  if (samples !== 1 && samples !== 2 && samples !== 4) err('samples', `${samples}: a6xx renders 1, 2 or 4 samples (MSAA_ONE/TWO/FOUR; 8x is not exposed)`);
  if (width * height * samples > MAX_SCENE_SAMPLES) err('width', `${width}x${height} with ${samples} sample(s) is ${width * height * samples} samples per target; the limit is ${MAX_SCENE_SAMPLES} (2^24)`);
  const targets = arr(scene.targets ?? [], 'targets').map((t, i) => {
    const o = obj(t, `targets[${i}]`);
    const fmt = COLOR[str(o.format, `targets[${i}].format`)] ?? err(`targets[${i}].format`, `one of ${Object.keys(COLOR).join(' ')}`);
    // Top-level "a6xx": { "tile": "TILE6_3" } lays every colour target out tiled; "UBWC" tiled and compressed (a flag buffer).
    const tile = scene.tile === undefined ? undefined : str(scene.tile, 'a6xx.tile');
    if (tile !== undefined && tile !== 'TILE6_LINEAR' && tile !== 'TILE6_3' && tile !== 'UBWC') err('a6xx.tile', 'TILE6_LINEAR, TILE6_3 or UBWC');
    return { name: String(o.name ?? `target${i}`), format: fmt, clear: arr(o.clear ?? [0, 0, 0, 0], `targets[${i}].clear`).map((x, k) => num(x, `targets[${i}].clear[${k}]`)), ...(tile ? { tile: tile as TargetTile } : {}) };
  });
  const stRaw = obj(scene.state ?? {}, 'state');
  for (const k of ['a6xx', gpu]) if (stRaw[k] !== undefined) { const m = unknownKeyMessage(obj(stRaw[k], `state.${k}`), STATE_A6XX_KEYS); if (m) err(`state.${k}`, m); }
  const st = forGpu(stRaw, gpu);
  const dj = scene.depth === undefined ? undefined : obj(scene.depth, 'depth');
  const stj = st.stencil === undefined ? undefined : obj(st.stencil, 'state.stencil');
  const depth = dj
    ? { format: DEPTH[str(dj.format, 'depth.format')] ?? err('depth.format', 'Z_16 or Z_32_FLOAT'), clear: num(dj.clear ?? 1, 'depth.clear'), ...(stj ? { stencil: { clear: num(dj.stencilClear ?? 0, 'depth.stencilClear') } } : {}), ...depthTile(scene, dj.format === 'Z_16' ? 2 * samples : 4 * samples) }
    : undefined;
  const buffers = new Map<string, Uint8Array>();
  const bufType = new Map<string, string>();
  for (const [name, v] of Object.entries(obj(scene.buffers ?? {}, 'buffers'))) {
    const b = obj(v, `buffers.${name}`);
    const type = str(b.type, `buffers.${name}.type`);
    const elem = ELEM[type] ?? err(`buffers.${name}.type`, `one of ${Object.keys(ELEM).join(' ')}`);
    const values = arr(b.values, `buffers.${name}.values`).map((x, i) => num(x, `buffers.${name}.values[${i}]`));
    const bytes = new Uint8Array(Math.max(4, values.length * elem));
    const dv = new DataView(bytes.buffer);
    values.forEach((x, i) => {
      const o = i * elem;
      if (type === 'f32') dv.setFloat32(o, x, true);
      else if (type === 'f16') dv.setUint16(o, f16bits(x), true);
      else if (elem === 1) dv.setUint8(o, x & 0xff);
      else if (elem === 2) dv.setUint16(o, x & 0xffff, true);
      else dv.setUint32(o, x >>> 0, true);
    });
    buffers.set(name, bytes);
    bufType.set(name, type);
  }
  // Stages.
  const vsRaw = obj(scene.vs, 'vs');
  const psRaw = obj(scene.ps, 'ps');
  strictA6xx(vsRaw, 'vs', VS_A6XX_KEYS, gpu);
  strictA6xx(psRaw, 'ps', PS_A6XX_KEYS, gpu);
  const vsj = forGpu(vsRaw, gpu);
  const psj = forGpu(psRaw, gpu);
  const shaders = obj(scene.shaders ?? {}, 'shaders');
  const shaderText = (name: string, f: string): string => {
    const s = forGpu(obj(shaders[name] ?? err(f, `no shader '${name}'`), `shaders.${name}`), gpu);
    if (s.source !== undefined) return arr(s.source, `shaders.${name}.source`).map(String).join('\n');
    const p = resolve(dir, str(s.asm ?? err(`shaders.${name}`, 'no a6xx "asm" (add shaders.<name>.a6xx.asm)'), `shaders.${name}.asm`));
    try { return readFileSync(p, 'utf8'); } catch (e) { return err(`shaders.${name}.asm`, (e as Error).message); }
  };
  const reg = (v: unknown, f: string): number => {
    try { return regid(str(v, f)); } catch { return err(f, 'a register such as r0.x'); }
  };
  const inputs: VsInput[] = arr(vsj.inputs ?? err('vs.a6xx.inputs', 'missing'), 'vs.inputs').map((x, i) => {
    const o = obj(x, `vs.inputs[${i}]`);
    const format = en('a6xx_format', str(o.format, `vs.inputs[${i}].format`), `vs.inputs[${i}].format`);
    const comps = format.replace(/^FMT6_/, '').split('_').filter((p) => /^\d+$/.test(p)).length;
    return { buffer: str(o.buffer, `vs.inputs[${i}].buffer`), stride: num(o.stride, `vs.inputs[${i}].stride`), offset: num(o.offset ?? 0, `vs.inputs[${i}].offset`), format, regid: reg(o.reg, `vs.inputs[${i}].reg`), mask: num(o.mask ?? (1 << comps) - 1, `vs.inputs[${i}].mask`), ...(o.instanced ? { instanced: true, stepRate: num(o.stepRate ?? 1, `vs.inputs[${i}].stepRate`) } : {}) };
  });
  const outputs = arr(vsj.outputs ?? err('vs.a6xx.outputs', 'missing'), 'vs.outputs').map((x, i) => {
    const o = obj(x, `vs.outputs[${i}]`);
    return { regid: reg(o.reg, `vs.outputs[${i}].reg`), compmask: num(o.mask ?? 0xf, `vs.outputs[${i}].mask`), loc: num(o.loc, `vs.outputs[${i}].loc`) };
  });
  const vs: GfxScene['vs'] = {
    asm: shaderText(str(vsj.shader, 'vs.shader'), 'vs.shader'),
    fullRegs: num(vsj.fullRegs, 'vs.a6xx.fullRegs'),
    inputs,
    outputs,
    positionLoc: num(vsj.position, 'vs.a6xx.position'),
    ...(vsj.vertexId !== undefined ? { vertexIdReg: reg(vsj.vertexId, 'vs.vertexId') } : {}),
    ...(vsj.instanceId !== undefined ? { instanceIdReg: reg(vsj.instanceId, 'vs.instanceId') } : {}),
  };
  const fs: GfxScene['fs'] = {
    asm: shaderText(str(psj.shader, 'ps.shader'), 'ps.shader'),
    fullRegs: num(psj.fullRegs, 'ps.a6xx.fullRegs'),
    threadsize: psj.threadsize === 128 ? 128 : 64,
    ...(psj.ij !== undefined ? { ijPersp: reg(psj.ij, 'ps.ij') } : {}),
    ...fsSysvals(psj, reg),
    outputs: arr(psj.outputs ?? err('ps.a6xx.outputs', 'missing'), 'ps.outputs').map((x, i) => reg(x, `ps.outputs[${i}]`)),
    ...fsTextures(psj, buffers, targets.length, samples),
  };
  // State.
  const vp = st.viewport === undefined ? [0, 0, width, height] : arr(st.viewport, 'state.viewport').map((x, i) => num(x, `state.viewport[${i}]`));
  const sc = st.scissor === undefined ? [0, 0, width, height] : arr(st.scissor, 'state.scissor').map((x, i) => num(x, `state.scissor[${i}]`));
  const cull = String(st.cull ?? 'none');
  const cmp = (v: unknown, f: string): string => en('adreno_compare_func', str(v, f).replace(/^FRAG_/, 'FUNC_'), f);
  const sop = (v: unknown, f: string): string => STENCIL_OP[str(v ?? 'STENCIL_KEEP', f)] ?? err(f, `one of ${Object.keys(STENCIL_OP).join(' ')}`);
  const stencil: StencilDesc | undefined = stj ? { func: cmp(stj.func ?? 'FRAG_ALWAYS', 'state.stencil.func'), fail: sop(stj.fail, 'state.stencil.fail'), zpass: sop(stj.pass, 'state.stencil.pass'), zfail: sop(stj.depthFail, 'state.stencil.depthFail'), ref: num(stj.ref ?? 0, 'state.stencil.ref') } : undefined;
  const blend = arr(st.blend ?? [], 'state.blend').map((x, i): BlendDesc | undefined => {
    const o = obj(x, `state.blend[${i}]`);
    if (!o.enable) return undefined;
    const f = (k: string, d: string): string => en('adreno_rb_blend_factor', str(o[k] ?? d, `state.blend[${i}].${k}`).replace(/^BLEND_/, 'FACTOR_'), `state.blend[${i}].${k}`);
    const op = (k: string, d: string): string => en('a3xx_rb_blend_opcode', str(o[k] ?? d, `state.blend[${i}].${k}`).replace(/^COMB_/, 'BLEND_'), `state.blend[${i}].${k}`);
    const cs = String(o.colorSrc ?? 'BLEND_ONE'), cd = String(o.colorDst ?? 'BLEND_ZERO'), cf = String(o.colorFn ?? 'COMB_DST_PLUS_SRC');
    return { enable: true, rgbSrc: f('colorSrc', 'BLEND_ONE'), rgbDst: f('colorDst', 'BLEND_ZERO'), rgbOp: op('colorFn', 'COMB_DST_PLUS_SRC'), aSrc: f('alphaSrc', cs), aDst: f('alphaDst', cd), aOp: op('alphaFn', cf) };
  });
  const state: GfxScene['state'] = {
    cullFront: cull === 'front', cullBack: cull === 'back',
    // The AMD runner's FACE=0 (ccw front) is GRAS_SU_CNTL FRONT_CW=0.
    frontCw: st.frontCw === true || st.frontFace === 'cw',
    provokingLast: st.provokingLast === true,
    viewport: [vp[0]!, vp[1]!, vp[2]!, vp[3]!],
    // The scene's scissor is [x0, y0, x1, y1) as PA_SC_GENERIC_SCISSOR takes it.
    scissor: [sc[0]!, sc[1]!, sc[2]! - sc[0]!, sc[3]! - sc[1]!],
    ...(st.depthFunc !== undefined ? { depthFunc: cmp(st.depthFunc, 'state.depthFunc') } : {}),
    ...(st.depthWrite === false ? { depthWrite: false } : {}),
    ...depthClampState(st),
    ...(stencil ? { stencil } : {}),
    blend,
    ...(st.blendConstant !== undefined ? { blendConstant: arr(st.blendConstant, 'state.blendConstant').map((x, i) => num(x, `state.blendConstant[${i}]`)) } : {}),
    ...a6xxRasterState(st),
  };
  const captured = new Set<string>();
  const draws: GfxDraw[] = arr(scene.draws ?? [], 'draws').map((x, i) => {
    const o = obj(x, `draws[${i}]`);
    const prim = en('pc_di_primtype', str(o.topology, `draws[${i}].topology`), `draws[${i}].topology`);
    let indices: GfxDraw['indices'];
    if (o.indices !== undefined) {
      const b = str(o.indices, `draws[${i}].indices`);
      const t = bufType.get(b) ?? err(`draws[${i}].indices`, `no buffer '${b}'`);
      const size = ({ u8: 1, u16: 2, u32: 4 } as Record<string, 1 | 2 | 4>)[t] ?? err(`draws[${i}].indices`, 'an index buffer is u8, u16 or u32');
      indices = { buffer: b, size };
    }
    const ax = draw6xx(o, i, buffers);
    // A resumed capture and a CP_DRAW_AUTO read the byte counter an earlier draw's capture wrote.
    if (ax.xfb?.resume && !captured.has(ax.xfb.buffer)) err(`draws[${i}].a6xx.xfb.resume`, `no earlier draw captures into '${ax.xfb.buffer}'`);
    if (ax.auto && 'xfb' in ax.auto && !captured.has(ax.auto.xfb)) err(`draws[${i}].a6xx.drawAuto.xfb`, `no earlier draw captures into '${ax.auto.xfb}'`);
    if (ax.xfb) captured.add(ax.xfb.buffer);
    return {
      ...ax,
      prim, count: ax.auto ? num(o.count ?? 0, `draws[${i}].count`) : num(o.count, `draws[${i}].count`),
      ...(o.instances !== undefined ? { instances: num(o.instances, `draws[${i}].instances`) } : {}),
      ...(indices ? { indices } : {}),
      ...(o.first !== undefined ? { first: num(o.first, `draws[${i}].first`) } : {}),
      ...(o.restart !== undefined ? { restart: num(o.restart, `draws[${i}].restart`) } : {}),
      ...(o.baseVertex !== undefined ? { vertexOffset: num(o.baseVertex, `draws[${i}].baseVertex`) } : {}),
    };
  });
  return { gpuId, width, height, samples, targets: targets.map((t) => ({ format: t.format, clear: t.clear, ...(t.tile ? { tile: t.tile } : {}) })), ...(depth ? { depth } : {}), buffers, vs, fs, state, draws };
}

/**
 * Top-level "a6xx": { "depthTile": "UBWC" } lays the depth buffer out as turnip lays out a UBWC
 * depth image (flag plane, TILE6_3 pixels; RB_RENDER_CNTL FLAG_DEPTH, RB_DEPTH_FLAG_BUFFER_*);
 * "LINEAR" (the default) keeps it linear.
 */
function depthTile(scene: Json, bytesPerPixel: number): { ubwc?: true } {
  if (scene.depthTile === undefined) return {};
  const t = str(scene.depthTile, 'a6xx.depthTile');
  if (t !== 'LINEAR' && t !== 'UBWC') err('a6xx.depthTile', 'LINEAR or UBWC');
  if (t === 'UBWC' && bytesPerPixel !== 4 && bytesPerPixel !== 8 && bytesPerPixel !== 16) err('a6xx.depthTile', `UBWC depth is modelled for 4, 8 and 16 bytes a pixel (samples included), not ${bytesPerPixel}`);
  return t === 'UBWC' ? { ubwc: true } : {};
}

/**
 * The common state's "depthClamp" (Vulkan depthClampEnable) and "depthClip" (VK_EXT_depth_clip_enable;
 * default !depthClamp), the same keys the AMD scene reads.
 */
function depthClampState(st: Json): { depthClamp?: boolean; depthClip?: boolean } {
  const b = (k: 'depthClamp' | 'depthClip'): boolean | undefined => {
    if (st[k] === undefined) return undefined;
    if (typeof st[k] !== 'boolean') err(`state.${k}`, 'true or false');
    return st[k] as boolean;
  };
  const clamp = b('depthClamp'), clip = b('depthClip');
  return { ...(clamp ? { depthClamp: true } : {}), ...(clip !== undefined ? { depthClip: clip } : {}) };
}

/**
 * draws[i].a6xx: transform feedback (VK_EXT_transform_feedback as turnip emits it) and draws of
 * its captured vertices:
 *   "xfb": { "buffer": "captured", "stride": 32, "outputs": [{ "loc": 4, "components": 4, "at": 0 }],
 *            "offset": 0, "size": 1024, "discard": true, "resume": false }
 *            VS outputs (VPC locations) to a buffer; "resume": after an earlier capture's counter
 *   "drawAuto": { "xfb": "captured", "stride": 32, "offset": 0, "inputs": true }
 *            CP_DRAW_AUTO of the vertices captured there (vkCmdDrawIndirectByteCountEXT); "inputs":
 *            the VS inputs fetch from the captured buffer for this draw
 */
function draw6xx(o: Json, i: number, buffers: ReadonlyMap<string, Uint8Array>): Pick<GfxDraw, 'xfb' | 'auto'> {
  if (o.a6xx === undefined) return {};
  const f = `draws[${i}].a6xx`;
  const a = obj(o.a6xx, f);
  const m = unknownKeyMessage(a, ['xfb', 'drawAuto']);
  if (m) err(f, m);
  const buf = (v: unknown, k: string): string => {
    const b = str(v, k);
    if (!buffers.has(b)) err(k, `no buffer '${b}'`);
    return b;
  };
  const out: { xfb?: GfxDraw['xfb']; auto?: GfxDraw['auto'] } = {};
  if (a.xfb !== undefined) {
    const x = obj(a.xfb, `${f}.xfb`);
    const mx = unknownKeyMessage(x, ['buffer', 'offset', 'size', 'stride', 'outputs', 'discard', 'resume']);
    if (mx) err(`${f}.xfb`, mx);
    const outputs = arr(x.outputs, `${f}.xfb.outputs`).map((e, k) => {
      const q = obj(e, `${f}.xfb.outputs[${k}]`);
      const mq = unknownKeyMessage(q, ['loc', 'components', 'at']);
      if (mq) err(`${f}.xfb.outputs[${k}]`, mq);
      // VPC_SO_PROG: 128 VPC locations, a byte offset in dwords (A_OFF / B_OFF, 9 bits) per component.
      const fk = `${f}.xfb.outputs[${k}]`;
      const loc = int(q.loc, `${fk}.loc`, 0, 127), components = int(q.components ?? 4, `${fk}.components`, 1, 4), at = int(q.at ?? 0, `${fk}.at`, 0, 2044);
      if (loc + components > 128) err(`${fk}.components`, `locations ${loc}..${loc + components - 1} run past VPC location 127`);
      if (at % 4 || at + 4 * (components - 1) > 2044) err(`${fk}.at`, `byte ${at}: a multiple of 4 with every component's dword at most byte 2044 (VPC_SO_PROG A_OFF / B_OFF)`);
      return { loc, components, at };
    });
    for (const k of ['discard', 'resume']) if (x[k] !== undefined && typeof x[k] !== 'boolean') err(`${f}.xfb.${k}`, 'true or false');
    const buffer = buf(x.buffer, `${f}.xfb.buffer`);
    const stride = int(x.stride, `${f}.xfb.stride`, 4, 4092);
    if (stride % 4) err(`${f}.xfb.stride`, `${stride}: a multiple of 4 (VPC_SO BUFFER_STRIDE counts dwords)`);
    // The range bound (vkCmdBindTransformFeedbackBuffersEXT): inside the buffer.
    const bytes = buffers.get(buffer)!.length;
    const offset = x.offset === undefined ? undefined : int(x.offset, `${f}.xfb.offset`, 0, bytes);
    const size = x.size === undefined ? undefined : int(x.size, `${f}.xfb.size`, 0, bytes - (offset ?? 0));
    out.xfb = {
      buffer, stride, outputs,
      ...(offset !== undefined ? { offset } : {}),
      ...(size !== undefined ? { size } : {}),
      ...(x.discard ? { discard: true } : {}),
      ...(x.resume ? { resume: true } : {}),
    };
  }
  if (a.drawAuto !== undefined) {
    const d = obj(a.drawAuto, `${f}.drawAuto`);
    const md = unknownKeyMessage(d, ['xfb', 'stride', 'offset', 'inputs']);
    if (md) err(`${f}.drawAuto`, md);
    if (d.inputs !== undefined && typeof d.inputs !== 'boolean') err(`${f}.drawAuto.inputs`, 'true or false');
    // CP_DRAW_AUTO's STRIDE and NUM_VERTICES_OFFSET dwords (vkCmdDrawIndirectByteCountEXT: vertexStride > 0).
    out.auto = { xfb: buf(d.xfb, `${f}.drawAuto.xfb`), stride: int(d.stride, `${f}.drawAuto.stride`, 1, 0xffffffff), ...(d.offset !== undefined ? { offset: int(d.offset, `${f}.drawAuto.offset`, 0, 0xffffffff) } : {}), ...(d.inputs ? { inputs: true } : {}) };
  }
  return out;
}

/** state.a6xx: the common state keys overridden for a6xx, and the a6xx-only raster state. */
const STATE_A6XX_KEYS = ['depthClamp', 'depthClip', 'depthBias', 'depthBounds', 'logicOp', 'frontCw', 'frontFace', 'cull', 'provokingLast', 'viewport', 'scissor', 'depthFunc', 'depthWrite', 'stencil', 'blend', 'blendConstant'];

/**
 * state.a6xx: "depthBias": { "constant", "slope", "clamp" } (GRAS_SU_POLY_OFFSET_*),
 * "depthBounds": [min, max] (RB_Z_BOUNDS_*), "logicOp": "ROP_XOR" (a3xx_rop_code, every target).
 */
function a6xxRasterState(st: Json): Partial<GfxScene['state']> {
  const out: { depthBias?: GfxScene['state']['depthBias']; depthBounds?: [number, number]; logicOp?: string } = {};
  if (st.depthBias !== undefined) {
    const b = obj(st.depthBias, 'state.a6xx.depthBias');
    const m = unknownKeyMessage(b, ['constant', 'slope', 'clamp']);
    if (m) err('state.a6xx.depthBias', m);
    out.depthBias = { constant: num(b.constant ?? 0, 'state.a6xx.depthBias.constant'), slope: num(b.slope ?? 0, 'state.a6xx.depthBias.slope'), clamp: num(b.clamp ?? 0, 'state.a6xx.depthBias.clamp') };
  }
  if (st.depthBounds !== undefined) {
    const v = arr(st.depthBounds, 'state.a6xx.depthBounds').map((x, i) => num(x, `state.a6xx.depthBounds[${i}]`));
    if (v.length !== 2) err('state.a6xx.depthBounds', '[min, max]');
    out.depthBounds = [v[0]!, v[1]!];
  }
  if (st.logicOp !== undefined) out.logicOp = en('a3xx_rop_code', str(st.logicOp, 'state.a6xx.logicOp'), 'state.a6xx.logicOp');
  return out;
}

/** The keys of the stages' a6xx objects (checked strictly: a misspelt key is an error, not ignored). */
const VS_A6XX_KEYS = ['shader', 'fullRegs', 'position', 'inputs', 'outputs', 'vertexId', 'instanceId'];
const PS_SYSVALS = { ijLinear: 'ijLinear', ijCentroid: 'ijPerspCentroid', ijLinearCentroid: 'ijLinearCentroid', ijSample: 'ijPerspSample', ijLinearSample: 'ijLinearSample', fragCoord: 'fragCoord', fragCoordZw: 'fragCoordZw', face: 'face', sampleId: 'sampleId', sampleMask: 'sampleMask' } as const;
const PS_A6XX_KEYS = ['shader', 'fullRegs', 'halfRegs', 'threadsize', 'ij', 'outputs', 'userData', 'sampleShading', 'dualSource', ...Object.keys(PS_SYSVALS)];

function strictA6xx(o: Json, field: string, allowed: readonly string[], gpu: A6xxGpu): void {
  for (const k of ['a6xx', gpu]) {
    if (o[k] === undefined) continue;
    const msg = unknownKeyMessage(obj(o[k], `${field}.${k}`), allowed);
    if (msg) err(`${field}.${k}`, msg);
  }
}

/**
 * The FS system values a scene asks HLSQ for (ps.a6xx): "ijLinear", "ijCentroid",
 * "ijLinearCentroid", "ijSample", "ijLinearSample" (full registers, i/j pairs), "fragCoord"
 * (x, y as u32 1/16 pixel), "fragCoordZw" (z, 1/w), "face" and "sampleId" (half registers such as
 * "hr4.x"), "sampleMask"; "sampleShading": true runs the FS per sample.
 */
function fsSysvals(psj: Json, reg: (v: unknown, f: string) => number): Partial<GfxScene['fs']> {
  const out: Record<string, number | boolean> = {};
  for (const [k, name] of Object.entries(PS_SYSVALS)) {
    if (psj[k] === undefined) continue;
    const half = k === 'face' || k === 'sampleId';
    const v = str(psj[k], `ps.a6xx.${k}`);
    if (half !== v.startsWith('h')) err(`ps.a6xx.${k}`, half ? 'a half register such as hr4.x' : 'a full register such as r2.x');
    out[name] = reg(v, `ps.a6xx.${k}`);
  }
  if (psj.halfRegs !== undefined) out.halfRegs = num(psj.halfRegs, 'ps.a6xx.halfRegs');
  if (psj.dualSource !== undefined) {
    if (typeof psj.dualSource !== 'boolean') err('ps.a6xx.dualSource', 'true or false');
    out.dualSource = psj.dualSource;
  }
  if (psj.sampleShading !== undefined) {
    if (typeof psj.sampleShading !== 'boolean') err('ps.a6xx.sampleShading', 'true or false');
    out.sampleShading = psj.sampleShading;
  }
  return out as Partial<GfxScene['fs']>;
}

const WRAP: Record<string, 'A6XX_TEX_REPEAT' | 'A6XX_TEX_CLAMP_TO_EDGE' | 'A6XX_TEX_MIRROR_REPEAT'> = { repeat: 'A6XX_TEX_REPEAT', clamp: 'A6XX_TEX_CLAMP_TO_EDGE', mirror: 'A6XX_TEX_MIRROR_REPEAT' };

/**
 * The PS user data's images and samplers (the AMD T# / S# entries) as the FS's t# / s# in their
 * order: { "image": buf, "width", "height", "format": "8_8_8_8_UNORM" } -> FMT6_8_8_8_8_UNORM, a
 * 2D image of "levels" mip levels (packed one after another in the buffer); { "target": i } -> colour
 * target i sampled as a 2D image (a feedback loop, t# after the images); { "sampler": { "filter", "wrap", "mip" } } -> A6XX_TEX_SAMP.
 */
function fsTextures(psj: Json, buffers: ReadonlyMap<string, Uint8Array>, nTargets: number, samples: number): Pick<GfxScene['fs'], 'images' | 'feedback' | 'samplers'> {
  const images: NonNullable<GfxScene['fs']['images']>[number][] = [];
  const samplers: NonNullable<GfxScene['fs']['samplers']>[number][] = [];
  const feedback: number[] = [];
  arr(psj.userData ?? [], 'ps.userData').forEach((u, i) => {
    const f = `ps.userData[${i}]`;
    const o = obj(u, f);
    if (o.image !== undefined) {
      const buffer = str(o.image, `${f}.image`);
      if (!buffers.has(buffer)) err(`${f}.image`, `no buffer '${buffer}'`);
      for (const k of ['layers', 'depth']) if (o[k] !== undefined && o[k] !== 1) err(`${f}.${k}`, 'the a6xx scene runner samples 2D images (one layer)');
      const format = en('a6xx_format', `FMT6_${str(o.format ?? '8_8_8_8_UNORM', `${f}.format`)}`, `${f}.format`);
      const dim = (k: string): number => {
        const v = num(o[k] ?? 1, `${f}.${k}`);
        return Number.isInteger(v) && v >= 1 && v <= 16384 ? v : err(`${f}.${k}`, 'an integer in 1..16384');
      };
      const width = dim('width'), height = dim('height');
      const levels = num(o.levels ?? 1, `${f}.levels`);
      if (!Number.isInteger(levels) || levels < 1 || levels > 1 + Math.floor(Math.log2(Math.max(width, height)))) err(`${f}.levels`, `an integer in 1..${1 + Math.floor(Math.log2(Math.max(width, height)))}`);
      images.push({ buffer, format, width, height, ...(levels > 1 ? { levels } : {}) });
    } else if (o.target !== undefined) {
      // The scene's own colour target, sampled as a 2D image (a feedback loop).
      const t = num(o.target, `${f}.target`);
      if (!Number.isInteger(t) || t < 0 || t >= nTargets) err(`${f}.target`, `a colour target index (the scene has ${nTargets})`);
      if (samples > 1) err(`${f}.target`, `a feedback read of a ${samples}-sample target is not modelled`);
      feedback.push(t);
    } else if (o.sampler !== undefined) {
      const sj = obj(o.sampler, `${f}.sampler`);
      const filter = str(sj.filter ?? 'nearest', `${f}.sampler.filter`);
      if (filter !== 'nearest' && filter !== 'linear') err(`${f}.sampler.filter`, 'nearest or linear');
      const wrap = WRAP[str(sj.wrap ?? 'repeat', `${f}.sampler.wrap`)] ?? err(`${f}.sampler.wrap`, `one of ${Object.keys(WRAP).join(' ')} on a6xx`);
      const mip = str(sj.mip ?? 'none', `${f}.sampler.mip`);
      if (mip !== 'none' && mip !== 'nearest' && mip !== 'linear') err(`${f}.sampler.mip`, 'none, nearest or linear');
      samplers.push({ linear: filter === 'linear', wrap, mip });
    }
  });
  return { ...(images.length ? { images } : {}), ...(feedback.length ? { feedback } : {}), ...(samplers.length ? { samplers } : {}) };
}

function f16bits(x: number): number {
  const f = new Float32Array([x]);
  const u = new Uint32Array(f.buffer)[0]!;
  const s = (u >>> 16) & 0x8000;
  const e = ((u >>> 23) & 0xff) - 127 + 15;
  if (e <= 0) return s;
  if (e >= 31) return s | 0x7c00;
  return s | (e << 10) | Math.round((u & 0x7fffff) / 0x2000);
}

/** Run a scene object on the a6xx pipeline. */
export function runA6xxScene(scene: Json, dir: string, gpu: A6xxGpu, gmem?: GmemDrawOptions, perfMarks = false): A6xxSceneResult {
  const desc = a6xxSceneDescription(scene, dir, gpu);
  let built;
  try { built = buildDraw(desc); } catch (e) { if (e instanceof InputError) throw e; throw new InputError(`scene: ${(e as Error).message}`); }
  // GMEM mode (driver/gmem.ts): the same stream as the draw IB of a tiled pass.
  let tiled: GmemDraw | undefined;
  if (gmem) {
    try { tiled = gmemDraw(built, desc, gmem); } catch (e) { throw new InputError(`scene (GMEM): ${(e as Error).message}`); }
  }
  // The capture holds what runs: with GMEM, every segment (VSC buffers, the pass) and the pass as the stream.
  const rd = tiled ? drawRd({ ...built, segments: built.mem.segments, streamIova: tiled.streamIova, stream: new Uint32Array(tiled.streamDwords) }, desc.gpuId) : drawRd(built, desc.gpuId);
  const diag = new Diagnostics();
  const cfg = tile6ConfigFor(gpu);
  const cp = new CommandProcessor(built.mem, { diag, gpuId: desc.gpuId, tile6: cfg });
  cp.perf.keepMarks = perfMarks;
  if (tiled) cp.run(tiled.streamIova, tiled.streamDwords);
  else cp.run(built.streamIova, built.stream.length);
  const targets = built.targets.map((t, i) => {
    const f = fmt6ByName(t.format);
    const data = new Float32Array(desc.width * desc.height * desc.samples * 4);
    // UBWC: decoded through the flag plane (ubwc/ubwc.ts), pixels packed cpp x samples.
    const lin = t.ubwc ? ubwcToLinear(built.mem.readBytes(t.ubwc.flags, t.ubwc.layout.dataOffset + t.ubwc.layout.dataSize), t.ubwc.layout, t.format === 'FMT6_8_8_8_8_UNORM' ? { alphaByte: 3 } : undefined, diag, `target${i}`, cfg) : undefined;
    if (lin) for (let p = 0; p < desc.width * desc.height * desc.samples; p++) data.set(f.unpack(lin, p * f.cpp), p * 4);
    else for (let y = 0; y < desc.height; y++)
      for (let x = 0; x < desc.width; x++)
        for (let s = 0; s < desc.samples; s++) {
          const a = t.base + surfaceOffset(x, y, t.pitch, f.cpp * desc.samples, t.tile, cfg) + s * f.cpp;
          data.set(f.unpack(built.mem.readBytes(a, f.cpp), 0), ((y * desc.width + x) * desc.samples + s) * 4);
        }
    const tj = obj(arr(scene.targets, 'targets')[i], `targets[${i}]`);
    return { name: String(tj.name ?? `target${i}`), format: t.format, data };
  });
  const g = tiled ? { gmem: { binW: tiled.layout.binW, binH: tiled.layout.binH, nx: tiled.layout.nx, ny: tiled.layout.ny, binning: tiled.binning, skippedDraws: cp.vscSkippedDraws, skippedPrims: cp.vscSkippedPrims } } : {};
  const resolved = built.resolved?.map((t) => {
    const f = fmt6ByName(t.format);
    const data = new Float32Array(desc.width * desc.height * 4);
    for (let y = 0; y < desc.height; y++) for (let x = 0; x < desc.width; x++) data.set(f.unpack(built.mem.readBytes(t.base + y * t.pitch + x * f.cpp, f.cpp), 0), (y * desc.width + x) * 4);
    return data;
  });
  const stored = built.targets.map((t) => (t.ubwc ? built.mem.readBytes(t.ubwc.flags, t.ubwc.layout.dataOffset + t.ubwc.layout.dataSize) : built.mem.readBytes(t.base, t.pitch * paddedHeight(desc.height, t.tile, t.cpp * desc.samples))));
  return { gpu, width: desc.width, height: desc.height, samples: desc.samples, targets, ...(resolved ? { resolved } : {}), stored, diag, draws: drawRuns(cp), stream: built.stream, rd, ...g, cp };
}

/** A target resolved to one RGBA per pixel: the 2D engine's resolve, or (single-sampled / `software`) the samples averaged here. */
export function resolveA6xxTarget(r: A6xxSceneResult, k = 0, software = false): Float32Array {
  if (!software && r.resolved?.[k]) return r.resolved[k]!;
  const t = r.targets[k]!;
  const out = new Float32Array(r.width * r.height * 4);
  for (let p = 0; p < r.width * r.height; p++)
    for (let c = 0; c < 4; c++) {
      let s = 0;
      for (let i = 0; i < r.samples; i++) s += t.data[(p * r.samples + i) * 4 + c]!;
      out[p * 4 + c] = s / r.samples;
    }
  return out;
}
