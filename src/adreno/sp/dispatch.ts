/**
 * A compute dispatch on the SP, from an ir3-corpus manifest (shared/ir3-corpus/README.md):
 * load the shader, the const file and the buffers, run the preamble once, then every work-group
 * with its waves interleaved by a seeded scheduler (barriers respected), and compare the outputs
 * with `expect`.
 *
 * This slice drives the SP directly (no CP_LOAD_STATE6 / CP_EXEC_CS through src/adreno/cp) and
 * keeps buffers as IBO slots of plain bytes rather than GPU virtual memory.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Diagnostics } from '../../core/diagnostics.js';
import { InputError } from '../../core/errors.js';
import { parseJsonText } from '../../core/json.js';
import { mulberry32 } from '../../core/prng.js';
import { ELEM, compareBuffers, type ElemType } from '../../runtime/manifest.js';
import { gpuIdOf } from '../ir3/isa.js';
import { decodeShader, type Instr } from './decode.js';
import { bind, step, type SpContext } from './exec.js';
import { Wave } from './wave.js';
import { SyncChecker } from './check.js';

export interface Ir3Buffer {
  readonly name: string;
  readonly kind: 'ssbo' | 'ubo' | 'image';
  readonly type: ElemType;
  readonly count: number;
  readonly ibo?: number;
  readonly uboIndex?: number;
  readonly width?: number;
  readonly file?: string;
  readonly fill?: number;
}

export interface Ir3Manifest {
  readonly dir: string;
  readonly shader: string;
  readonly gpuId: number;
  readonly block: [number, number, number];
  readonly groups: [number, number, number];
  readonly waveSize: number;
  readonly localIdReg: number;
  readonly wgIdReg: number;
  readonly fullRegs: number;
  readonly halfRegs: number;
  readonly sharedSize: number;
  readonly constlen: number;
  readonly consts: Uint32Array;
  readonly buffers: Ir3Buffer[];
  readonly outputs: string[];
  readonly expect: Record<string, { file: string; ulp: number; abs?: number }>;
}

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
  const dir = dirname(resolve(path));
  if (typeof raw['shader'] !== 'string') fail('shader', 'must be a path');
  // a7xx manifests carry gpu_id 0 (they are identified by chip_id); then the name decides.
  const gpuId = typeof raw['gpu_id'] === 'number' && raw['gpu_id'] > 0 ? raw['gpu_id'] : gpuIdOf(String(raw['gpu'] ?? ''));
  if (gpuId === undefined) fail('gpu', 'must name the GPU (a630, a660, a730) when gpu_id is 0 or absent');
  const regs = raw['regs'];
  if (!isObj(regs)) fail('regs', 'must be an object');
  const constlen = raw['constlen'];
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
      ...(typeof b['width'] === 'number' ? { width: b['width'] } : {}),
      ...(typeof b['file'] === 'string' ? { file: resolve(dir, b['file']) } : {}),
    };
    if (kind !== 'ubo' && spec.ibo === undefined) fail(`buffers.${name}.ibo`, 'an ssbo/image needs its IBO slot');
    bufs.push(spec);
  }
  const expect: Ir3Manifest['expect'] = {};
  const re = raw['expect'] ?? {};
  if (!isObj(re)) fail('expect', 'must be an object');
  for (const [name, e] of Object.entries(re)) {
    if (!isObj(e) || typeof e['file'] !== 'string') fail(`expect.${name}`, 'must be {file, ulp, abs?}');
    expect[name] = { file: resolve(dir, e['file']), ulp: Number(e['ulp'] ?? 0), ...(typeof e['abs'] === 'number' ? { abs: e['abs'] } : {}) };
  }
  return {
    dir,
    shader: resolve(dir, raw['shader']),
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
    outputs: Array.isArray(raw['outputs']) ? raw['outputs'].map(String) : [],
    expect,
  };
}

export interface DispatchOptions {
  readonly seed?: number;
  readonly order?: 'inorder' | 'random';
  /** Instruction budget per wave (runaway loops). */
  readonly budget?: number;
  readonly diag?: Diagnostics;
  /** Shader words to run instead of the manifest's file (tests, assembled code). */
  readonly words?: Uint32Array;
  /** Run the rule checks (check.ts); default true. */
  readonly check?: boolean;
}

export interface DispatchResult {
  readonly buffers: Map<string, Uint8Array>;
  readonly diag: Diagnostics;
  readonly code: Instr[];
  readonly missing: string[];
  readonly waves: number;
  readonly instructions: number;
}

function loadFile(path: string, what: string): Uint8Array {
  try {
    return new Uint8Array(readFileSync(path));
  } catch (e) {
    throw new InputError(`ir3 manifest: ${what}: cannot read ${path}: ${(e as Error).message}`);
  }
}

