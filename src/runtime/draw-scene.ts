/**
 * Scenes for `gpusim draw`: a JSON description of render targets, buffers, shaders, state and
 * draws becomes a real PM4 command stream (Pm4Builder), which the command processor executes
 * with the graphics pipeline attached (src/amd/gfx/pipeline.ts). The format is documented in
 * README.md ("Drawing"); every field error names the field (InputError).
 */
import { editDistance } from '../core/keys.js';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Diagnostics } from '../core/diagnostics.js';
import { InputError } from '../core/errors.js';
import { parseJsonText } from '../core/json.js';
import { Memory } from '../core/memory.js';
import { f16, f16bits, f32, f32bits } from '../core/float.js';
import { Pm4Builder } from '../amd/cp/builder.js';
import { CommandProcessor, type DrawRecord } from '../amd/cp/cp.js';
import { DEFAULT_RENDER_BACKENDS, readZpassBlock } from '../amd/cp/queries.js';
import { regDb } from '../amd/cp/regdb.js';
import { gfx11 } from '../amd/isa/gfx11/index.js';
import { gfx10 } from '../amd/isa/gfx10/index.js';
import { gfx9 } from '../amd/isa/gfx9/index.js';
import type { Pm4Gen } from '../amd/cp/regdb.js';
import { assemble } from '../amd/isa/target.js';
import { waveTarget } from '../amd/isa/targets.js';
import { AsmError } from '../amd/isa/types.js';
import { standardMsaaRegisters } from '../amd/gfx/state.js';
import { encodeFields } from '../amd/gfx/regs.js';
import { COLOR_FORMATS, type ColorFormatName } from '../amd/gfx/cb.js';
import { ATTR_RING } from '../amd/gfx/spi.js';
import { DI_PT } from '../amd/gfx/pa-regs.gen.js';
import { PS_INPUTS } from '../amd/gfx/waves.js';
import { bufFormatByName, bufGenOf, packVsharp } from '../amd/exec/buffer.js';
import { BUF_FORMATS } from '../amd/exec/buffer-formats.gen.js';
import type { RsrcBits } from '../amd/exec/mimg-rsrc.gen.js';
import { imageGen } from '../amd/exec/mimg.js';
import { linearLayout, type LinearLayout } from '../amd/exec/image-layout.js';
import { GfxPipeline, type DrawOptions, type DrawStats, type ShaderCode } from '../amd/gfx/pipeline.js';
import type { PopsDrawReport } from '../amd/gfx/pops-draw.js';
import type { PopsCacheStats } from '../amd/gfx/pops-cache.js';

type Json = Record<string, unknown>;

export interface SceneTarget { name: string; format: ColorFormatName; width: number; height: number; va: number; bytes: number }
/**
 * An image surface the scene made from a buffer (`{"image": buf}` user data): the buffer's texels
 * copied into the target generation's linear layout (image-layout.ts) at `va`.
 */
export interface SceneImage {
  readonly va: number; readonly width: number; readonly height: number; readonly levels: number; readonly layers: number;
  /** Bytes per texel. */
  readonly bytes: number;
  readonly layout: LinearLayout;
}
export interface SceneResult {
  readonly width: number;
  readonly height: number;
  readonly samples: number;
  readonly targets: readonly SceneTarget[];
  readonly depth: { va: number; format: 'Z_16' | 'Z_32_FLOAT' } | null;
  readonly mem: Memory;
  /** GPU address of each scene buffer. */
  readonly buffers: ReadonlyMap<string, number>;
  /** Image surfaces by the name of the buffer they were made from. */
  readonly images: ReadonlyMap<string, SceneImage>;
  readonly diag: Diagnostics;
  readonly stats: DrawStats;
  /** The PM4 stream that was executed. */
  readonly pm4: Uint32Array;
  /** The scene's shaders in GPU memory (what a GfxPipeline needs to run the stream again). */
  readonly codes: readonly ShaderCode[];
  /** Occlusion queries by name: their block's address and samples passed (null: not all RBs wrote). */
  readonly queries: ReadonlyMap<string, { readonly va: number; readonly samples: number | null }>;
  /** Per-draw POPS statistics (draws with PRIMITIVE_ORDERED_PIXEL_SHADER only). */
  readonly pops: readonly PopsDrawReport[];
  /** POPS draws' L0/L1 statistics (null without a POPS draw or with `popsCaches: false`). */
  readonly popsCache: PopsCacheStats | null;
  readonly packets: number;
}

const SAMPLE_COUNTS = [1, 2, 4, 8, 16] as const;

/** RADV's 32-bit address window (address32_hi 0xFFFF8000) as a 48-bit VA: where descriptor sets live. */
const ADDR32_BASE = 0x8000_0000_0000;

function err(field: string, msg: string): never {
  throw new InputError(`${field}: ${msg}`);
}
function num(v: unknown, field: string, min = -Infinity, max = Infinity): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max) err(field, `expected a number in [${min}, ${max}], got ${JSON.stringify(v)}`);
  return v;
}
function int(v: unknown, field: string, min: number, max: number): number {
  const n = num(v, field, min, max);
  if (!Number.isInteger(n)) err(field, `expected an integer, got ${n}`);
  return n;
}
function obj(v: unknown, field: string): Json {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) err(field, 'expected an object');
  return keys ? keys.track(v as Json, field) : (v as Json);
}

/**
 * Unknown keys: every object the scene reader looks at is seen through a proxy that records the
 * keys it reads; a key the reader never read (a misspelling such as "sampels" or "cul") is an
 * error naming it, with the closest key the reader looked for. Per-generation override objects
 * are merged into a new object (forTarget), which is the one checked.
 */
class KeyTracker {
  private readonly entries = new Map<Json, { field: string; read: Set<string>; proxy: Json; merged: boolean }>();
  private readonly raw = new WeakMap<Json, Json>();
  track(o: Json, field: string): Json {
    const r = this.raw.get(o) ?? o;
    const e = this.entries.get(r);
    if (e) return e.proxy;
    const read = new Set<string>();
    const proxy = new Proxy(r, {
      get(t, k, recv) {
        if (typeof k === 'string') read.add(k);
        return Reflect.get(t, k, recv);
      },
    });
    this.entries.set(r, { field, read, proxy, merged: false });
    this.raw.set(proxy, r);
    return proxy;
  }
  /** The object under a proxy, marked as merged into another (its keys are checked there). */
  unwrap(o: Json): Json {
    const r = this.raw.get(o) ?? o;
    const e = this.entries.get(r);
    if (e) e.merged = true;
    return r;
  }
  /** Throw on the first key that was never read. */
  check(): void {
    for (const [r, e] of this.entries) {
      if (e.merged) continue;
      for (const k of Object.keys(r)) {
        if (e.read.has(k) || k.startsWith('//') || k === 'description' || k === 'comment') continue;
        const near = [...e.read].map((c) => [c, editDistance(c, k)] as const).filter(([c, d]) => d <= Math.max(1, Math.floor(c.length / 3)) && !(c in r)).sort((a, b) => a[1] - b[1])[0];
        err(`${e.field}.${k}`.replace(/^scene\./, ''), `unknown key${near ? ` (did you mean '${near[0]}'?)` : ''}`);
      }
    }
  }
}
let keys: KeyTracker | null = null;

function arr(v: unknown, field: string): unknown[] {
  if (!Array.isArray(v)) err(field, 'expected an array');
  return v;
}
function bool(v: unknown, field: string): boolean {
  if (typeof v !== 'boolean') err(field, 'true or false');
  return v;
}
function str(v: unknown, field: string): string {
  if (typeof v !== 'string') err(field, 'expected a string');
  return v;
}

const ELEM: Record<string, number> = { u8: 1, u16: 2, u32: 4, i32: 4, f32: 4, f16: 2 };

/** Pack a descriptor of `words` dwords from named fields (`word0`: the whole first dword). */
function descriptor(layout: Readonly<Record<string, RsrcBits>>, words: number, fields: Readonly<Record<string, number>>, word0 = 0): number[] {
  const w = new Array<number>(words).fill(0);
  w[0] = word0 >>> 0;
  for (const [k, v] of Object.entries(fields)) {
    const d = layout[k];
    if (!d) throw new Error(`descriptor field ${k} has no layout`);
    w[d.word] = (w[d.word]! + (v % 2 ** d.width) * 2 ** d.lo) >>> 0;
  }
  return w;
}

