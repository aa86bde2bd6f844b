/**
 * A compute dispatch on the SP, from an ir3-corpus manifest (shared/ir3-corpus/README.md):
 * load the shader, the const file and the buffers, run the preamble once, then every work-group
 * with its waves interleaved by a seeded scheduler (barriers respected), and compare the outputs
 * with `expect`.
 *
 * The dispatch goes through the command processor: driver.ts lays the buffers out in GPU memory
 * and builds the stream freedreno would (CP_LOAD_STATE6_FRAG, SP_CS_* / HLSQ_CS_*, CP_EXEC_CS);
 * the CP executes it and its CP_EXEC_CS handler runs the SP (compute.ts) from that state.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Diagnostics } from '../../core/diagnostics.js';
import { InputError } from '../../core/errors.js';
import { parseJsonText } from '../../core/json.js';
import { unknownKeyMessage } from '../../core/keys.js';
import { ELEM, compareBuffers, type ElemType } from '../../core/elements.js';
import { gpuIdOf } from '../ir3/isa.js';
import { assembleIr3 } from '../ir3/asm.js';
import { decodeShader, type Instr } from './decode.js';
import { bind } from './exec.js';
import { CommandProcessor } from '../cp/cp.js';
import type { ComputeJob, ComputeOptions } from './compute.js';
import { buildDispatch, type BuildOptions, type BuiltDispatch } from './driver.js';
import type { Ir3Buffer, Ir3Manifest, Ir3Sampler, Ir3Texture } from './manifest.js';
import { texFormatBytes } from './tex.js';

export type { Ir3Buffer, Ir3Manifest, Ir3Sampler, Ir3Texture } from './manifest.js';

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function fail(field: string, msg: string): never {
  throw new InputError(`ir3 manifest: ${field}: ${msg}`);
}

/** `r48.x` -> component index 192. */
export function regComp(s: unknown, field: string): number {
  const m = typeof s === 'string' ? /^r(\d+)\.([xyzw])$/.exec(s) : null;
  if (!m) fail(field, `must be a register like "r0.x", got ${JSON.stringify(s)}`);
  return parseInt(m[1]!, 10) * 4 + 'xyzw'.indexOf(m[2]!);
}

/**
 * The keys each manifest object may carry: the ones this reader uses, plus the corpus README's
 * informational ones (disasm, glsl, chip_id, grid, const_regions, uniforms, binding, ...).
 */
const KEYS = {
  top: ['shader', 'disasm', 'meta', 'glsl', 'gpu', 'gpu_id', 'chip_id', 'block', 'groups', 'grid', 'wave_size', 'regs', 'shared_size', 'constlen', 'consts', 'const_regions', 'uniforms', 'buffers', 'textures', 'samplers', 'outputs', 'expect'],
  regs: ['full', 'half', 'mergedregs', 'local_invocation_id', 'workgroup_id'],
  buffer: ['kind', 'binding', 'type', 'count', 'ibo', 'ubo_index', 'tex', 'width', 'height', 'format', 'layout', 'file'],
  expect: ['file', 'ulp', 'abs'],
  texture: ['slot', 'format', 'type', 'width', 'height', 'depth', 'layout', 'file'],
  sampler: ['slot', 'filter', 'wrap', 'unnorm', 'border'],
} as const;

/** Reject a key of `o` not in `allowed`, naming the closest allowed one. */
function knownKeys(o: Record<string, unknown>, allowed: readonly string[], field: string): void {
  const msg = unknownKeyMessage(o, allowed);
  if (msg) fail(field, msg);
}

const vec3 = (v: unknown, field: string): [number, number, number] => {
  if (!Array.isArray(v) || v.length < 1 || v.length > 3 || !v.every((x) => Number.isInteger(x) && x >= 1)) fail(field, 'must be 1 to 3 positive integers');
  return [v[0], v[1] ?? 1, v[2] ?? 1];
};