/** Run the manifest's dispatch. Throws InputError for unimplemented opcodes or bad input. */
export function runIr3Dispatch(m: Ir3Manifest, opts: DispatchOptions = {}): DispatchResult {
  let words = opts.words;
  if (!words) {
    const bin = loadFile(m.shader, 'shader');
    if (bin.length % 8) throw new InputError(`ir3: ${m.shader}: ${bin.length} bytes is not a whole number of instructions`);
    words = new Uint32Array(bin.buffer, bin.byteOffset, bin.length / 4).slice();
  }
  const code = decodeShader(words, m.gpuId);
  const missing = bind(code);
  if (missing.length) throw new InputError(`ir3: not implemented: ${missing.join(' ')}`);
  const diag = opts.diag ?? new Diagnostics();
  const buffers = new Map<string, Uint8Array>();
  const ibo: SpContext['ibo'] = [];
  const ubo: SpContext['ubo'] = [];
  for (const b of m.buffers) {
    const size = b.count * ELEM[b.type].bytes;
    const bytes = new Uint8Array(size);
    if (b.file) bytes.set(loadFile(b.file, `buffers.${b.name}.file`).subarray(0, size));
    buffers.set(b.name, bytes);
    if (b.kind === 'ubo' && b.uboIndex !== undefined) ubo[b.uboIndex] = new DataView(bytes.buffer);
    if (b.ibo !== undefined) ibo[b.ibo] = { data: new DataView(bytes.buffer), pitch: b.kind === 'image' ? (b.width ?? 0) * 4 : 0 };
  }
  const ctx: SpContext = {
    consts: m.consts.slice(),
    ibo,
    ubo,
    shared: new DataView(new ArrayBuffer(Math.max(m.sharedSize, 0))),
    diag,
    maxReg: m.fullRegs,
    maxHalf: m.halfRegs,
    barGen: 0,
  };
  const budget = opts.budget ?? 1 << 22;
  const rng = mulberry32(opts.seed ?? 1);
  const random = opts.order === 'random';
  let instructions = 0;

  // The preamble (shps ... shpe) runs once per dispatch, on one fiber, before any wave.
  if (code[0]?.name === 'shps') {
    const w = new Wave(1, -1, -1);
    w.pc[0] = 1;
    for (let n = 0; ; n++) {
      const pc = w.select();
      if (pc < 0 || pc >= code.length) break;
      const i = code[pc]!;
      if (i.name === 'shpe' || pc >= code[0]!.target) break;
      step(w, i, ctx);
      if (n > budget) throw new InputError('ir3: preamble exceeds the instruction budget');
    }
    instructions += w.issued;
  }

  const [bx, by, bz] = m.block;
  const [gx, gy, gz] = m.groups;
  const lanesPerWg = bx * by * bz;
  const nWaves = Math.ceil(lanesPerWg / m.waveSize);
  const order: number[] = [];
  for (let g = 0; g < gx * gy * gz; g++) order.push(g);
  if (random)
    for (let k = order.length - 1; k > 0; k--) {
      const j = Math.floor(rng() * (k + 1));
      [order[k], order[j]] = [order[j]!, order[k]!];
    }
  const checker = opts.check === false ? undefined : new SyncChecker(diag, m.fullRegs, ctx.consts.length);
  let waveCount = 0;
  for (const g of order) {
    const wgx = g % gx;
    const wgy = Math.floor(g / gx) % gy;
    const wgz = Math.floor(g / (gx * gy));
    if (m.sharedSize) new Uint8Array(ctx.shared.buffer).fill(0);
    const waves: Wave[] = [];
    for (let k = 0; k < nWaves; k++) {
      const w = new Wave(m.waveSize, g, waveCount++);
      const L = w.lanes;
      for (let l = 0; l < L; l++) {
        const t = k * L + l;
        if (t >= lanesPerWg) continue;
        w.pc[l] = 0;
        const lx = t % bx;
        const ly = Math.floor(t / bx) % by;
        const lz = Math.floor(t / (bx * by));
        // HLSQ preloads: LOCALIDREGID (x,y,z) and the work-group id (x,y,z).
        const li = m.localIdReg;
        w.regs[li * L + l] = lx;
        w.regs[(li + 1) * L + l] = ly;
        w.regs[(li + 2) * L + l] = lz;
        const wi = m.wgIdReg;
        w.regs[wi * L + l] = wgx;
        w.regs[(wi + 1) * L + l] = wgy;
        w.regs[(wi + 2) * L + l] = wgz;
      }
      waves.push(w);
    }
    runWorkgroup(waves, code, ctx, random ? rng : undefined, budget, checker);
    for (const w of waves) instructions += w.issued;
  }
  return { buffers, diag, code, missing, waves: waveCount, instructions };
}

/**
 * Interleave the waves of one work-group: each turn one runnable wave issues a run of
 * instructions (in order: a fixed round robin of 1..8; random: the wave and the run length come
 * from the seed). `bar` parks a wave until every live wave of the group arrived.
 */
function runWorkgroup(waves: Wave[], code: Instr[], ctx: SpContext, rng: (() => number) | undefined, budget: number, checker: SyncChecker | undefined): void {
  let live = waves.length;
  let arrived = 0;
  let turn = 0;
  const runnable: Wave[] = [];
  while (live > 0) {
    runnable.length = 0;
    for (const w of waves) if (!w.done && w.barWait < 0) runnable.push(w);
    if (runnable.length === 0) {
      // Everyone live is at the barrier: release.
      if (arrived > 0) {
        for (const w of waves) w.barWait = -1;
        arrived = 0;
        ctx.barGen++;
        continue;
      }
      break;
    }
    const w = rng ? runnable[Math.floor(rng() * runnable.length)]! : runnable[turn++ % runnable.length]!;
    const run = rng ? 1 + Math.floor(rng() * 8) : 4;
    for (let n = 0; n < run; n++) {
      const pc = w.select();
      if (pc < 0 || pc >= code.length) {
        w.done = true;
        live--;
        break;
      }
      const i = code[pc]!;
      checker?.before(w, i);
      step(w, i, ctx);
      checker?.after(w, i);
      if (w.issued > budget) throw new InputError(`ir3: wave ${w.id} exceeds the instruction budget (${budget}) at pc ${pc}: a runaway loop?`);
      if (i.name === 'bar') {
        w.barWait = ctx.barGen;
        arrived++;
        break;
      }
    }
    if (!w.done && w.barWait < 0 && w.select() < 0) {
      w.done = true;
      live--;
    }
  }
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