const FORMAT_BY_NAME = new Map(Object.entries(BUF_FORMATS).map(([k, v]) => [v.name, Number(k)]));

/** The scene target's generation number (its V# layout and format numbering). */
const GFX_OF: Readonly<Record<SceneGfx, 9 | 10 | 11>> = { gfx1100: 11, gfx1030: 10, gfx900: 9 };

/** The generations a scene runs on, by LLVM -mcpu name (the keys of per-generation overrides). */
export const SCENE_TARGETS = { gfx1100: { gen: 'gfx11', isa: gfx11 }, gfx1030: { gen: 'gfx103', isa: gfx10 }, gfx900: { gen: 'gfx9', isa: gfx9 } } as const;
export type SceneGfx = keyof typeof SCENE_TARGETS;

/** Scene options beyond the pipeline's: `gfx` overrides the scene's own `gfx`. */
export interface SceneOptions extends DrawOptions {
  readonly gfx?: string;
}

/** The -mcpu name of a `gfx` value (gfx11 / gfx1100, gfx10.3 / gfx103 / gfx1030, gfx9 / gfx900). */
export function sceneTarget(v: string, field = 'gfx'): SceneGfx {
  const t = /^gfx11(00)?$/.test(v) ? 'gfx1100' : /^gfx10(\.?3|30)$/.test(v) ? 'gfx1030' : /^gfx9(00)?$/.test(v) ? 'gfx900' : null;
  if (!t) err(field, `gfx1100, gfx1030 or gfx900 (got ${v})`);
  return t;
}

/**
 * An object with per-generation overrides: keys named after a scene target (`"gfx900": {...}`)
 * are merged over the rest when that target runs, and dropped for the others.
 */
function forTarget(o: Json, target: SceneGfx, field: string): Json {
  const raw = keys ? keys.unwrap(o) : o;
  const out: Json = {};
  // The a6xx runner's keys (runtime/draw-a6xx.ts) are dropped too.
  for (const [k, v] of Object.entries(raw)) if (!(k in SCENE_TARGETS) && k !== 'a6xx' && k !== 'a630' && k !== 'a660') out[k] = v;
  if (raw[target] !== undefined) {
    const over = obj(raw[target], `${field}.${target}`);
    Object.assign(out, keys ? keys.unwrap(over) : over);
  }
  return keys ? keys.track(out, field) : out;
}

/**
 * Fill `dst` with copies of `pattern` (a clear value), as memcpy-sized doublings. An all-zero
 * pattern writes nothing: a fresh segment is zero already, and its pages, never touched, are not
 * committed by the OS until a draw writes them (a large target costs memory only where drawn).
 */
export function fillPattern(dst: Uint8Array, pattern: Uint8Array): void {
  if (pattern.every((b) => b === 0) || dst.length === 0) return;
  dst.set(pattern.subarray(0, Math.min(pattern.length, dst.length)));
  for (let n = pattern.length; n < dst.length; n *= 2) dst.copyWithin(n, 0, Math.min(n, dst.length - n));
}

/** Load a scene file and run it. */
export function runSceneFile(path: string, opts: SceneOptions = {}): SceneResult {
  let text: string;
  try { text = readFileSync(path, 'utf8'); } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new InputError(code === 'ENOENT' ? 'no such scene file' : code === 'EISDIR' ? 'is a directory, not a scene file' : `cannot read scene: ${(e as Error).message}`, path);
  }
  let j: unknown;
  try { j = parseJsonText(text, undefined, 'scene JSON'); } catch (e) { throw new InputError((e as Error).message, path); }
  return runScene(obj(j, 'scene'), dirname(resolve(path)), opts);
}

/** Run a scene object; files it names are relative to `dir`. */
export function runScene(scene: Json, dir = '.', opts: SceneOptions = {}): SceneResult {
  const outer = keys;
  keys = new KeyTracker();
  try {
    return runSceneChecked(obj(scene, 'scene'), dir, opts);
  } finally {
    keys = outer;
  }
}

/** Most samples a scene's render target may hold (width x height x samples): 64 MiB of RGBA8. */
export const MAX_SCENE_SAMPLES = 1 << 24;

