/**
 * The run manifest: the architecture-neutral description of one kernel launch that `gpusim run`
 * takes (code object, kernel, NDRange, buffers with their initial contents, arguments, outputs and
 * expectations). This format is a contract: keep it stable, extend it only with optional fields.
 *
 *   {
 *     "codeObject": "vadd.co",            path relative to the manifest; a `.s`/`.asm` file is
 *                                         assembled by gpusim (.amdhsa_kernel blocks, source.ts)
 *     "kernel": "vadd",                   optional when the code object has one kernel
 *     "grid":  [1048576, 1, 1],           work-items per axis (1 to 3 numbers)
 *     "block": [256, 1, 1],               work-group size per axis
 *     "buffers": {
 *       "a":   { "type": "f32", "count": 1048576, "init": { "random": { "seed": 1, "min": -1, "max": 1 } } },
 *       "b":   { "type": "f32", "count": 1048576, "init": { "fill": 0.5 } },
 *       "idx": { "type": "u32", "count": 4, "init": { "values": [1, 2, 3, 4] } },
 *       "raw": { "type": "u8", "file": "input.bin" },
 *       "c":   { "type": "f32", "count": 1048576 }
 *     },
 *     "args": ["a", "b", "c", { "i32": 1048576 }, { "local": 4096 }],
 *     "outputs": ["c"],
 *     "expect": { "c": { "file": "c.expected.bin", "ulp": 0 } }
 *   }
 *
 * Optional, r600-family objects only so far: "workDim": 1-3 (get_work_dim) and "globalOffset":
 * [x, y, z] (get_global_offset), both written where Mesa's OpenCL runtime puts them.
 *
 * Every validation error is one line naming the field (`buffers.a.type: ...`), raised as an
 * InputError so the CLI exits 2.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { InputError } from '../core/errors.js';
import { parseJsonText } from '../core/json.js';
import { mulberry32 } from '../core/prng.js';
import { f16bits } from '../core/float.js';
import { ELEM, ELEM_TYPES, readElem, type ElemType } from '../core/elements.js';
import { parseImages, parseSamplers, type ImageSpec, type SamplerSpec } from './images.js';
export { ELEM, ELEM_TYPES, compareBuffers, readElem, ulpDistance, type ElemInfo, type ElemType, type Mismatch } from '../core/elements.js';

/** A scalar value in a manifest: a number, or a string for NaN/±Infinity and exact 64-bit integers ("0x...", "-123"). */
export type ScalarValue = number | string;

export type BufferInit =
  | { readonly kind: 'zero' }
  /** `step` (optional, floats): draw from min + k*step only, so sums and products stay exact. */
  | { readonly kind: 'random'; readonly seed: number; readonly min: number; readonly max: number; readonly step?: number }
  | { readonly kind: 'fill'; readonly value: ScalarValue }
  | { readonly kind: 'values'; readonly values: readonly ScalarValue[] }
  | { readonly kind: 'file'; readonly path: string };

export interface BufferSpec {
  readonly name: string;
  readonly type: ElemType;
  /** Elements. */
  readonly count: number;
  readonly bytes: number;
  readonly init: BufferInit;
}

export type ArgSpec =
  | { readonly kind: 'buffer'; readonly name: string }
  /** The address of an image's T# or a sampler's S# (manifest `images` / `samplers`). */
  | { readonly kind: 'image'; readonly name: string }
  | { readonly kind: 'sampler'; readonly name: string }
  | { readonly kind: 'scalar'; readonly type: ElemType; readonly value: ScalarValue }
  | { readonly kind: 'local'; readonly bytes: number }
  /** Extension: a struct passed by value, its fields laid out at their natural alignment. */
  | { readonly kind: 'struct'; readonly fields: readonly { readonly type: ElemType; readonly value: ScalarValue }[] };

export interface ExpectSpec {
  /** Absolute path of the expected contents (raw little-endian elements of the buffer's type). */
  readonly file: string;
  /** Allowed distance in units in the last place for float buffers (integers compare exactly). */
  readonly ulp: number;
}

/** A trap handler for the waves (GFX11): machine code from an assembly file or raw bytes, TMA a buffer's address. */
export interface TrapHandlerSpec {
  readonly kind: 'asm' | 'code';
  /** Absolute path of the assembly source or the raw little-endian code. */
  readonly path: string;
  /** Buffer whose address becomes TMA (the handler's data; it reads it with s_sendmsg_rtn MSG_RTN_GET_TMA). */
  readonly tma: string | undefined;
}