export function readIr3Manifest(path: string): Ir3Manifest {
  let raw: unknown;
  try {
    raw = parseJsonText(readFileSync(path, 'utf8'), undefined, 'ir3 manifest JSON');
  } catch (e) {
    throw new InputError(`ir3 manifest: ${path}: ${(e as Error).message}`);
  }
  if (!isObj(raw)) fail('(top)', 'must be an object');
  knownKeys(raw, KEYS.top, '(top)');
  const dir = dirname(resolve(path));
  if (typeof raw['shader'] !== 'string') fail('shader', 'must be a path');
  // a7xx manifests carry gpu_id 0 (they are identified by chip_id); then the name decides.
  const gpuId = typeof raw['gpu_id'] === 'number' && raw['gpu_id'] > 0 ? raw['gpu_id'] : gpuIdOf(String(raw['gpu'] ?? ''));
  if (gpuId === undefined) fail('gpu', 'must name the GPU (a630, a660, a730) when gpu_id is 0 or absent');
  // Hand-written kernels may leave out regs (r0.x / r48.x preloads, 48 full registers) and
  // constlen (enough vec4s for `consts`).
  const regs = raw['regs'] ?? {};
  if (!isObj(regs)) fail('regs', 'must be an object');
  knownKeys(regs, KEYS.regs, 'regs');
  const constlen = raw['constlen'] ?? Math.ceil((Array.isArray(raw['consts']) ? raw['consts'].length : 0) / 4);
  if (typeof constlen !== 'number' || constlen < 0) fail('constlen', 'must be a non-negative number');
  const consts = new Uint32Array(constlen * 4);
  const rc = raw['consts'] ?? [];
  if (!Array.isArray(rc)) fail('consts', 'must be an array of hex strings');
  rc.forEach((v, k) => {
    if (k >= consts.length) return;
    const n = typeof v === 'string' ? Number(v) : v;
    if (typeof n !== 'number' || !Number.isFinite(n)) fail(`consts[${k}]`, 'must be a number or "0x..." string');
    consts[k] = n >>> 0;
  });
  const bufs: Ir3Buffer[] = [];
  const rb = raw['buffers'] ?? {};
  if (!isObj(rb)) fail('buffers', 'must be an object');
  for (const [name, b] of Object.entries(rb)) {
    if (!isObj(b)) fail(`buffers.${name}`, 'must be an object');
    knownKeys(b, KEYS.buffer, `buffers.${name}`);
    const kind = b['kind'];
    if (kind !== 'ssbo' && kind !== 'ubo' && kind !== 'image') fail(`buffers.${name}.kind`, 'must be ssbo, ubo or image');
    let type = String(b['type'] ?? 'u32');
    if (type === 's32') type = 'i32';
    if (!(type in ELEM)) fail(`buffers.${name}.type`, `unknown type ${type}`);
    const count = b['count'];
    if (typeof count !== 'number' || count < 0) fail(`buffers.${name}.count`, 'must be a count');
    const spec: Ir3Buffer = {
      name,
      kind,
      type: type as ElemType,
      count,
      ...(typeof b['ibo'] === 'number' ? { ibo: b['ibo'] } : {}),
      ...(typeof b['ubo_index'] === 'number' ? { uboIndex: b['ubo_index'] } : {}),
      ...(typeof b['tex'] === 'number' ? { tex: b['tex'] } : {}),
      ...(typeof b['width'] === 'number' ? { width: b['width'] } : {}),
      ...(typeof b['file'] === 'string' ? { file: resolve(dir, b['file']) } : {}),
    };
    if (kind !== 'ubo' && spec.ibo === undefined && spec.tex === undefined) fail(`buffers.${name}.ibo`, 'an ssbo/image needs its IBO slot');
    bufs.push(spec);
  }
  const textures = readTextures(raw['textures'], dir, bufs);
  const samplers = readSamplers(raw['samplers']);
  const expect: Ir3Manifest['expect'] = {};
  const re = raw['expect'] ?? {};
  if (!isObj(re)) fail('expect', 'must be an object');
  for (const [name, e] of Object.entries(re)) {
    if (!isObj(e) || typeof e['file'] !== 'string') fail(`expect.${name}`, 'must be {file, ulp, abs?}');
    knownKeys(e, KEYS.expect, `expect.${name}`);
    expect[name] = { file: resolve(dir, e['file']), ulp: Number(e['ulp'] ?? 0), ...(typeof e['abs'] === 'number' ? { abs: e['abs'] } : {}) };
  }
  return {
    dir,
    shader: resolve(dir, raw['shader']),
    ...(typeof raw['meta'] === 'string' ? { meta: resolve(dir, raw['meta']) } : {}),
    gpuId,
    block: vec3(raw['block'], 'block'),
    groups: vec3(raw['groups'], 'groups'),
    waveSize: raw['wave_size'] === 128 ? 128 : 64,
    localIdReg: regComp(regs['local_invocation_id'] ?? 'r0.x', 'regs.local_invocation_id'),
    wgIdReg: regComp(regs['workgroup_id'] ?? 'r48.x', 'regs.workgroup_id'),
    fullRegs: Number(regs['full'] ?? 48),
    halfRegs: Number(regs['half'] ?? 0),
    sharedSize: Number(raw['shared_size'] ?? 0),
    constlen,
    consts,
    buffers: bufs,
    ...(textures.length ? { textures } : {}),
    ...(samplers.length ? { samplers } : {}),
    outputs: Array.isArray(raw['outputs']) ? raw['outputs'].map(String) : [],
    expect,
  };
}

