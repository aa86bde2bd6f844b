/**
 * The NT_AMDGPU_METADATA note (owner "AMDGPU", type 32): a MessagePack map describing the code
 * object (AMDGPUUsage "Code Object V4/V5/V6 Metadata"). Keys keep their spelling from the spec
 * (`.kernarg_segment_size`, `.value_kind`...) in `raw`; the typed fields below are the ones gpusim
 * uses, read with checks. Unknown keys are never dropped: every object keeps its `raw` map.
 */
import { decode } from '@msgpack/msgpack';
import { InputError } from '../../core/errors.js';

export const NT_AMDGPU_METADATA = 32;
export const AMDGPU_NOTE_NAME = 'AMDGPU';

export type MsgValue = null | boolean | number | string | Uint8Array | MsgValue[] | { [k: string]: MsgValue };
export type MsgMap = { [k: string]: MsgValue };

export interface KernelArgMetadata {
  readonly name?: string;
  readonly type_name?: string;
  readonly offset: number;
  readonly size: number;
  /** by_value, global_buffer, dynamic_shared_pointer, image, sampler, pipe, queue, hidden_*... */
  readonly value_kind: string;
  /** global, constant, local, private, generic, region (pointers only). */
  readonly address_space?: string;
  readonly access?: string;
  readonly actual_access?: string;
  readonly pointee_align?: number;
  readonly is_const?: boolean;
  readonly is_restrict?: boolean;
  readonly is_volatile?: boolean;
  readonly is_pipe?: boolean;
  /** True for value kinds starting with `hidden_` (implicit arguments the runtime fills). */
  readonly hidden: boolean;
  readonly raw: Readonly<MsgMap>;
}

export interface KernelMetadata {
  readonly name: string;
  /** Kernel descriptor symbol, `<name>.kd`. */
  readonly symbol: string;
  readonly language?: string;
  readonly language_version?: readonly number[];
  readonly args: readonly KernelArgMetadata[];
  readonly kernarg_segment_size: number;
  readonly kernarg_segment_align: number;
  readonly group_segment_fixed_size: number;
  readonly private_segment_fixed_size: number;
  readonly wavefront_size: number;
  readonly sgpr_count: number;
  readonly vgpr_count: number;
  readonly agpr_count?: number;
  readonly sgpr_spill_count?: number;
  readonly vgpr_spill_count?: number;
  readonly max_flat_workgroup_size: number;
  readonly reqd_workgroup_size?: readonly number[];
  readonly workgroup_size_hint?: readonly number[];
  readonly uses_dynamic_stack?: boolean;
  readonly workgroup_processor_mode?: boolean;
  readonly kind?: string;
  readonly uniform_work_group_size?: boolean;
  readonly raw: Readonly<MsgMap>;
}

export interface CodeObjectMetadata {
  /** amdhsa.version: [1, 1] for code object v4, [1, 2] for v5 (and v6 with LLVM 19). */
  readonly version: readonly [number, number];
  /** amdhsa.target, e.g. `amdgcn-amd-amdhsa--gfx1100` or `amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-`. */
  readonly target?: string;
  readonly printf?: readonly string[];
  readonly kernels: readonly KernelMetadata[];
  readonly raw: Readonly<MsgMap>;
}

function isMap(v: unknown): v is MsgMap {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array);
}

class Reader {
  readonly map: MsgMap;
  readonly where: string;
  constructor(map: MsgMap, where: string) {
    this.map = map;
    this.where = where;
  }
  private fail(key: string, want: string, v: unknown): never {
    const got = v === undefined ? 'missing' : Array.isArray(v) ? 'an array' : v === null ? 'nil' : `a ${typeof v}`;
    throw new InputError(`AMDGPU metadata: ${this.where} ${key} should be ${want}, is ${got}`);
  }
  num(key: string): number {
    const v = this.map[key];
    if (typeof v !== 'number' || !Number.isFinite(v)) this.fail(key, 'a number', v);
    return v;
  }
  optNum(key: string): number | undefined {
    return this.map[key] === undefined ? undefined : this.num(key);
  }
  str(key: string): string {
    const v = this.map[key];
    if (typeof v !== 'string') this.fail(key, 'a string', v);
    return v;
  }
  optStr(key: string): string | undefined {
    return this.map[key] === undefined ? undefined : this.str(key);
  }
  optBool(key: string): boolean | undefined {
    const v = this.map[key];
    if (v === undefined) return undefined;
    // LLVM writes booleans; older emitters wrote 0/1.
    if (typeof v === 'boolean') return v;
    if (v === 0 || v === 1) return v === 1;
    this.fail(key, 'a boolean', v);
  }
  optNums(key: string): number[] | undefined {
    const v = this.map[key];
    if (v === undefined) return undefined;
    if (!Array.isArray(v) || !v.every((x) => typeof x === 'number')) this.fail(key, 'an array of numbers', v);
    return v as number[];
  }
  optStrs(key: string): string[] | undefined {
    const v = this.map[key];
    if (v === undefined) return undefined;
    if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) this.fail(key, 'an array of strings', v);
    return v as string[];
  }
}