export interface Manifest {
  /** Absolute path of the manifest (or '<inline>'), and the directory relative paths resolve against. */
  readonly path: string;
  readonly dir: string;
  readonly codeObject: string;
  readonly kernel: string | undefined;
  readonly grid: readonly [number, number, number];
  readonly block: readonly [number, number, number];
  readonly buffers: readonly BufferSpec[];
  readonly args: readonly ArgSpec[];
  readonly outputs: readonly string[];
  readonly expect: Readonly<Record<string, ExpectSpec>>;
  /** Optional: a user trap handler (STATUS.TRAP_EN set, TBA/TMA given to every wave). */
  readonly trapHandler?: TrapHandlerSpec;
  /** Optional, r600-family only: RAT surfaces bound to buffers (runtime/r600.ts reads the fields). */
  readonly rats?: readonly RatSpec[];
  /** Optional (gfx900/gfx1030/gfx11): images over buffers and samplers, passed to the kernel by name (runtime/images.ts). */
  readonly images?: readonly ImageSpec[];
  readonly samplers?: readonly SamplerSpec[];
  /** Optional, r600-family only so far: get_work_dim() (default: the highest axis of grid above 1). */
  readonly workDim?: number;
  /** Optional, r600-family only so far: the global work offset (get_global_offset), per axis. */
  readonly globalOffset?: readonly [number, number, number];
}

/** A RAT binding: RAT `id` on buffer `buffer`; the other fields (format, numberType...) are the r600 runner's. */
export interface RatSpec {
  readonly id: number;
  readonly buffer: string;
  readonly fields: Readonly<Record<string, string | number>>;
}

/** Top-level keys a manifest may have; extend with optional fields only. */
export const MANIFEST_KEYS = ['codeObject', 'kernel', 'grid', 'block', 'buffers', 'args', 'outputs', 'expect', 'description', 'trapHandler', 'rats', 'workDim', 'globalOffset', 'images', 'samplers'] as const;

/** Read and validate a manifest file. */
export function loadManifest(path: string): Manifest {
  const abs = resolve(path);
  let text: string;
  try {
    text = readFileSync(abs, 'utf8');
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    throw new InputError(err.code === 'ENOENT' ? 'no such file' : err.code === 'EISDIR' ? 'is a directory, not a manifest file' : err.message, path);
  }
  return parseManifest(parseJsonText(text, path), abs, dirname(abs));
}