const TEX_TYPES = ['1d', '2d', '2d_array', '3d', 'cube'] as const;
const WRAPS = ['repeat', 'clamp_to_edge', 'mirror_repeat', 'clamp_to_border', 'mirror_clamp'] as const;
const posInt = (v: unknown, field: string, def?: number): number => {
  const n = v === undefined ? def : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 16384) fail(field, 'must be an integer 1..16384');
  return n;
};
const slotOf = (v: unknown, field: string, used: Set<number>): number => {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 127) fail(field, 'must be a slot 0..127');
  if (used.has(v)) fail(field, `slot ${v} is bound twice`);
  used.add(v);
  return v;
};

/** `textures`: [{slot, format, type, width, height, depth, layout, file}] laid out by the driver. */
function readTextures(v: unknown, dir: string, bufs: readonly Ir3Buffer[]): Ir3Texture[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) fail('textures', 'must be an array');
  const used = new Set<number>(bufs.flatMap((b) => (b.tex === undefined ? [] : [b.tex])));
  return v.map((t, k) => {
    const f = `textures[${k}]`;
    if (!isObj(t)) fail(f, 'must be an object');
    knownKeys(t, KEYS.texture, f);
    const format = String(t['format'] ?? '');
    if (!texFormatBytes(format)) fail(`${f}.format`, `${JSON.stringify(format)} is not a texture format the SP reads (FMT6_* UNORM/SNORM/UINT/SINT/FLOAT)`);
    const type = String(t['type'] ?? '2d');
    if (!(TEX_TYPES as readonly string[]).includes(type)) fail(`${f}.type`, `must be one of ${TEX_TYPES.join(', ')}`);
    const layout = String(t['layout'] ?? 'linear');
    if (layout !== 'linear' && layout !== 'tile6_3') fail(`${f}.layout`, 'must be linear or tile6_3');
    const width = posInt(t['width'], `${f}.width`);
    const height = type === '1d' ? 1 : posInt(t['height'], `${f}.height`, 1);
    if (type === 'cube' && width !== height) fail(`${f}.height`, 'a cube face is square');
    return {
      slot: slotOf(t['slot'], `${f}.slot`, used),
      format,
      type: type as Ir3Texture['type'],
      width,
      height,
      depth: posInt(t['depth'], `${f}.depth`, 1),
      layout,
      ...(typeof t['file'] === 'string' ? { file: resolve(dir, t['file']) } : {}),
    };
  });
}