function runSceneChecked(scene: Json, dir: string, opts: SceneOptions): SceneResult {
  const own = scene.gfx === undefined ? 'gfx1100' : sceneTarget(str(scene.gfx, 'gfx'));
  // Top-level overrides for the a6xx runner (runtime/draw-a6xx.ts), e.g. its sample count.
  for (const k of ['a6xx', 'a630', 'a660']) if (scene[k] !== undefined) keys?.unwrap(obj(scene[k], k));
  const target = opts.gfx !== undefined ? sceneTarget(opts.gfx, '--gfx') : own;
  const gen: Pm4Gen = SCENE_TARGETS[target].gen;
  const isa = SCENE_TARGETS[target].isa;
  // T#/S# layouts and image format numbering of the target's generation (as its waves read them)
  const img = imageGen(isa.space.gfx);
  const imgFormat = new Map(Object.entries(img.F).map(([k, v]) => [v.name, Number(k)]));
  const db = regDb(gen);
  const mem = new Memory();
  const diag = new Diagnostics();
  const b = new Pm4Builder(gen);
  const E = (reg: string, f: Readonly<Record<string, number | string>>): number => encodeFields(db, reg, f);
  const field = (reg: string, name: string, v: number): number => {
    const fd = db.get(reg)?.fields.find((x) => x.name === name);
    return fd ? Math.floor(v / 2 ** fd.lo) % 2 ** (fd.hi - fd.lo + 1) : 0;
  };
  const userSgprs = (reg: string, v: number): number => field(reg, 'USER_SGPR', v) + 32 * field(reg, 'USER_SGPR_MSB', v);
  const width = int(scene.width, 'width', 1, 16384);
  const height = int(scene.height, 'height', 1, 16384);
  const samples = int(scene.samples ?? 1, 'samples', 1, 16);
  if (!(SAMPLE_COUNTS as readonly number[]).includes(samples)) err('samples', 'must be 1, 2, 4, 8 or 16');
  if (width * height * samples > MAX_SCENE_SAMPLES) err('width', `${width}x${height} with ${samples} sample(s) is ${width * height * samples} samples per target; the limit is ${MAX_SCENE_SAMPLES} (2^24, e.g. 4096x4096 at 1 sample or 2048x2048 at 4)`);

  // Buffers.
  const buffers = new Map<string, { va: number; bytes: number; count: number; elem: number }>();
  for (const [name, v] of Object.entries(obj(scene.buffers ?? {}, 'buffers'))) {
    const f = `buffers.${name}`;
    const bj = obj(v, f);
    const type = str(bj.type, `${f}.type`);
    const elem = ELEM[type];
    if (!elem) err(`${f}.type`, `one of ${Object.keys(ELEM).join(' ')}`);
    const values = arr(bj.values, `${f}.values`).map((x, i) => num(x, `${f}.values[${i}]`));
    const bytes = Math.max(4, values.length * elem);
    const seg = mem.alloc(Math.ceil(bytes / 256) * 256, `buf:${name}`);
    values.forEach((x, i) => {
      const a = seg.base + i * elem;
      if (type === 'f32') mem.write32(a, f32bits(x));
      else if (type === 'f16') mem.write16(a, f16Bits(x));
      else if (elem === 1) mem.write8(a, x & 0xff);
      else if (elem === 2) mem.write16(a, x & 0xffff);
      else mem.write32(a, x >>> 0);
    });
    buffers.set(name, { va: seg.base, bytes, count: values.length, elem });
  }

  // The stages: which shader each runs and in which wave size (the size its text is read in).
  const wave = (v: unknown, f: string): 32 | 64 => {
    const w = int(v, f, 32, 64);
    if (w !== 32 && w !== 64) err(f, '32 or 64');
    if (gen === 'gfx9' && w !== 64) err(f, 'gfx900 shaders are wave64');
    return w as 32 | 64;
  };
  const stageHead = (key: 'vs' | 'ps'): { j: Json; shader: string; wave: 32 | 64; cfg: ShaderConfig | null } => {
    const j = forTarget(obj(scene[key], key), target, key);
    const cfg = j.config === undefined ? null : shaderConfig(j.config, dir, `${key}.config`);
    if (cfg && j.wave !== undefined && cfg.wave !== undefined && j.wave !== cfg.wave) err(`${key}.wave`, `${String(j.wave)} but ${key}.config says wave${cfg.wave}`);
    return { j, shader: str(j.shader, `${key}.shader`), wave: wave(j.wave ?? cfg?.wave ?? 32, `${key}.wave`), cfg };
  };
  const heads = { vs: stageHead('vs'), ps: stageHead('ps') };

  // Shaders. Assembly text is read in the wave size of the stage that runs it (lane masks are SGPR
  // pairs in wave64, as llvm-mc reads with +wavefrontsize64), or the shader's own `wave`.
  const codes: ShaderCode[] = [];
  const shaderVa = new Map<string, number>();
  for (const [name, v] of Object.entries(obj(scene.shaders ?? {}, 'shaders'))) {
    const f = `shaders.${name}`;
    const vj = obj(v, f);
    const sj = forTarget(vj, target, f);
    if (sj.bin === undefined && sj.asm === undefined && sj.source === undefined && (vj.a6xx ?? vj.a630 ?? vj.a660) !== undefined)
      err(f, `only ir3 code (shaders.${name}.a6xx): draw this scene with --gpu a630 or a660`);
    const users = (['vs', 'ps'] as const).filter((k) => heads[k].shader === name);
    if (users.length === 2 && heads.vs.wave !== heads.ps.wave) err(f, `run by vs (wave${heads.vs.wave}) and ps (wave${heads.ps.wave}): its text is one wave size; give each stage its own shader`);
    const textWave = sj.wave !== undefined ? wave(sj.wave, `${f}.wave`) : users.length > 0 ? heads[users[0]!].wave : (isa.wave ?? 32);
    for (const k of users) {
      if (heads[k].wave !== textWave) err(`${k}.wave`, `${heads[k].wave} but shader '${name}' is written for wave${textWave} (shaders.${name}.wave)`);
    }
    let words: Uint32Array;
    if (sj.bin !== undefined) {
      const p = resolve(dir, str(sj.bin, `${f}.bin`));
      let bytes: Uint8Array;
      try { bytes = readFileSync(p); } catch (e) { return err(`${f}.bin`, (e as Error).message); }
      if (bytes.length % 4) err(`${f}.bin`, 'raw machine code must be whole dwords');
      words = new Uint32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
    } else {
      let src: string;
      if (sj.asm !== undefined) {
        const p = resolve(dir, str(sj.asm, `${f}.asm`));
        try { src = readFileSync(p, 'utf8'); } catch (e) { return err(`${f}.asm`, (e as Error).message); }
      } else src = arr(sj.source, `${f}.source`).map((l, i) => str(l, `${f}.source[${i}]`)).join('\n');
      try { words = Uint32Array.from(assemble(waveTarget(isa, textWave)!, src)); } catch (e) {
        if (e instanceof AsmError) err(f, e.message);
        throw e;
      }
    }
    const seg = mem.alloc(Math.ceil((words.length * 4 + 64) / 256) * 256, `shader:${name}`);
    mem.writeBytes(seg.base, new Uint8Array(words.buffer, words.byteOffset, words.byteLength));
    codes.push({ va: seg.base, words, name });
    shaderVa.set(name, seg.base);
  }

  // Render targets (linear, `samples` per pixel) and depth.
  const targets: SceneTarget[] = [];
  const tj = arr(scene.targets ?? [], 'targets');
  if (tj.length > 8) err('targets', 'at most 8 colour targets');
  tj.forEach((t, i) => {
    const f = `targets[${i}]`;
    const o = obj(t, f);
    const format = str(o.format, `${f}.format`) as ColorFormatName;
    const cf = COLOR_FORMATS[format];
    if (!cf) err(`${f}.format`, `one of ${Object.keys(COLOR_FORMATS).join(', ')}`);
    const bytes = width * height * samples * cf.bytes;
    const seg = mem.alloc(Math.ceil(bytes / 256) * 256, `rt${i}`);
    const clear = o.clear === undefined ? [0, 0, 0, 0] : arr(o.clear, `${f}.clear`).map((x, k) => num(x, `${f}.clear[${k}]`));
    const px = new Uint8Array(cf.bytes);
    const dv = new DataView(px.buffer);
    if (format === 'R8G8B8A8_UNORM') for (let c = 0; c < 4; c++) px[c] = Math.round(Math.min(1, Math.max(0, clear[c] ?? 0)) * 255);
    else if (format === 'R16G16B16A16_FLOAT') for (let c = 0; c < 4; c++) dv.setUint16(2 * c, f16Bits(clear[c] ?? 0), true);
    else dv.setFloat32(0, clear[0] ?? 0, true);
    fillPattern(seg.u8.subarray(0, bytes), px);
    targets.push({ name: typeof o.name === 'string' ? o.name : `rt${i}`, format, width, height, va: seg.base, bytes: cf.bytes });
  });
  let depth: SceneResult['depth'] = null;
  if (scene.depth !== undefined) {
    const dj = obj(scene.depth, 'depth');
    const format = str(dj.format, 'depth.format');
    if (format !== 'Z_16' && format !== 'Z_32_FLOAT') err('depth.format', 'Z_16 or Z_32_FLOAT');
    const clear = num(dj.clear ?? 1, 'depth.clear', 0, 1);
    const bpp = format === 'Z_16' ? 2 : 4;
    const n = width * height * samples;
    const seg = mem.alloc(Math.ceil((n * bpp + n) / 256) * 256 + 256, 'depth');
    const z = new Uint8Array(bpp);
    if (bpp === 2) new DataView(z.buffer).setUint16(0, Math.round(clear * 65535), true);
    else new DataView(z.buffer).setUint32(0, f32bits(clear), true);
    fillPattern(seg.u8.subarray(0, n * bpp), z);
    depth = { va: seg.base, format };
  }

  // Attribute ring (64 KiB aligned, sized for the largest draw).
  const params = int(scene.params ?? 1, 'params', 1, 32);
  let maxVerts = 3;
  for (const [i, d] of arr(scene.draws ?? [], 'draws').entries()) maxVerts = Math.max(maxVerts, int(obj(d, `draws[${i}]`).count, `draws[${i}].count`, 0, 1 << 20));
  const ringBytes = Math.ceil((maxVerts * (ATTR_RING.subgroupAlign + 3 * 16 * params)) / 65536) * 65536;
  if (ringBytes > 256 * 65536) err('draws', 'the draws need an attribute ring over 16 MiB; split them');
  const ring = gen === 'gfx11' ? mem.alloc(ringBytes, 'attr-ring', 65536) : null;

  // Image surfaces: a buffer named as an image holds its texels tightly packed (per layer, each level's
  // rows of level-width texels, level 0 first); the scene copies them into a surface laid out as the
  // target generation's addrlib lays out linear images (row pitch, mip and slice placement).
  const images = new Map<string, SceneImage>();
  const imageSurface = (o: Json, uf: string): SceneImage => {
    const bn = str(o.image, `${uf}.image`);
    const buf = buffers.get(bn) ?? err(`${uf}.image`, `no buffer '${bn}'`);
    const fmtName = str(o.format ?? '8_8_8_8_UNORM', `${uf}.format`);
    const fmt = imgFormat.get(fmtName) ?? err(`${uf}.format`, `an image format name of ${target} such as 8_8_8_8_UNORM or 32_32_32_32_FLOAT`);
    const bytes = img.F[fmt]!.bytes;
    if (256 % bytes) err(`${uf}.format`, `texels of ${bytes} bytes have no linear layout here (1, 2, 4, 8 or 16 bytes)`);
    const width = int(o.width, `${uf}.width`, 1, 16384), height = int(o.height ?? 1, `${uf}.height`, 1, 16384);
    const levels = int(o.levels ?? 1, `${uf}.levels`, 1, 1 + Math.floor(Math.log2(Math.max(width, height))));
    const layers = int(o.layers ?? 1, `${uf}.layers`, 1, 8192);
    const prev = images.get(bn);
    if (prev) {
      if (prev.width !== width || prev.height !== height || prev.levels !== levels || prev.layers !== layers || prev.bytes !== bytes) err(uf, `buffer '${bn}' is already an image of another size, format, level or layer count`);
      return prev;
    }
    const layout = linearLayout(img.rule, width, height, bytes, levels);
    const packed = layout.levels.reduce((a, l) => a + l.width * l.height * bytes, 0);
    if (buf.bytes < packed * layers) err(`${uf}.image`, `buffer '${bn}' holds ${buf.bytes} bytes; a ${width}x${height} image of ${levels} level(s) and ${layers} layer(s) needs ${packed * layers}`);
    const seg = mem.alloc(Math.ceil((layout.sliceBytes * layers) / 256) * 256, `img:${bn}`);
    let src = buf.va;
    for (let s = 0; s < layers; s++) {
      for (const l of layout.levels) {
        for (let y = 0; y < l.height; y++, src += l.width * bytes) mem.writeBytes(seg.base + s * layout.sliceBytes + l.offset + y * l.pitch * bytes, mem.readBytes(src, l.width * bytes));
      }
    }
    const im: SceneImage = { va: seg.base, width, height, levels, layers, bytes, layout };
    images.set(bn, im);
    return im;
  };

  // ---- the command stream --------------------------------------------------------------------
  b.contextControl().clearState();
  if (ring) {
    b.setUconfigReg('SPI_ATTRIBUTE_RING_BASE', Math.floor(ring.base / 65536));
    b.setUconfigReg('SPI_ATTRIBUTE_RING_SIZE', E('SPI_ATTRIBUTE_RING_SIZE', { MEM_SIZE: ringBytes / 65536 - 1 }));
  }
  const imageDescriptor = (o: Json, uf: string): number[] => {
    // T#: a linear 1D/2D image or array, with mips, in the target generation's T# layout
    // (mimg-rsrc.gen.ts, mimg-gfx10.gen.ts, mimg-gfx9.gen.ts) over a surface laid out as its addrlib does.
    const im = imageSurface(o, uf);
    const fmt = imgFormat.get(str(o.format ?? '8_8_8_8_UNORM', `${uf}.format`))!;
    const iw = im.width, ih = im.height;
    // GFX9: PITCH is addrlib's epitch (row pitch, or the mip chain height); DEPTH the last slice.
    const size: Record<string, number> = img.R.WIDTH ? { WIDTH: iw - 1, PITCH: im.layout.epitch - 1 } : { WIDTH_LO: (iw - 1) & 3, WIDTH_HI: (iw - 1) >> 2 };
    const type = im.layers > 1 ? (ih > 1 ? 13 : 12) : ih > 1 ? 9 : 8;
    return descriptor(img.R, 8, {
      BASE_ADDRESS_HI: Math.floor(im.va / 2 ** 40), FORMAT: fmt, ...size, HEIGHT: ih - 1, DST_SEL_X: 4, DST_SEL_Y: 5, DST_SEL_Z: 6, DST_SEL_W: 7, TYPE: type,
      DEPTH: im.layers - 1, MAX_MIP: im.levels - 1, LAST_LEVEL: im.levels - 1,
    }, Math.floor(im.va / 256) % 0x1_0000_0000);
  };
  // Descriptor sets as RADV lays them out: the descriptors' dwords back to back in memory inside the
  // 32-bit address window (RADV's address32_hi 0xFFFF8000: the 48-bit VA 0x8000_xxxx_xxxx), one user
  // SGPR holding the low 32 bits; the shader rebuilds the pointer (s_movk_i32 sN+1, 0x8000) and s_loads them.
  const descriptorSet = (list: unknown, f: string): number => {
    const words = userData(list, f, Infinity);
    const bytes = Math.max(256, Math.ceil(words.length * 4 / 256) * 256);
    // The first set opens the window at its base; later allocations (their images too) follow it there.
    const seg = mem.segments.some((x) => x.end > ADDR32_BASE) ? mem.alloc(bytes, `set:${f}`) : mem.map(ADDR32_BASE, bytes, `set:${f}`);
    if (seg.end > ADDR32_BASE + 0x1_0000_0000) err(f, 'descriptor sets exceed the 32-bit address window');
    words.forEach((w, k) => mem.write32(seg.base + 4 * k, w));
    return seg.base - ADDR32_BASE;
  };
  const userData = (list: unknown, f: string, limit = 32): number[] => {
    const out: number[] = [];
    arr(list ?? [], f).forEach((u, i) => {
      const uf = `${f}[${i}]`;
      const o = obj(u, uf);
      if (o.u32 !== undefined) out.push(int(o.u32, `${uf}.u32`, 0, 0xffffffff));
      else if (o.f32 !== undefined) out.push(f32bits(num(o.f32, `${uf}.f32`)));
      else if (o.descriptorSet !== undefined) out.push(descriptorSet(o.descriptorSet, `${uf}.descriptorSet`));
      else if (o.attrRing !== undefined) {
        if (!ring) err(uf, `${target} has no attribute ring (parameters are exported with exp paramN)`);
        out.push(...packVsharp(bufGenOf(11), { base: ring.base, stride: 16 * params, records: 0xffffffff, swizzle: ATTR_RING.swizzleField, indexStride: ATTR_RING.indexStrideField, format: FORMAT_BY_NAME.get('32_32_32_32_FLOAT')!, oob: 3 }));
      } else if (o.buffer !== undefined) {
        const bn = str(o.buffer, `${uf}.buffer`);
        const buf = buffers.get(bn) ?? err(`${uf}.buffer`, `no buffer '${bn}'`);
        const stride = int(o.stride ?? 0, `${uf}.stride`, 0, 16383);
        // The V# in the target generation's layout and format numbering (GFX9: DATA_FORMAT/NUM_FORMAT).
        const G = bufGenOf(GFX_OF[target]);
        const fmt = o.format === undefined ? 0 : bufFormatByName(G, str(o.format, `${uf}.format`)) ?? err(`${uf}.format`, `a ${target} buffer format name such as 32_32_32_32_FLOAT`);
        const records = stride ? Math.floor(buf.bytes / stride) : buf.bytes;
        out.push(...packVsharp(G, { base: buf.va, stride, records, format: fmt, oob: stride ? 1 : 3 }));
      } else if (o.image !== undefined) {
        out.push(...imageDescriptor(o, uf));
      } else if (o.sampler !== undefined) {
        const sj = obj(o.sampler, `${uf}.sampler`);
        const filter = str(sj.filter ?? 'nearest', `${uf}.sampler.filter`);
        if (filter !== 'nearest' && filter !== 'linear') err(`${uf}.sampler.filter`, 'nearest or linear');
        const wrapName = str(sj.wrap ?? 'repeat', `${uf}.sampler.wrap`);
        const wrap = ({ repeat: 0, mirror: 1, clamp: 2, border: 6 } as Record<string, number>)[wrapName];
        if (wrap === undefined) err(`${uf}.sampler.wrap`, 'repeat, mirror, clamp or border');
        const lin = filter === 'linear' ? 1 : 0;
        // Mip filtering (MIP_FILTER none/point/linear; with one, MAX_LOD 15 lets the LOD reach every level).
        const mip = ({ none: 0, nearest: 1, linear: 2 } as Record<string, number>)[str(sj.mip ?? 'none', `${uf}.sampler.mip`)];
        if (mip === undefined) err(`${uf}.sampler.mip`, 'none, nearest or linear');
        out.push(...descriptor(img.S, 4, { CLAMP_X: wrap, CLAMP_Y: wrap, CLAMP_Z: wrap, XY_MAG_FILTER: lin, XY_MIN_FILTER: lin, FORCE_UNNORMALIZED: sj.unnormalized ? 1 : 0, MIP_FILTER: mip, MAX_LOD: mip ? 15 * 256 : 0 }));
      } else if (o.address !== undefined) {
        const bn = str(o.address, `${uf}.address`);
        const buf = buffers.get(bn) ?? err(`${uf}.address`, `no buffer '${bn}'`);
        out.push(buf.va % 0x1_0000_0000 >>> 0, Math.floor(buf.va / 0x1_0000_0000));
      } else err(uf, 'one of {u32}, {f32}, {buffer, stride, format}, {image, width, height, levels, layers, format}, {sampler}, {address}, {descriptorSet: [...]}, {attrRing: true}');
    });
    if (out.length > limit) err(f, `at most ${limit} user SGPRs`);
    return out;
  };
  const ngg = gen === 'gfx11' || heads.vs.j.ngg === true;
  const stage = (key: 'vs' | 'ps'): { va: number; wave: 32 | 64; vgprs: number; user: number[]; j: Json; cfg: ShaderConfig | null } => {
    const { j, shader: sn, wave: w } = heads[key];
    const va = shaderVa.get(sn) ?? err(`${key}.shader`, `no shader '${sn}'`);
    const vgprs = int(j.vgprs ?? 32, `${key}.vgprs`, 1, 256);
    const user = userData(j.userData, `${key}.userData`);
    const cfg = heads[key].cfg;
    if (cfg) {
      // The registers say how many user SGPRs the shader reads: the scene must fill exactly those.
      const reg = key === 'ps' ? 'SPI_SHADER_PGM_RSRC2_PS' : ngg ? 'SPI_SHADER_PGM_RSRC2_GS' : 'SPI_SHADER_PGM_RSRC2_VS';
      const n = userSgprs(reg, cfg.rsrc2);
      if (n !== user.length) err(`${key}.userData`, `${user.length} user SGPR(s), but ${key}.config's RSRC2 (USER_SGPR) loads ${n}`);
    }
    return { va, wave: w, vgprs, user, j, cfg };
  };
  const vs = stage('vs');
  const ps = stage('ps');
  const granule = (w: 32 | 64): number => (w === 32 ? 8 : 4);
  if (gen === 'gfx9' && ngg) err('vs.ngg', 'gfx900 has no NGG pipeline: its vertex stage is the hardware VS');
  if (ngg) {
    // NGG primitive shader (GS hardware stage; GFX10.3 sizes its subgroups in GE_CNTL's *_GRP_SIZE).
    b.setShReg('SPI_SHADER_PGM_LO_ES', Math.floor(vs.va / 256) % 0x1_0000_0000 >>> 0);
    b.setShReg('SPI_SHADER_PGM_HI_ES', Math.floor(vs.va / 2 ** 40) & 0xff);
    b.setShReg('SPI_SHADER_PGM_RSRC1_GS', vs.cfg?.rsrc1 ?? E('SPI_SHADER_PGM_RSRC1_GS', { VGPRS: Math.ceil(vs.vgprs / granule(vs.wave)) - 1, FLOAT_MODE: 0xf0, GS_VGPR_COMP_CNT: 1 }));
    b.setShReg('SPI_SHADER_PGM_RSRC2_GS', vs.cfg?.rsrc2 ?? E('SPI_SHADER_PGM_RSRC2_GS', { USER_SGPR: vs.user.length & 31, USER_SGPR_MSB: vs.user.length >> 5, ES_VGPR_COMP_CNT: 3 }));
    if (vs.user.length) b.setShReg('SPI_SHADER_USER_DATA_GS_0', ...vs.user);
    b.setContextReg('VGT_SHADER_STAGES_EN', E('VGT_SHADER_STAGES_EN', { PRIMGEN_EN: 1, GS_EN: 0, GS_W32_EN: vs.wave === 32 ? 1 : 0 }));
    if (gen === 'gfx11') b.setUconfigReg('GE_CNTL', E('GE_CNTL', { PRIMS_PER_SUBGRP: vs.wave, VERTS_PER_SUBGRP: vs.wave }));
    else {
      b.setUconfigReg('GE_CNTL', E('GE_CNTL', { PRIM_GRP_SIZE: vs.wave, VERT_GRP_SIZE: vs.wave }));
      b.setContextReg('SPI_SHADER_POS_FORMAT', E('SPI_SHADER_POS_FORMAT', { POS0_EXPORT_FORMAT: 'SPI_SHADER_4COMP' }));
    }
  } else {
    // Hardware VS (GFX9, GFX10.3 legacy): VertexID v0, InstanceID v1 (GFX9) / v3 (GFX10.3).
    b.setShReg('SPI_SHADER_PGM_LO_VS', Math.floor(vs.va / 256) % 0x1_0000_0000 >>> 0);
    b.setShReg('SPI_SHADER_PGM_HI_VS', Math.floor(vs.va / 2 ** 40) & 0xff);
    b.setShReg('SPI_SHADER_PGM_RSRC1_VS', vs.cfg?.rsrc1 ?? E('SPI_SHADER_PGM_RSRC1_VS', { VGPRS: Math.ceil(vs.vgprs / granule(vs.wave)) - 1, FLOAT_MODE: 0xf0, VGPR_COMP_CNT: gen === 'gfx9' ? 1 : 3 }));
    b.setShReg('SPI_SHADER_PGM_RSRC2_VS', vs.cfg?.rsrc2 ?? E('SPI_SHADER_PGM_RSRC2_VS', { USER_SGPR: vs.user.length & 31, USER_SGPR_MSB: vs.user.length >> 5 }));
    if (vs.user.length) b.setShReg('SPI_SHADER_USER_DATA_VS_0', ...vs.user);
    b.setContextReg('VGT_SHADER_STAGES_EN', gen === 'gfx9' ? 0 : E('VGT_SHADER_STAGES_EN', { VS_W32_EN: vs.wave === 32 ? 1 : 0 }));
    b.setContextReg('SPI_SHADER_POS_FORMAT', E('SPI_SHADER_POS_FORMAT', { POS0_EXPORT_FORMAT: 'SPI_SHADER_4COMP' }));
    b.setContextReg('PA_CL_VS_OUT_CNTL', 0);
  }
  b.setContextReg('SPI_VS_OUT_CONFIG', E('SPI_VS_OUT_CONFIG', { VS_EXPORT_COUNT: params - 1 }));
  // Pixel shader.
  const inputs = arr(ps.j.inputs ?? [{}], 'ps.inputs');
  if (inputs.length > 32) err('ps.inputs', 'at most 32');
  const pcfg = ps.cfg;
  const ena = pcfg?.inputEna ?? psInputBits(ps.j.inputEna ?? ['PERSP_CENTER'], 'ps.inputEna');
  const addr = pcfg?.inputAddr ?? (ps.j.inputAddr === undefined ? ena : psInputBits(ps.j.inputAddr, 'ps.inputAddr'));
  const expFmt = arr(ps.j.exportFormat ?? targets.map(() => 'SPI_SHADER_32_ABGR'), 'ps.exportFormat');
  const colFormat: Record<string, string> = {};
  expFmt.forEach((x, i) => { colFormat[`COL${i}_EXPORT_FORMAT`] = str(x, `ps.exportFormat[${i}]`); });
  b.setShReg('SPI_SHADER_PGM_LO_PS', Math.floor(ps.va / 256) % 0x1_0000_0000 >>> 0);
  b.setShReg('SPI_SHADER_PGM_HI_PS', Math.floor(ps.va / 2 ** 40) & 0xff);
  b.setShReg('SPI_SHADER_PGM_RSRC1_PS', pcfg?.rsrc1 ?? E('SPI_SHADER_PGM_RSRC1_PS', { VGPRS: Math.ceil(ps.vgprs / granule(ps.wave)) - 1, FLOAT_MODE: 0xf0 }));
  // POPS arguments (COLLISION_WAVEID, INTRAWAVE_COLLISION after PRIM_MASK) need both RSRC2_PS and PA_SC_SHADER_CONTROL;
  // with a driver config RSRC2_PS says which the shader reads, and the draw sets PA_SC_SHADER_CONTROL to match (as RADV does).
  const popsArgs = pcfg
    ? { LOAD_COLLISION_WAVEID: field('SPI_SHADER_PGM_RSRC2_PS', 'LOAD_COLLISION_WAVEID', pcfg.rsrc2), LOAD_INTRAWAVE_COLLISION: field('SPI_SHADER_PGM_RSRC2_PS', 'LOAD_INTRAWAVE_COLLISION', pcfg.rsrc2) }
    : { LOAD_COLLISION_WAVEID: ps.j.collisionWaveId ? 1 : 0, LOAD_INTRAWAVE_COLLISION: ps.j.intrawaveCollision ? 1 : 0 };
  b.setShReg('SPI_SHADER_PGM_RSRC2_PS', pcfg?.rsrc2 ?? E('SPI_SHADER_PGM_RSRC2_PS', { USER_SGPR: ps.user.length & 31, USER_SGPR_MSB: ps.user.length >> 5, WAVE_CNT_EN: ps.j.waveCount ? 1 : 0, ...popsArgs }));
  if (pcfg?.rsrc3 && db.get('SPI_SHADER_PGM_RSRC3_PS')) b.setShReg('SPI_SHADER_PGM_RSRC3_PS', pcfg.rsrc3);
  if (popsArgs.LOAD_COLLISION_WAVEID || popsArgs.LOAD_INTRAWAVE_COLLISION) b.setContextReg('PA_SC_SHADER_CONTROL', E('PA_SC_SHADER_CONTROL', popsArgs));
  if (ps.user.length) b.setShReg('SPI_SHADER_USER_DATA_PS_0', ...ps.user);
  b.setContextReg('SPI_PS_INPUT_ENA', ena, addr);
  b.setContextReg('SPI_PS_IN_CONTROL', E('SPI_PS_IN_CONTROL', gen === 'gfx9' ? { NUM_INTERP: inputs.length } : { NUM_INTERP: inputs.length, PS_W32_EN: ps.wave === 32 ? 1 : 0 }));
  inputs.forEach((x, i) => {
    const o = obj(x, `ps.inputs[${i}]`);
    b.setContextReg(`SPI_PS_INPUT_CNTL_${i}`, E('SPI_PS_INPUT_CNTL_0', { OFFSET: int(o.offset ?? i, `ps.inputs[${i}].offset`, 0, 63), FLAT_SHADE: o.flat ? 1 : 0, DEFAULT_VAL: int(o.default ?? 0, `ps.inputs[${i}].default`, 0, 3) }));
  });
  if (pcfg?.colFormat !== undefined) b.setContextReg('SPI_SHADER_COL_FORMAT', pcfg.colFormat);
  else {
    try {
      b.setContextReg('SPI_SHADER_COL_FORMAT', E('SPI_SHADER_COL_FORMAT', colFormat));
    } catch (e) { err('ps.exportFormat', (e as Error).message); }
  }
  b.setContextReg('SPI_SHADER_Z_FORMAT', E('SPI_SHADER_Z_FORMAT', { Z_EXPORT_FORMAT: ps.j.depthExport ? 'SPI_SHADER_32_R' : 'SPI_SHADER_ZERO' }));

  // Fixed-function state.
  const st = forTarget(obj(scene.state ?? {}, 'state'), target, 'state');
  const vp = st.viewport === undefined ? [0, 0, width, height] : arr(st.viewport, 'state.viewport').map((x, i) => num(x, `state.viewport[${i}]`));
  if (vp.length !== 4) err('state.viewport', '[x, y, width, height]');
  const [vx, vy, vw, vh] = vp as [number, number, number, number];
  // The viewport bounds drivers expose (Vulkan viewportBoundsRange, maxViewportDimensions).
  if (vx < -32768 || vx > 32767 || vy < -32768 || vy > 32767) err('state.viewport', `x and y must be in [-32768, 32767], got ${vx}, ${vy}`);
  if (Math.abs(vw) > 16384 || Math.abs(vh) > 16384 || vw === 0 || vh === 0) err('state.viewport', `width and height must be non-zero and at most 16384 in size, got ${vw}, ${vh}`);
  b.setContextReg('PA_CL_VPORT_XSCALE', f32bits(vw / 2), f32bits(vx + vw / 2), f32bits(vh / 2), f32bits(vy + vh / 2), f32bits(1), f32bits(0));
  b.setContextReg('PA_CL_VTE_CNTL', E('PA_CL_VTE_CNTL', { VPORT_X_SCALE_ENA: 1, VPORT_X_OFFSET_ENA: 1, VPORT_Y_SCALE_ENA: 1, VPORT_Y_OFFSET_ENA: 1, VPORT_Z_SCALE_ENA: 1, VPORT_Z_OFFSET_ENA: 1, VTX_W0_FMT: 1 }));
  // state.depthClamp (Vulkan depthClampEnable) turns z clipping off unless state.depthClip says
  // otherwise (VK_EXT_depth_clip_enable; default !depthClamp), as RADV programs ZCLIP_*_DISABLE;
  // the DB clamps to the viewport's [0, 1] depth range in every case (db.ts).
  const depthClamp = st.depthClamp === undefined ? false : bool(st.depthClamp, 'state.depthClamp');
  const zclipOff = !(st.depthClip === undefined ? !depthClamp : bool(st.depthClip, 'state.depthClip'));
  b.setContextReg('PA_CL_CLIP_CNTL', E('PA_CL_CLIP_CNTL', { DX_CLIP_SPACE_DEF: 1, ZCLIP_NEAR_DISABLE: zclipOff ? 1 : 0, ZCLIP_FAR_DISABLE: zclipOff ? 1 : 0 }));
  // A guard band reaching +-8192 pixels (as drivers program it): x/y clipping only happens far
  // off screen, so primitives are not re-snapped at the viewport edges.
  const gbV = Math.max(1, 8192 / Math.max(1, vh / 2)), gbH = Math.max(1, 8192 / Math.max(1, vw / 2));
  b.setContextReg('PA_CL_GB_VERT_CLIP_ADJ', f32bits(gbV), f32bits(gbV), f32bits(gbH), f32bits(gbH));
  const sc = st.scissor === undefined ? [0, 0, width, height] : arr(st.scissor, 'state.scissor').map((x, i) => int(x, `state.scissor[${i}]`, 0, 16384));
  if (sc.length !== 4) err('state.scissor', '[x0, y0, x1, y1]');
  b.setContextReg('PA_SC_SCREEN_SCISSOR_TL', 0, E('PA_SC_SCREEN_SCISSOR_BR', { BR_X: width, BR_Y: height }));
  b.setContextReg('PA_SC_WINDOW_SCISSOR_TL', E('PA_SC_WINDOW_SCISSOR_TL', { WINDOW_OFFSET_DISABLE: 1 }), E('PA_SC_WINDOW_SCISSOR_BR', { BR_X: width, BR_Y: height }));
  b.setContextReg('PA_SC_GENERIC_SCISSOR_TL', E('PA_SC_GENERIC_SCISSOR_TL', { TL_X: sc[0]!, TL_Y: sc[1]!, WINDOW_OFFSET_DISABLE: 1 }), E('PA_SC_GENERIC_SCISSOR_BR', { BR_X: sc[2]!, BR_Y: sc[3]! }));
  const cull = st.cull ?? 'none';
  if (cull !== 'none' && cull !== 'back' && cull !== 'front') err('state.cull', 'none, back or front');
  const face = st.frontFace ?? 'ccw';
  if (face !== 'ccw' && face !== 'cw') err('state.frontFace', 'ccw or cw');
  const suMode = (restart: boolean): number => E('PA_SU_SC_MODE_CNTL', { CULL_BACK: cull === 'back' ? 1 : 0, CULL_FRONT: cull === 'front' ? 1 : 0, FACE: face === 'cw' ? 1 : 0, PROVOKING_VTX_LAST: st.provokingLast ? 1 : 0, MULTI_PRIM_IB_ENA: restart ? 1 : 0 });
  b.setContextReg('PA_SU_SC_MODE_CNTL', suMode(false));
  b.setContextReg('PA_SU_VTX_CNTL', E('PA_SU_VTX_CNTL', { PIX_CENTER: 1, ROUND_MODE: 2, QUANT_MODE: 5 }));
  for (const [r, v] of Object.entries(standardMsaaRegisters('gfx11', samples as 1 | 2 | 4 | 8 | 16))) b.setReg(r, v);
  b.setContextReg('PA_SC_AA_MASK_X0Y0_X1Y0', 0xffffffff, 0xffffffff);
  // CB.
  b.setContextReg('CB_COLOR_CONTROL', E('CB_COLOR_CONTROL', { MODE: targets.length ? 'CB_NORMAL' : 'CB_DISABLE', ROP3: 0xcc }));
  let tmask = 0;
  const blends = arr(st.blend ?? [], 'state.blend');
  targets.forEach((t, i) => {
    const cf = COLOR_FORMATS[t.format];
    b.setContextReg(`CB_COLOR${i}_BASE`, Math.floor(t.va / 256) % 0x1_0000_0000 >>> 0);
    b.setContextReg(`CB_COLOR${i}_BASE_EXT`, Math.floor(t.va / 2 ** 40) & 0xff);
    b.setContextReg(`CB_COLOR${i}_INFO`, E('CB_COLOR0_INFO', { FORMAT: cf.format, NUMBER_TYPE: cf.number, COMP_SWAP: 'SWAP_STD' }));
    b.setContextReg(`CB_COLOR${i}_ATTRIB`, E('CB_COLOR0_ATTRIB', { NUM_FRAGMENTS: Math.min(3, Math.log2(samples)) }));
    b.setContextReg(`CB_COLOR${i}_ATTRIB2`, E('CB_COLOR0_ATTRIB2', { MIP0_WIDTH: width - 1, MIP0_HEIGHT: height - 1 }));
    tmask |= (cf.channels === 4 ? 15 : 1) << (4 * i);
    const bj = blends[i] === undefined ? {} : obj(blends[i], `state.blend[${i}]`);
    if (bj.enable) {
      const g = (k: string, d: string): string => str(bj[k] ?? d, `state.blend[${i}].${k}`);
      try {
        b.setContextReg(`CB_BLEND${i}_CONTROL`, E('CB_BLEND0_CONTROL', {
          ENABLE: 1, COLOR_SRCBLEND: g('colorSrc', 'BLEND_ONE'), COLOR_DESTBLEND: g('colorDst', 'BLEND_ZERO'), COLOR_COMB_FCN: g('colorFn', 'COMB_DST_PLUS_SRC'),
          SEPARATE_ALPHA_BLEND: 1, ALPHA_SRCBLEND: g('alphaSrc', g('colorSrc', 'BLEND_ONE')), ALPHA_DESTBLEND: g('alphaDst', g('colorDst', 'BLEND_ZERO')), ALPHA_COMB_FCN: g('alphaFn', g('colorFn', 'COMB_DST_PLUS_SRC')),
        }));
      } catch (e) { err(`state.blend[${i}]`, (e as Error).message); }
    }
  });
  b.setContextReg('CB_TARGET_MASK', tmask >>> 0, tmask >>> 0);
  if (st.blendConstant !== undefined) b.setContextReg('CB_BLEND_RED', ...arr(st.blendConstant, 'state.blendConstant').map((x, i) => f32bits(num(x, `state.blendConstant[${i}]`))));
  // DB. Without a depth target a driver still programs the null surface's sample count when the PS
  // came with its config (RADV does on GFX11: POPS takes the coverage sample count from DB_Z_INFO.NUM_SAMPLES).
  if (!depth && pcfg && gen === 'gfx11') b.setContextReg('DB_Z_INFO', E('DB_Z_INFO', { FORMAT: 'Z_INVALID', NUM_SAMPLES: Math.min(3, Math.log2(samples)) }));
  if (depth) {
    const dtest = st.depthFunc === undefined ? 'FRAG_LESS' : str(st.depthFunc, 'state.depthFunc');
    b.setContextReg('DB_Z_INFO', E('DB_Z_INFO', { FORMAT: depth.format, NUM_SAMPLES: Math.min(3, Math.log2(samples)) }));
    b.setContextReg('DB_Z_READ_BASE', Math.floor(depth.va / 256) >>> 0);
    b.setContextReg('DB_Z_WRITE_BASE', Math.floor(depth.va / 256) >>> 0);
    const sva = depth.va + width * height * samples * (depth.format === 'Z_16' ? 2 : 4);
    const stj = st.stencil === undefined ? null : obj(st.stencil, 'state.stencil');
    b.setContextReg('DB_STENCIL_INFO', E('DB_STENCIL_INFO', { FORMAT: stj ? 'STENCIL_8' : 'STENCIL_INVALID' }));
    b.setContextReg('DB_STENCIL_READ_BASE', Math.floor(sva / 256) >>> 0);
    b.setContextReg('DB_STENCIL_WRITE_BASE', Math.floor(sva / 256) >>> 0);
    const sizeReg = gen === 'gfx9' ? 'DB_DEPTH_SIZE' : 'DB_DEPTH_SIZE_XY';
    b.setContextReg(sizeReg, E(sizeReg, { X_MAX: width - 1, Y_MAX: height - 1 }));
    try {
      b.setContextReg('DB_DEPTH_CONTROL', E('DB_DEPTH_CONTROL', { Z_ENABLE: 1, Z_WRITE_ENABLE: st.depthWrite === false ? 0 : 1, ZFUNC: dtest, STENCIL_ENABLE: stj ? 1 : 0, STENCILFUNC: stj ? str(stj.func ?? 'FRAG_ALWAYS', 'state.stencil.func') : 'FRAG_NEVER' }));
      if (stj) {
        b.setContextReg('DB_STENCIL_CONTROL', E('DB_STENCIL_CONTROL', { STENCILFAIL: str(stj.fail ?? 'STENCIL_KEEP', 'state.stencil.fail'), STENCILZPASS: str(stj.pass ?? 'STENCIL_KEEP', 'state.stencil.pass'), STENCILZFAIL: str(stj.depthFail ?? 'STENCIL_KEEP', 'state.stencil.depthFail') }));
        b.setContextReg('DB_STENCILREFMASK', E('DB_STENCILREFMASK', { STENCILTESTVAL: int(stj.ref ?? 0, 'state.stencil.ref', 0, 255), STENCILMASK: 0xff, STENCILWRITEMASK: 0xff, STENCILOPVAL: int(stj.ref ?? 0, 'state.stencil.ref', 0, 255) }));
      }
    } catch (e) { if (e instanceof InputError) throw e; err('state', (e as Error).message); }
    b.setContextReg('DB_SHADER_CONTROL', E('DB_SHADER_CONTROL', { Z_EXPORT_ENABLE: ps.j.depthExport ? 1 : 0 }));
  }
  // Register writes by name (state.registers, and draws[i].registers before that draw).
  const writeRegisters = (regs: unknown, f: string): void => {
    for (const [r, v] of Object.entries(obj(regs, f))) {
      if (!db.get(r)) err(`${f}.${r}`, `no such ${target} register`);
      b.setReg(r, int(v, `${f}.${r}`, 0, 0xffffffff));
    }
  };
  if (pcfg?.dbShaderControl !== undefined) {
    // The shader-derived DB_SHADER_CONTROL bits from the config, plus what the driver adds at draw time:
    // the POPS interlock granularity (per sample: log2 of the sample count, else 0; GFX11 also
    // OVERRIDE_INTRINSIC_RATE_ENABLE) and Z_EXPORT_ENABLE when the scene exports depth.
    let v = pcfg.dbShaderControl;
    if (pcfg.pops) {
      const rate = pcfg.popsPerSample ? Math.log2(samples) : 0;
      v |= gen === 'gfx11' ? E('DB_SHADER_CONTROL', { OVERRIDE_INTRINSIC_RATE_ENABLE: 1, OVERRIDE_INTRINSIC_RATE: rate }) : E('DB_SHADER_CONTROL', { POPS_OVERLAP_NUM_SAMPLES: rate });
    }
    if (ps.j.depthExport) v |= E('DB_SHADER_CONTROL', { Z_EXPORT_ENABLE: 1 });
    b.setContextReg('DB_SHADER_CONTROL', v >>> 0);
  }
  if (st.registers !== undefined) writeRegisters(st.registers, 'state.registers');

  // Draws. `occlusionQuery` brackets a draw with ZPASS dumps into a query block (one 16-byte slot
  // per render backend) while DB_COUNT_CONTROL counts; `predicate` makes a draw's packets
  // predicated on an earlier draw's query (SET_PREDICATION ZPASS).
  const rbs = Math.max(1, opts.renderBackends ?? DEFAULT_RENDER_BACKENDS);
  const queries = new Map<string, number>();
  const countOn = E('DB_COUNT_CONTROL', { PERFECT_ZPASS_COUNTS: 1, SAMPLE_RATE: Math.log2(samples), ZPASS_ENABLE: 1, SLICE_EVEN_ENABLE: 1, SLICE_ODD_ENABLE: 1 });
  arr(scene.draws ?? [], 'draws').forEach((d, i) => {
    const f = `draws[${i}]`;
    const o = obj(d, f);
    let query = -1;
    if (o.occlusionQuery !== undefined) {
      const qn = str(o.occlusionQuery, `${f}.occlusionQuery`);
      if (queries.has(qn)) err(`${f}.occlusionQuery`, `query '${qn}' already belongs to an earlier draw`);
      query = mem.alloc(16 * rbs, `query-${qn}`, 256).base;
      queries.set(qn, query);
    }
    let pred: { va: number; visible: boolean; wait: boolean } | null = null;
    if (o.predicate !== undefined) {
      const po = obj(o.predicate, `${f}.predicate`);
      const qn = str(po.query, `${f}.predicate.query`);
      const va = queries.get(qn) ?? err(`${f}.predicate.query`, `no earlier draw has occlusionQuery '${qn}'`);
      pred = { va, visible: bool(po.drawIfVisible ?? true, `${f}.predicate.drawIfVisible`), wait: bool(po.wait ?? true, `${f}.predicate.wait`) };
    }
    const topo = str(o.topology ?? 'DI_PT_TRILIST', `${f}.topology`);
    const pt = (DI_PT as Record<string, number>)[topo];
    if (pt === undefined) err(`${f}.topology`, `a DI_PT_* name such as DI_PT_TRILIST, DI_PT_TRISTRIP, DI_PT_TRIFAN, DI_PT_RECTLIST`);
    const count = int(o.count, `${f}.count`, 0, 1 << 20);
    if (o.registers !== undefined) writeRegisters(forTarget(obj(o.registers, `${f}.registers`), target, `${f}.registers`), `${f}.registers`);
    b.setUconfigReg('VGT_PRIMITIVE_TYPE', pt);
    b.numInstances(int(o.instances ?? 1, `${f}.instances`, 1, 65536));
    const restart = o.restart !== undefined;
    b.setContextReg('PA_SU_SC_MODE_CNTL', suMode(restart));
    if (gen === 'gfx9') b.setUconfigReg('VGT_MULTI_PRIM_IB_RESET_EN', restart ? 1 : 0);
    if (restart) b.setContextReg('VGT_MULTI_PRIM_IB_RESET_INDX', int(o.restart, `${f}.restart`, 0, 0xffffffff));
    if (query >= 0) b.setContextReg('DB_COUNT_CONTROL', countOn).zpassDump(query);
    if (pred) b.setPredication(1, pred.va, { drawVisible: pred.visible, noWait: !pred.wait });
    const drawPackets = (): void => {
      if (o.indices !== undefined) {
        const bn = str(o.indices, `${f}.indices`);
        const buf = buffers.get(bn) ?? err(`${f}.indices`, `no buffer '${bn}'`);
        if (buf.elem === 1 || buf.elem === 2 || buf.elem === 4) b.indexType(buf.elem === 2 ? 0 : buf.elem === 4 ? 1 : 2);
        b.indexBase(buf.va).indexBufferSize(buf.count);
        const first = int(o.first ?? 0, `${f}.first`, 0, buf.count);
        b.drawIndex2(buf.count, buf.va + first * buf.elem, count);
      } else b.drawIndexAuto(count);
    };
    if (pred) b.predicated(drawPackets).setPredication(0);
    else drawPackets();
    if (query >= 0) b.zpassDump(query + 8).setContextReg('DB_COUNT_CONTROL', 0);
  });
  const pm4 = b.finish();
  keys?.check();
  const pipe = new GfxPipeline(gen, mem, diag, codes, opts);
  const tl = opts.timeline;
  let drawIndex = 0;
  const onDraw = tl === undefined ? (rec: DrawRecord) => pipe.draw(rec) : (rec: DrawRecord) => {
    // On a timeline each draw packet spans the waves it ran.
    const t0 = pipe.now;
    pipe.draw(rec);
    tl.packet(`${rec.packet} (draw ${drawIndex++})`, t0, pipe.now, { offset: rec.offset, level: rec.level, count: rec.count, instances: rec.instanceCount });
  };
  const cp = new CommandProcessor({ gen, mem, diag, onDraw, zpassCounts: () => pipe.zpassCounts(), renderBackends: rbs });
  const ws = cp.run(pm4);
  const queryResults = new Map([...queries].map(([name, va]) => {
    const q = readZpassBlock(mem, va, rbs);
    return [name, { va, samples: q.ready ? q.samples : null }] as const;
  }));
  return { width, height, samples, targets, depth, mem, buffers: new Map([...buffers].map(([k, v]) => [k, v.va])), images, diag, stats: pipe.stats, pm4, codes, queries: queryResults, packets: ws.packets ?? cp.packets, pops: pipe.pops, popsCache: pipe.popsCache };
}