/** Validate a parsed manifest object; relative paths resolve against `dir`. */
export function parseManifest(json: unknown, path = '<inline>', dir = process.cwd()): Manifest {
  const fail = (field: string, msg: string): never => {
    throw new InputError(`${field}: ${msg}`, path);
  };
  if (!isObj(json)) return fail('manifest', 'must be a JSON object');
  for (const k of Object.keys(json)) {
    if (!(MANIFEST_KEYS as readonly string[]).includes(k)) fail(k, `unknown field (expected ${MANIFEST_KEYS.join(', ')})`);
    // null is not "absent": `"args": null` is a mistake, not an empty list.
    if (json[k] === null) fail(k, 'is null (leave the field out, or give a value)');
  }
  const co = json.codeObject;
  if (typeof co !== 'string' || co === '') fail('codeObject', 'must be a non-empty path string');
  const kernel = json.kernel;
  if (kernel !== undefined && (typeof kernel !== 'string' || kernel === '')) fail('kernel', 'must be a kernel name string');
  const grid = dims(json.grid, 'grid', fail, true);
  const block = dims(json.block ?? [1, 1, 1], 'block', fail, false);

  const buffers: BufferSpec[] = [];
  const bufs = json.buffers ?? {};
  if (!isObj(bufs)) fail('buffers', 'must be an object of name -> buffer');
  for (const [name, b] of Object.entries(bufs as Record<string, unknown>)) {
    buffers.push(parseBuffer(name, b, dir, fail));
  }
  const byName = new Set(buffers.map((b) => b.name));
  const images = json.images === undefined ? undefined : parseImages(json.images, byName, fail);
  const imageNames = new Set((images ?? []).map((x) => x.name));
  const samplers = json.samplers === undefined ? undefined : parseSamplers(json.samplers, new Set([...byName, ...imageNames]), fail);
  const samplerNames = new Set((samplers ?? []).map((x) => x.name));

  const args: ArgSpec[] = [];
  const rawArgs = json.args ?? [];
  if (!Array.isArray(rawArgs)) fail('args', 'must be an array');
  (rawArgs as unknown[]).forEach((a, i) => {
    const f = `args[${i}]`;
    if (typeof a === 'string') {
      if (imageNames.has(a)) { args.push({ kind: 'image', name: a }); return; }
      if (samplerNames.has(a)) { args.push({ kind: 'sampler', name: a }); return; }
      if (!byName.has(a)) fail(f, `'${a}' is not a buffer (buffers: ${[...byName].join(', ') || 'none'})`);
      args.push({ kind: 'buffer', name: a });
      return;
    }
    if (!isObj(a)) return fail(f, 'must be a buffer name, {type: value} or {local: bytes}');
    const keys = Object.keys(a);
    if (keys.length !== 1) fail(f, `must have exactly one key (a type or "local"), has ${keys.length}`);
    const k = keys[0]!;
    const v = a[k];
    if (k === 'local') {
      if (!isCount(v) || v === 0) fail(`${f}.local`, 'must be a positive integer byte count');
      args.push({ kind: 'local', bytes: v as number });
      return;
    }
    if (k === 'struct') {
      if (!Array.isArray(v) || v.length === 0) return fail(`${f}.struct`, 'must be a non-empty array of {type: value} fields');
      const fields = v.map((x, j) => {
        const ff = `${f}.struct[${j}]`;
        if (!isObj(x) || Object.keys(x).length !== 1) return fail(ff, 'must be one {type: value}');
        const t = Object.keys(x)[0]!;
        if (!isElemType(t)) return fail(ff, `unknown type '${t}' (expected one of ${ELEM_TYPES.join(' ')})`);
        checkScalar(t, x[t], `${ff}.${t}`, fail);
        return { type: t, value: x[t] as ScalarValue };
      });
      args.push({ kind: 'struct', fields });
      return;
    }
    if (!isElemType(k)) return fail(f, `unknown argument type '${k}' (expected local, struct or one of ${ELEM_TYPES.join(' ')})`);
    checkScalar(k, v, `${f}.${k}`, fail);
    args.push({ kind: 'scalar', type: k, value: v as ScalarValue });
  });

  const outputs: string[] = [];
  const rawOut = json.outputs ?? [];
  if (!Array.isArray(rawOut)) fail('outputs', 'must be an array of buffer names');
  (rawOut as unknown[]).forEach((o, i) => {
    if (typeof o !== 'string' || !byName.has(o)) fail(`outputs[${i}]`, `${JSON.stringify(o)} is not a buffer`);
    outputs.push(o as string);
  });

  const expect: Record<string, ExpectSpec> = {};
  const rawExp = json.expect ?? {};
  if (!isObj(rawExp)) fail('expect', 'must be an object of buffer name -> {file, ulp}');
  for (const [name, e] of Object.entries(rawExp as Record<string, unknown>)) {
    const f = `expect.${name}`;
    if (!byName.has(name)) fail(f, 'not a buffer');
    if (!isObj(e)) return fail(f, 'must be {file, ulp}');
    for (const k of Object.keys(e)) if (k !== 'file' && k !== 'ulp') fail(`${f}.${k}`, 'unknown field (expected file, ulp)');
    if (typeof e.file !== 'string' || e.file === '') fail(`${f}.file`, 'must be a path string');
    const ulp = e.ulp ?? 0;
    if (!isCount(ulp)) fail(`${f}.ulp`, 'must be a non-negative integer');
    expect[name] = { file: resolve(dir, e.file as string), ulp: ulp as number };
  }
  let trapHandler: TrapHandlerSpec | undefined;
  const th = json.trapHandler;
  if (th !== undefined) {
    if (!isObj(th)) return fail('trapHandler', 'must be {asm: path} or {code: path}, with an optional tma buffer');
    for (const k of Object.keys(th)) if (!['asm', 'code', 'tma'].includes(k)) fail(`trapHandler.${k}`, 'unknown field (expected asm, code, tma)');
    if ((th.asm === undefined) === (th.code === undefined)) fail('trapHandler', 'give exactly one of asm (an assembly file) or code (raw machine code)');
    const kind = th.asm !== undefined ? 'asm' : 'code';
    const p = th[kind];
    if (typeof p !== 'string' || p === '') fail(`trapHandler.${kind}`, 'must be a path string');
    if (th.tma !== undefined && (typeof th.tma !== 'string' || !byName.has(th.tma))) fail('trapHandler.tma', `${JSON.stringify(th.tma)} is not a buffer`);
    trapHandler = { kind, path: resolve(dir, p as string), tma: th.tma as string | undefined };
  }
  let rats: RatSpec[] | undefined;
  if (json.rats !== undefined) {
    if (!Array.isArray(json.rats)) return fail('rats', 'must be an array of {id, buffer, ...surface fields}');
    rats = (json.rats as unknown[]).map((r, i) => {
      const f = `rats[${i}]`;
      if (!isObj(r)) return fail(f, 'must be an object {id, buffer, ...surface fields}');
      if (!isCount(r.id)) fail(`${f}.id`, 'must be a non-negative integer');
      if (typeof r.buffer !== 'string' || !byName.has(r.buffer)) fail(`${f}.buffer`, `${JSON.stringify(r.buffer)} is not a buffer`);
      const fields: Record<string, string | number> = {};
      for (const [k, v] of Object.entries(r)) {
        if (k === 'id' || k === 'buffer') continue;
        if (typeof v !== 'string' && typeof v !== 'number') fail(`${f}.${k}`, 'must be a string or a number');
        fields[k] = v as string | number;
      }
      return { id: r.id as number, buffer: r.buffer as string, fields };
    });
  }
  const workDim = json.workDim;
  if (workDim !== undefined && workDim !== 1 && workDim !== 2 && workDim !== 3) fail('workDim', 'must be 1, 2 or 3');
  let globalOffset: [number, number, number] | undefined;
  if (json.globalOffset !== undefined) {
    const g = json.globalOffset;
    if (!Array.isArray(g) || g.length < 1 || g.length > 3) return fail('globalOffset', 'must be an array of 1 to 3 non-negative integers');
    globalOffset = [0, 0, 0];
    g.forEach((x, i) => {
      if (!Number.isInteger(x) || (x as number) < 0 || (x as number) > 0xffffffff) fail(`globalOffset[${i}]`, 'must be a non-negative 32-bit integer');
      globalOffset![i] = x as number;
    });
  }
  return {
    path, dir, codeObject: resolve(dir, co as string), kernel: kernel as string | undefined, grid, block, buffers, args, outputs, expect,
    ...(trapHandler ? { trapHandler } : {}), ...(rats ? { rats } : {}), ...(images ? { images } : {}), ...(samplers ? { samplers } : {}),
    ...(workDim !== undefined ? { workDim: workDim as number } : {}), ...(globalOffset ? { globalOffset } : {}),
  };
}