function decodeArg(m: MsgValue, where: string): KernelArgMetadata {
  if (!isMap(m)) throw new InputError(`AMDGPU metadata: ${where} is not a map`);
  const r = new Reader(m, where);
  const value_kind = r.str('.value_kind');
  const out: KernelArgMetadata = {
    offset: r.num('.offset'),
    size: r.num('.size'),
    value_kind,
    hidden: value_kind.startsWith('hidden_'),
    raw: m,
  };
  const opt: Record<string, unknown> = {
    name: r.optStr('.name'),
    type_name: r.optStr('.type_name'),
    address_space: r.optStr('.address_space'),
    access: r.optStr('.access'),
    actual_access: r.optStr('.actual_access'),
    pointee_align: r.optNum('.pointee_align'),
    is_const: r.optBool('.is_const'),
    is_restrict: r.optBool('.is_restrict'),
    is_volatile: r.optBool('.is_volatile'),
    is_pipe: r.optBool('.is_pipe'),
  };
  for (const [k, v] of Object.entries(opt)) if (v !== undefined) (out as unknown as Record<string, unknown>)[k] = v;
  return out;
}

function decodeKernel(m: MsgValue, i: number): KernelMetadata {
  if (!isMap(m)) throw new InputError(`AMDGPU metadata: amdhsa.kernels[${i}] is not a map`);
  const name = typeof m['.name'] === 'string' ? m['.name'] : `#${i}`;
  const where = `kernel ${name}`;
  const r = new Reader(m, where);
  const argsV = m['.args'];
  if (argsV !== undefined && !Array.isArray(argsV)) throw new InputError(`AMDGPU metadata: ${where} .args is not an array`);
  const args = (argsV ?? []).map((a, j) => decodeArg(a, `${where} .args[${j}]`));
  const k: KernelMetadata = {
    name: r.str('.name'),
    symbol: r.str('.symbol'),
    args,
    kernarg_segment_size: r.num('.kernarg_segment_size'),
    kernarg_segment_align: r.num('.kernarg_segment_align'),
    group_segment_fixed_size: r.num('.group_segment_fixed_size'),
    private_segment_fixed_size: r.num('.private_segment_fixed_size'),
    wavefront_size: r.num('.wavefront_size'),
    sgpr_count: r.num('.sgpr_count'),
    vgpr_count: r.num('.vgpr_count'),
    max_flat_workgroup_size: r.num('.max_flat_workgroup_size'),
    raw: m,
  };
  const opt: Record<string, unknown> = {
    language: r.optStr('.language'),
    language_version: r.optNums('.language_version'),
    agpr_count: r.optNum('.agpr_count'),
    sgpr_spill_count: r.optNum('.sgpr_spill_count'),
    vgpr_spill_count: r.optNum('.vgpr_spill_count'),
    reqd_workgroup_size: r.optNums('.reqd_workgroup_size'),
    workgroup_size_hint: r.optNums('.workgroup_size_hint'),
    uses_dynamic_stack: r.optBool('.uses_dynamic_stack'),
    workgroup_processor_mode: r.optBool('.workgroup_processor_mode'),
    kind: r.optStr('.kind'),
    uniform_work_group_size: r.optBool('.uniform_work_group_size'),
  };
  for (const [key, v] of Object.entries(opt)) if (v !== undefined) (k as unknown as Record<string, unknown>)[key] = v;
  return k;
}

/** Decode the descriptor bytes of an NT_AMDGPU_METADATA note. */
export function decodeMetadata(desc: Uint8Array): CodeObjectMetadata {
  let v: unknown;
  try {
    v = decode(desc, { useBigInt64: false });
  } catch (e) {
    throw new InputError(`AMDGPU metadata note is not valid MessagePack (${(e as Error).message.split('\n')[0]})`);
  }
  if (!isMap(v)) throw new InputError('AMDGPU metadata note is not a MessagePack map');
  const root = v;
  const r = new Reader(root, 'top level');
  const ver = r.optNums('amdhsa.version');
  if (!ver || ver.length !== 2) throw new InputError('AMDGPU metadata: amdhsa.version is missing or not [major, minor]');
  if (ver[0] !== 1) throw new InputError(`AMDGPU metadata: amdhsa.version ${ver.join('.')} is not a code object v3+ version (major must be 1)`);
  const kernelsV = root['amdhsa.kernels'];
  if (kernelsV !== undefined && !Array.isArray(kernelsV)) throw new InputError('AMDGPU metadata: amdhsa.kernels is not an array');
  const out: CodeObjectMetadata = {
    version: [ver[0]!, ver[1]!],
    kernels: (kernelsV ?? []).map((k, i) => decodeKernel(k, i)),
    raw: root,
  };
  const target = r.optStr('amdhsa.target');
  const printf = r.optStrs('amdhsa.printf');
  if (target !== undefined) (out as { target?: string }).target = target;
  if (printf !== undefined) (out as { printf?: readonly string[] }).printf = printf;
  return out;
}