/** A driver's registers for one shader (RADV's config.json, see docs/amd-graphics.md). */
interface ShaderConfig {
  readonly rsrc1: number; readonly rsrc2: number; readonly rsrc3: number;
  readonly wave?: 32 | 64;
  readonly inputEna?: number; readonly inputAddr?: number;
  readonly dbShaderControl?: number; readonly colFormat?: number;
  readonly pops: boolean; readonly popsPerSample: boolean;
}

/**
 * `config`: a path (relative to the scene) of a RADV shader config JSON, or the same object inline:
 * rsrc1, rsrc2, rsrc3, spi_ps_input_ena, spi_ps_input_addr, and radv_shader_info_ps.{wave_size,
 * db_shader_control, spi_shader_col_format, pops, pops_is_per_sample}. Numbers or "0x..." strings.
 */
/**
 * An object of RADV's config.json: RADV writes more keys than a draw needs (SGPR counts, scratch,
 * float mode...), so its keys are not checked for misspellings as the scene's own are.
 */
function radvObj(v: unknown, field: string): Json {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) err(field, 'expected an object');
  return v as Json;
}

function shaderConfig(v: unknown, dir: string, f: string): ShaderConfig {
  let o: Json;
  if (typeof v === 'string') {
    let text: string;
    try { text = readFileSync(resolve(dir, v), 'utf8'); } catch (e) { return err(f, (e as Error).message); }
    try { o = radvObj(JSON.parse(text), f); } catch (e) { if (e instanceof InputError) throw e; return err(f, `not JSON: ${(e as Error).message}`); }
  } else o = radvObj(v, f);
  const u32 = (x: unknown, ff: string): number => {
    if (typeof x === 'string' && /^0x[0-9a-f]+$/i.test(x)) return int(Number(x), ff, 0, 0xffffffff);
    return int(x, ff, 0, 0xffffffff);
  };
  const opt = (x: unknown, ff: string): number | undefined => (x === undefined ? undefined : u32(x, ff));
  const info = o.radv_shader_info_ps === undefined ? {} : radvObj(o.radv_shader_info_ps, `${f}.radv_shader_info_ps`);
  const ws = info.wave_size ?? o.wave_size;
  if (ws !== undefined && ws !== 32 && ws !== 64) err(`${f}.wave_size`, '32 or 64');
  const isPs = o.spi_ps_input_ena !== undefined && u32(o.spi_ps_input_ena, `${f}.spi_ps_input_ena`) !== 0;
  return {
    rsrc1: u32(o.rsrc1, `${f}.rsrc1`), rsrc2: u32(o.rsrc2, `${f}.rsrc2`), rsrc3: u32(o.rsrc3 ?? 0, `${f}.rsrc3`),
    wave: isPs ? (ws as 32 | 64 | undefined) : undefined,
    inputEna: isPs ? u32(o.spi_ps_input_ena, `${f}.spi_ps_input_ena`) : undefined,
    inputAddr: isPs ? u32(o.spi_ps_input_addr ?? o.spi_ps_input_ena, `${f}.spi_ps_input_addr`) : undefined,
    dbShaderControl: isPs ? opt(info.db_shader_control, `${f}.radv_shader_info_ps.db_shader_control`) : undefined,
    colFormat: isPs ? opt(info.spi_shader_col_format, `${f}.radv_shader_info_ps.spi_shader_col_format`) : undefined,
    pops: isPs && !!info.pops, popsPerSample: isPs && !!info.pops_is_per_sample,
  };
}