type Fail = (field: string, msg: string) => never;

function parseBuffer(name: string, b: unknown, dir: string, fail: Fail): BufferSpec {
  const f = `buffers.${name}`;
  if (!/^[A-Za-z_][A-Za-z0-9_.-]*$/.test(name)) fail(f, 'buffer names are letters, digits, _ . - (they become file names)');
  if (!isObj(b)) return fail(f, 'must be an object {type, count, init?, file?}');
  for (const k of Object.keys(b)) if (!['type', 'count', 'init', 'file'].includes(k)) fail(`${f}.${k}`, 'unknown field (expected type, count, init, file)');
  const type = b.type;
  if (typeof type !== 'string' || !isElemType(type)) return fail(`${f}.type`, `must be one of ${ELEM_TYPES.join(' ')}`);
  const size = ELEM[type].bytes;
  let init: BufferInit = { kind: 'zero' };
  if (b.file !== undefined) {
    if (typeof b.file !== 'string' || b.file === '') fail(`${f}.file`, 'must be a path string');
    if (b.init !== undefined) fail(`${f}.init`, 'a buffer has either file or init, not both');
    init = { kind: 'file', path: resolve(dir, b.file as string) };
  } else if (b.init !== undefined) {
    const i = b.init;
    if (!isObj(i) || Object.keys(i).length !== 1) return fail(`${f}.init`, 'must be exactly one of {random}, {fill}, {values}, {file}');
    const k = Object.keys(i)[0]!;
    const v = i[k];
    const fi = `${f}.init.${k}`;
    if (k === 'random') {
      if (!isObj(v)) return fail(fi, 'must be {seed, min, max}');
      for (const kk of Object.keys(v)) if (!['seed', 'min', 'max', 'step'].includes(kk)) fail(`${fi}.${kk}`, 'unknown field (expected seed, min, max, step)');
      const step = v.step;
      if (step !== undefined && (typeof step !== 'number' || !(step > 0) || !Number.isFinite(step))) fail(`${fi}.step`, 'must be a positive number');
      if (step !== undefined && ELEM[type].kind !== 'float') fail(`${fi}.step`, 'only for float buffers (integers are whole already)');
      const seed = v.seed ?? 1;
      if (!Number.isInteger(seed)) fail(`${fi}.seed`, 'must be an integer');
      const [dmin, dmax] = defaultRange(type);
      const min = v.min ?? dmin;
      const max = v.max ?? dmax;
      if (typeof min !== 'number' || !Number.isFinite(min)) fail(`${fi}.min`, 'must be a finite number');
      if (typeof max !== 'number' || !Number.isFinite(max)) fail(`${fi}.max`, 'must be a finite number');
      if ((min as number) > (max as number)) fail(fi, `min ${min} is above max ${max}`);
      if (ELEM[type].kind !== 'float') {
        if (!Number.isInteger(min) || !Number.isInteger(max)) fail(fi, `min and max must be integers for ${type}`);
        const [lo, hi] = typeRange(type);
        if ((min as number) < lo || (max as number) > hi) fail(fi, `range [${min}, ${max}] does not fit ${type}`);
      }
      init = { kind: 'random', seed: seed as number, min: min as number, max: max as number, ...(step !== undefined ? { step: step as number } : {}) };
    } else if (k === 'fill') {
      checkScalar(type, v, fi, fail);
      init = { kind: 'fill', value: v as ScalarValue };
    } else if (k === 'values') {
      if (!Array.isArray(v)) return fail(fi, 'must be an array');
      v.forEach((x, j) => checkScalar(type, x, `${fi}[${j}]`, fail));
      init = { kind: 'values', values: v as ScalarValue[] };
    } else if (k === 'file') {
      if (typeof v !== 'string' || v === '') fail(fi, 'must be a path string');
      init = { kind: 'file', path: resolve(dir, v as string) };
    } else fail(fi, 'unknown init (expected random, fill, values or file)');
  }
  let count: number;
  if (b.count !== undefined) {
    if (!isCount(b.count)) fail(`${f}.count`, 'must be a non-negative integer');
    count = b.count as number;
    if (init.kind === 'values' && init.values.length > count) fail(`${f}.init.values`, `${init.values.length} values for ${count} elements`);
  } else if (init.kind === 'values') count = init.values.length;
  else if (init.kind === 'file') {
    count = -1; // from the file's size, resolved when the buffer is created
  } else return fail(`${f}.count`, 'required (unless init gives values or a file)');
  if (count >= 0 && count * size > 2 ** 32) fail(`${f}.count`, `${count} elements of ${type} exceed 4 GiB`);
  return { name, type, count, bytes: count < 0 ? -1 : count * size, init };
}