/** `samplers`: [{slot, filter, wrap, unnorm, border}]. */
function readSamplers(v: unknown): Ir3Sampler[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) fail('samplers', 'must be an array');
  const used = new Set<number>();
  return v.map((s, k) => {
    const f = `samplers[${k}]`;
    if (!isObj(s)) fail(f, 'must be an object');
    knownKeys(s, KEYS.sampler, f);
    const filter = String(s['filter'] ?? 'nearest');
    if (filter !== 'nearest' && filter !== 'linear') fail(`${f}.filter`, 'must be nearest or linear');
    const wrap = String(s['wrap'] ?? 'clamp_to_edge');
    if (!(WRAPS as readonly string[]).includes(wrap)) fail(`${f}.wrap`, `must be one of ${WRAPS.join(', ')}`);
    const b = s['border'] ?? [0, 0, 0, 0];
    if (!Array.isArray(b) || b.length !== 4 || !b.every((x) => typeof x === 'number')) fail(`${f}.border`, 'must be 4 numbers');
    return { slot: slotOf(s['slot'], `${f}.slot`, used), filter, wrap: wrap as Ir3Sampler['wrap'], unnorm: s['unnorm'] === true, border: b as [number, number, number, number] };
  });
}

export interface DispatchOptions extends ComputeOptions {
  readonly diag?: Diagnostics;
  /** Shader words to run instead of the manifest's file (tests, assembled code). */
  readonly words?: Uint32Array;
  /** More state programmed before the grid (driver.ts BuildOptions.state). */
  readonly state?: BuildOptions['state'];
  /** Called with the built stream and memory before the CP runs it (e.g. to write an .rd). */
  readonly onBuilt?: (b: BuiltDispatch) => void;
}

export interface DispatchResult {
  readonly buffers: Map<string, Uint8Array>;
  readonly diag: Diagnostics;
  readonly code: Instr[];
  readonly missing: string[];
  readonly waves: number;
  readonly instructions: number;
  readonly fiberInstructions: number;
  /** What CP_EXEC_CS handed the SP. */
  readonly job: ComputeJob;
  /** The command stream that ran, its memory and the CP that ran it. */
  readonly built: BuiltDispatch;
  readonly cp: CommandProcessor;
}

/** A manifest's `shader` naming ir3 assembly (`.s`, `.asm`, `.ir3`) rather than a binary. */
export function isIr3Source(path: string): boolean {
  return /\.(s|asm|ir3)$/i.test(path);
}

function loadFile(path: string, what: string): Uint8Array {
  try {
    return new Uint8Array(readFileSync(path));
  } catch (e) {
    throw new InputError(`ir3 manifest: ${what}: cannot read ${path}: ${(e as Error).message}`);
  }
}

/** The variant's instrlen and branchstack from the manifest's meta.json, when it has one. */
function variantMeta(m: Ir3Manifest): { instrlen?: number; branchstack?: number } {
  if (!m.meta) return {};
  try {
    const j = JSON.parse(readFileSync(m.meta, 'utf8')) as Record<string, unknown>;
    return {
      ...(typeof j['instrlen'] === 'number' ? { instrlen: j['instrlen'] } : {}),
      ...(typeof j['branchstack'] === 'number' ? { branchstack: j['branchstack'] } : {}),
    };
  } catch {
    return {};
  }
}

/**
 * Run the manifest's dispatch the way the driver does: memory and an a6xx/a7xx command stream
 * (driver.ts), executed by the CP, whose CP_EXEC_CS runs the SP from the programmed state.
 * Throws InputError for unimplemented opcodes or bad input.
 */