function f16Bits(x: number): number {
  return f16bits(x);
}

function psInputBits(v: unknown, f: string): number {
  if (typeof v === 'number') return int(v, f, 0, 0xffff);
  let m = 0;
  arr(v, f).forEach((x, i) => {
    const n = str(x, `${f}[${i}]`);
    const e = PS_INPUTS.find((p) => p[1] === n);
    if (!e) err(`${f}[${i}]`, `a PS input name (${PS_INPUTS.map((p) => p[1]).join(', ')})`);
    m |= 1 << e[0];
  });
  return m;
}

/** Read a target back as RGBA floats per pixel, averaging its samples (the resolve for viewing). */
export function resolveTarget(r: SceneResult, t: SceneTarget): Float32Array {
  const out = new Float32Array(r.width * r.height * 4);
  const ns = r.samples;
  for (let p = 0; p < r.width * r.height; p++) {
    for (let s = 0; s < ns; s++) {
      const a = t.va + (p * ns + s) * t.bytes;
      for (let c = 0; c < 4; c++) {
        let v: number;
        if (t.format === 'R8G8B8A8_UNORM') v = r.mem.read8(a + c) / 255;
        else if (t.format === 'R16G16B16A16_FLOAT') v = f16(r.mem.read16(a + 2 * c));
        else v = c === 0 ? f32(r.mem.read32(a)) : c === 3 ? 1 : 0;
        out[p * 4 + c]! += v / ns;
      }
    }
  }
  return out;
}

/** Raw sample data of a target (what `--out` writes as .raw). */
export function targetBytes(r: SceneResult, t: SceneTarget): Uint8Array {
  return r.mem.readBytes(t.va, r.width * r.height * r.samples * t.bytes);
}