function dims(v: unknown, field: string, fail: Fail, required: boolean): [number, number, number] {
  if (v === undefined && required) fail(field, 'required: [x], [x, y] or [x, y, z] work-items');
  if (typeof v === 'number') v = [v];
  if (!Array.isArray(v) || v.length < 1 || v.length > 3) return fail(field, 'must be an array of 1 to 3 positive integers');
  const out: [number, number, number] = [1, 1, 1];
  v.forEach((x, i) => {
    if (!Number.isInteger(x) || (x as number) < 1 || (x as number) > 0xffffffff) fail(`${field}[${i}]`, 'must be a positive 32-bit integer');
    out[i] = x as number;
  });
  return out;
}

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
function isCount(v: unknown): boolean {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0;
}
export function isElemType(s: string): s is ElemType {
  return (ELEM_TYPES as readonly string[]).includes(s);
}

/** Inclusive value range of an integer type (64-bit ones limited to what a JS number holds exactly). */
export function typeRange(t: ElemType): [number, number] {
  const e = ELEM[t];
  if (e.kind === 'float') return [-Infinity, Infinity];
  const bits = e.bytes * 8;
  if (bits === 64) return e.kind === 'int' ? [-(2 ** 53), 2 ** 53] : [0, 2 ** 53];
  return e.kind === 'int' ? [-(2 ** (bits - 1)), 2 ** (bits - 1) - 1] : [0, 2 ** bits - 1];
}