export function runIr3Dispatch(m: Ir3Manifest, opts: DispatchOptions = {}): DispatchResult {
  let words = opts.words;
  if (!words && isIr3Source(m.shader)) {
    const text = new TextDecoder().decode(loadFile(m.shader, 'shader'));
    try {
      words = assembleIr3(text, { gpuId: m.gpuId }, m.shader);
    } catch (e) {
      throw new InputError(`ir3 manifest: shader: ${m.shader}: ${(e as Error).message.split('\n')[0]}`);
    }
  }
  if (!words) {
    const bin = loadFile(m.shader, 'shader');
    if (bin.length % 8) throw new InputError(`ir3: ${m.shader}: ${bin.length} bytes is not a whole number of instructions`);
    words = new Uint32Array(bin.buffer, bin.byteOffset, bin.length / 4).slice();
  }
  const code = decodeShader(words, m.gpuId);
  const missing = bind(code);
  if (missing.length) throw new InputError(`ir3: not implemented: ${missing.join(' ')}`);
  const diag = opts.diag ?? new Diagnostics();
  const init = new Map<string, Uint8Array>();
  for (const b of m.buffers) if (b.file) init.set(b.name, loadFile(b.file, `buffers.${b.name}.file`));
  (m.textures ?? []).forEach((t, k) => {
    if (t.file) init.set(`texture ${t.slot}`, loadFile(t.file, `textures[${k}].file`));
  });
  const meta = opts.words || isIr3Source(m.shader) ? {} : variantMeta(m);
  const built = buildDispatch(m, words, init, { ...meta, ...(opts.state ? { state: opts.state } : {}) });
  opts.onBuilt?.(built);
  const cp = new CommandProcessor(built.mem, {
    gen: built.gen,
    gpuId: m.gpuId,
    diag,
    snapshots: false,
    computeErrors: 'throw',
    compute: { ...(opts.seed !== undefined ? { seed: opts.seed } : {}), ...(opts.order ? { order: opts.order } : {}), ...(opts.budget !== undefined ? { budget: opts.budget } : {}), ...(opts.check !== undefined ? { check: opts.check } : {}) },
  });
  cp.run(built.streamIova, built.stream.length, 1);
  const runs = cp.computeRuns;
  if (runs.length !== 1 || !runs[0]!.ran) throw new InputError(`ir3: the built stream did not run its dispatch: ${runs.map((r) => r.missing.join('; ')).join(' | ') || cp.stopped}`);
  const buffers = new Map<string, Uint8Array>();
  for (const b of m.buffers) buffers.set(b.name, built.buffers.get(b.name)!.u8.slice(0, b.count * ELEM[b.type].bytes));
  return { buffers, diag, code, missing, waves: runs[0]!.waves, instructions: runs[0]!.instructions, fiberInstructions: runs[0]!.fiberInstructions, job: runs[0]!.job!, built, cp };
}

export interface CheckLine {
  readonly name: string;
  readonly pass: boolean;
  readonly mismatches: number;
  readonly detail: string;
}

/** Compare outputs to `expect` (integers exactly; floats within ulp or abs). */
export function checkIr3(m: Ir3Manifest, buffers: Map<string, Uint8Array>): CheckLine[] {
  const out: CheckLine[] = [];
  for (const [name, e] of Object.entries(m.expect)) {
    const spec = m.buffers.find((b) => b.name === name);
    const got = buffers.get(name);
    if (!spec || !got) throw new InputError(`ir3 manifest: expect.${name}: no such buffer`);
    const want = loadFile(e.file, `expect.${name}.file`);
    let { count, first } = compareBuffers(spec.type, got, want, e.ulp, 1 << 30);
    if (e.abs !== undefined && spec.type === 'f32') {
      const dg = new DataView(got.buffer, got.byteOffset, got.length);
      const dw = new DataView(want.buffer, want.byteOffset, want.length);
      first = first.filter((mm) => mm.index * 4 + 4 > Math.min(got.length, want.length) || Math.abs(dg.getFloat32(mm.index * 4, true) - dw.getFloat32(mm.index * 4, true)) > e.abs!);
      count = first.length;
    }
    const f = first[0];
    out.push({ name, pass: count === 0, mismatches: count, detail: f ? `[${f.index}] got ${f.got} want ${f.want}${f.ulp !== undefined ? ` (${f.ulp} ulp)` : ''}` : '' });
  }
  return out;
}