function defaultRange(t: ElemType): [number, number] {
  return ELEM[t].kind === 'float' ? [0, 1] : typeRange(t);
}

const FLOAT_WORDS = ['nan', 'inf', '+inf', '-inf', 'infinity', '+infinity', '-infinity'];

function checkScalar(t: ElemType, v: unknown, field: string, fail: Fail): void {
  const e = ELEM[t];
  if (typeof v === 'string') {
    if (e.kind === 'float') {
      if (!FLOAT_WORDS.includes(v.toLowerCase()) && !Number.isFinite(Number(v))) fail(field, `'${v}' is not a number (strings allowed: NaN, Inf, -Inf)`);
      return;
    }
    if (parseInt64(v) === null) fail(field, `'${v}' is not an integer (decimal or 0x hex)`);
    if (e.bytes < 8) fail(field, `${t} values are numbers (strings are for 64-bit integers)`);
    return;
  }
  if (typeof v !== 'number' || !Number.isFinite(v)) return fail(field, `must be a number for ${t}`);
  if (e.kind === 'float') return;
  if (!Number.isInteger(v)) fail(field, `${v} is not an integer (${t})`);
  const [lo, hi] = typeRange(t);
  // Accept both the signed and the unsigned spelling of the bits (e.g. 0xffffffff for an i32).
  const bits = e.bytes * 8;
  const ok = bits === 64 ? Math.abs(v) <= 2 ** 53 : v >= -(2 ** (bits - 1)) && v <= 2 ** bits - 1;
  if (!ok) fail(field, `${v} does not fit ${t} [${lo}, ${hi}]`);
}

/** Parse a 64-bit integer string ("-12", "0xffff_ffff_ffff_ffff") into [lo, hi] dwords, or null. */
export function parseInt64(s: string): [number, number] | null {
  let t = s.trim().replace(/_/g, '');
  let neg = false;
  if (t.startsWith('-')) {
    neg = true;
    t = t.slice(1);
  }
  let lo = 0;
  let hi = 0;
  const hex = /^0x[0-9a-f]{1,16}$/i.test(t);
  if (!hex && !/^[0-9]{1,20}$/.test(t)) return null;
  const digits = hex ? t.slice(2) : t;
  const base = hex ? 16 : 10;
  for (const ch of digits) {
    const d = parseInt(ch, base);
    // (hi:lo) = (hi:lo) * base + d with 16-bit limbs to stay exact
    const l0 = (lo & 0xffff) * base + d;
    const l1 = (lo >>> 16) * base + Math.floor(l0 / 0x10000);
    const h0 = (hi & 0xffff) * base + Math.floor(l1 / 0x10000);
    const h1 = (hi >>> 16) * base + Math.floor(h0 / 0x10000);
    if (h1 > 0xffff) return null;
    lo = ((l1 & 0xffff) * 0x10000 + (l0 & 0xffff)) >>> 0;
    hi = ((h1 & 0xffff) * 0x10000 + (h0 & 0xffff)) >>> 0;
  }
  if (neg) {
    lo = (~lo + 1) >>> 0;
    hi = (~hi + (lo === 0 ? 1 : 0)) >>> 0;
  }
  return [lo, hi];
}

function floatOf(v: ScalarValue): number {
  if (typeof v === 'number') return v;
  const l = v.toLowerCase();
  if (l === 'nan') return NaN;
  if (l.endsWith('inf') || l.endsWith('infinity')) return l.startsWith('-') ? -Infinity : Infinity;
  return Number(v);
}

/** Store one element of type `t` at byte offset `at`. */
export function writeElem(dv: DataView, at: number, t: ElemType, v: ScalarValue): void {
  const e = ELEM[t];
  if (e.kind === 'float') {
    const x = floatOf(v);
    if (t === 'f32') dv.setFloat32(at, x, true);
    else if (t === 'f64') dv.setFloat64(at, x, true);
    else dv.setUint16(at, f16bits(x), true);
    return;
  }
  if (e.bytes === 8) {
    let lo: number;
    let hi: number;
    if (typeof v === 'string') [lo, hi] = parseInt64(v)!;
    else {
      const n = Math.trunc(v);
      lo = (((n % 0x1_0000_0000) + 0x1_0000_0000) % 0x1_0000_0000) >>> 0;
      hi = Math.floor(n / 0x1_0000_0000) >>> 0;
    }
    dv.setUint32(at, lo, true);
    dv.setUint32(at + 4, hi, true);
    return;
  }
  const n = Number(v);
  if (e.bytes === 1) dv.setUint8(at, n & 0xff);
  else if (e.bytes === 2) dv.setUint16(at, n & 0xffff, true);
  else dv.setUint32(at, n >>> 0, true);
}

/** Little-endian bytes of one scalar argument. */
export function scalarBytes(t: ElemType, v: ScalarValue): Uint8Array {
  const b = new Uint8Array(ELEM[t].bytes);
  writeElem(new DataView(b.buffer), 0, t, v);
  return b;
}

/** Bytes of a by-value struct: each field at its natural alignment, the whole padded to the largest. */
export function structBytes(fields: readonly { readonly type: ElemType; readonly value: ScalarValue }[]): Uint8Array {
  let at = 0;
  let align = 1;
  const offs = fields.map((f) => {
    const n = ELEM[f.type].bytes;
    align = Math.max(align, n);
    at = Math.ceil(at / n) * n;
    const o = at;
    at += n;
    return o;
  });
  const b = new Uint8Array(Math.ceil(at / align) * align);
  const dv = new DataView(b.buffer);
  fields.forEach((f, i) => writeElem(dv, offs[i]!, f.type, f.value));
  return b;
}

/** Deterministic PRNG (mulberry32), the same generator for every architecture; it lives in src/core/prng.ts. */
export { mulberry32 };

/**
 * The initial bytes of a buffer. Random integers are uniform over [min, max] inclusive; random
 * floats uniform over [min, max) rounded to the element type, or over {min + k*step} <= max. `readFile` is injectable for tests.
 */
export function bufferContents(b: BufferSpec, readFile: (p: string) => Uint8Array = (p) => new Uint8Array(readFileSync(p))): Uint8Array {
  const size = ELEM[b.type].bytes;
  if (b.init.kind === 'file') {
    let data: Uint8Array;
    try {
      data = readFile(b.init.path);
    } catch (e) {
      throw new InputError(`buffers.${b.name}.file: cannot read ${b.init.path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
    if (b.count < 0) {
      if (data.length % size !== 0) throw new InputError(`buffers.${b.name}.file: ${data.length} bytes is not a whole number of ${b.type} elements`);
      return data.slice();
    }
    if (data.length > b.bytes) throw new InputError(`buffers.${b.name}.file: ${data.length} bytes for a buffer of ${b.bytes}`);
    const out = new Uint8Array(b.bytes);
    out.set(data);
    return out;
  }
  const out = new Uint8Array(b.bytes);
  const dv = new DataView(out.buffer);
  const init = b.init;
  switch (init.kind) {
    case 'zero':
      break;
    case 'fill':
      for (let i = 0; i < b.count; i++) writeElem(dv, i * size, b.type, init.value);
      break;
    case 'values':
      init.values.forEach((v, i) => writeElem(dv, i * size, b.type, v));
      break;
    case 'random': {
      const r = mulberry32(init.seed);
      const isFloat = ELEM[b.type].kind === 'float';
      const span = init.max - init.min;
      for (let i = 0; i < b.count; i++) {
        let v: number;
        if (isFloat && init.step !== undefined) v = init.min + Math.floor(r() * (Math.floor(span / init.step) + 1)) * init.step;
        else if (isFloat) v = init.min + r() * span;
        else if (span + 1 <= 2 ** 32) v = init.min + Math.floor(r() * (span + 1));
        else v = init.min + Math.floor((r() * 2 ** 21 + Math.floor(r() * 2 ** 32) / 2 ** 32) / 2 ** 21 * (span + 1));
        writeElem(dv, i * size, b.type, Math.min(v, init.max));
      }
      break;
    }
  }
  return out;
}
