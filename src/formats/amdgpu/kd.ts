/**
 * The AMDHSA kernel descriptor (64 bytes, 64-byte aligned, symbol `<kernel>.kd`), decoded field
 * by field as LLVM's AMDGPUUsage "Kernel Descriptor" section lays it out:
 *
 *   +0  group_segment_fixed_size u32     +4  private_segment_fixed_size u32
 *   +8  kernarg_size u32                  +12 reserved (4)
 *   +16 kernel_code_entry_byte_offset i64 (relative to the descriptor's own address)
 *   +24 reserved (20)                     +44 COMPUTE_PGM_RSRC3 (GFX90A, GFX10+)
 *   +48 COMPUTE_PGM_RSRC1                 +52 COMPUTE_PGM_RSRC2
 *   +56 kernel_code_properties u16        +58 kernarg_preload u16   +60 reserved (4)
 *
 * The RSRC register fields come from the generated Mesa table (rsrc.gen.ts, hardware names); the
 * `amdhsa` view restates everything under the names of the assembler's `.amdhsa_*` directives,
 * which is what clang prints and what the tests compare against.
 */
import { InputError, hex } from '../../core/errors.js';
import { COMPUTE_PGM_RSRC_FIELDS, type RsrcField, type RsrcGeneration } from './rsrc.gen.js';

export const KD_SIZE = 64;

/** Bits of kernel_code_properties (AMDGPUUsage; stable across code object versions). */
export const KERNEL_CODE_PROPERTY = {
  ENABLE_SGPR_PRIVATE_SEGMENT_BUFFER: 0,
  ENABLE_SGPR_DISPATCH_PTR: 1,
  ENABLE_SGPR_QUEUE_PTR: 2,
  ENABLE_SGPR_KERNARG_SEGMENT_PTR: 3,
  ENABLE_SGPR_DISPATCH_ID: 4,
  ENABLE_SGPR_FLAT_SCRATCH_INIT: 5,
  ENABLE_SGPR_PRIVATE_SEGMENT_SIZE: 6,
  ENABLE_WAVEFRONT_SIZE32: 10,
  USES_DYNAMIC_STACK: 11,
} as const;
export type KernelCodeProperty = keyof typeof KERNEL_CODE_PROPERTY;

/** The generation whose register layout applies; picks a table in rsrc.gen.ts. */
export type KdGeneration = RsrcGeneration;

/** Major generation of a `gfxNNN` processor name, and the RSRC table to use for it. */
export function kdGenerationFor(mcpu: string): KdGeneration {
  const m = /^gfx(\d+)([0-9a-f])([0-9a-f])$/.exec(mcpu);
  if (!m) {
    const g = /^gfx(\d+)-/.exec(mcpu); // generic targets: gfx9-generic, gfx10-3-generic, gfx11-generic...
    if (g) return g[1] === '9' ? 'gfx9' : g[1] === '10' ? (mcpu.startsWith('gfx10-3') ? 'gfx103' : 'gfx10') : g[1] === '11' ? 'gfx11' : 'gfx12';
    throw new InputError(`unknown processor '${mcpu}' (expected gfxNNN)`);
  }
  const major = Number(m[1]);
  const minor = parseInt(m[2]!, 16);
  const step = m[3]!;
  if (major < 9) throw new InputError(`processor ${mcpu} (GFX${major}) is older than GFX9 and not modelled`);
  if (major === 9) return minor === 4 || (minor === 0 && step === 'a') ? 'gfx940' : 'gfx9';
  if (major === 10) return minor >= 3 ? 'gfx103' : 'gfx10';
  if (major === 11) return 'gfx11';
  return 'gfx12';
}

function isGfx10Plus(g: KdGeneration): boolean {
  return g !== 'gfx9' && g !== 'gfx940';
}

/** One decoded user or system SGPR (or VGPR) the hardware initialises before the first instruction. */
export interface InitialRegister {
  readonly name: string;
  /** First register number. */
  readonly reg: number;
  /** Number of consecutive 32-bit registers. */
  readonly count: number;
}

export interface KernelDescriptor {
  readonly generation: KdGeneration;
  readonly group_segment_fixed_size: number;
  readonly private_segment_fixed_size: number;
  readonly kernarg_size: number;
  /** Signed byte offset from the descriptor's address to the first instruction. */
  readonly kernel_code_entry_byte_offset: number;
  readonly compute_pgm_rsrc1: number;
  readonly compute_pgm_rsrc2: number;
  readonly compute_pgm_rsrc3: number;
  readonly kernel_code_properties: number;
  readonly kernarg_preload: number;
  /** COMPUTE_PGM_RSRC1 fields by their hardware names (Mesa's register database). */
  readonly rsrc1: Readonly<Record<string, number>>;
  readonly rsrc2: Readonly<Record<string, number>>;
  /** Empty on GFX9 before GFX90A (no RSRC3 there). */
  readonly rsrc3: Readonly<Record<string, number>>;
  readonly properties: Readonly<Record<KernelCodeProperty, boolean>>;
  /** kernarg_preload: LENGTH (bits 0-6, SGPRs) and OFFSET (bits 7-15, dwords into the kernarg segment). */
  readonly kernargPreload: { readonly length: number; readonly offset: number };
  /** Everything above restated as the assembler's `.amdhsa_<name>` directives (without the prefix). */
  readonly amdhsa: Readonly<Record<string, number>>;
  /** Values derived from the fields. */
  readonly derived: KdDerived;
  /** Reserved bytes/bits that are not zero (a descriptor from a newer toolchain, or garbage). */
  readonly reservedNonZero: readonly string[];
}

export interface KdDerived {
  readonly waveSize: 32 | 64;
  /** VGPR encoding granule: GFX10+ wave32 8, wave64 4; GFX9 4; GFX90A/GFX940 8. */
  readonly vgprGranule: number;
  /** VGPRs the descriptor asks for per work-item: (GRANULATED_WORKITEM_VGPR_COUNT + 1) * granule. */
  readonly vgprs: number;
  /**
   * SGPRs the descriptor asks for per wave, (GRANULATED_WAVEFRONT_SGPR_COUNT + 1) * 8, on GFX9 only.
   * On GFX10+ the field is reserved (hardware gives every wave a fixed SGPR file); undefined there.
   */
  readonly sgprs: number | undefined;
  /** USER_SGPR of RSRC2: how many user SGPRs the hardware loads (s0..s[n-1]). */
  readonly userSgprCount: number;
  /** The user SGPRs the enable bits ask for, in hardware order (their total may be below userSgprCount). */
  readonly userSgprs: readonly InitialRegister[];
  /** System SGPRs after the user SGPRs: workgroup ids, workgroup info, scratch wave offset. */
  readonly systemSgprs: readonly InitialRegister[];
  readonly workgroupIdEnabled: readonly [boolean, boolean, boolean];
  /** VGPR work-item ids: 0 = X, 1 = X and Y, 2 = X, Y and Z (AMDGPUUsage SYSTEM_VGPR_WORKITEM_ID). */
  readonly workitemIdMode: number;
  readonly scratchEnabled: boolean;
}

function extract(v: number, f: RsrcField): number {
  const w = f.hi - f.lo + 1;
  return w === 32 ? v >>> 0 : (v >>> f.lo) & ((1 << w) - 1);
}

function decodeFields(v: number, fields: readonly RsrcField[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const f of fields) out[f.name] = extract(v, f);
  return out;
}

function coveredMask(fields: readonly RsrcField[]): number {
  let m = 0;
  for (const f of fields) for (let b = f.lo; b <= f.hi; b++) m |= 1 << b;
  return m >>> 0;
}

/**
 * Decode 64 descriptor bytes. `bytes` must hold at least 64 bytes (the caller bounds-checks the
 * symbol against its section and reports where it is); `generation` picks the register layouts.
 */
export function decodeKernelDescriptor(bytes: Uint8Array, generation: KdGeneration): KernelDescriptor {
  if (bytes.length < KD_SIZE) throw new InputError(`kernel descriptor is ${bytes.length} bytes, expected ${KD_SIZE}`);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, KD_SIZE);
  const u32 = (o: number) => dv.getUint32(o, true);
  const lo = u32(16);
  const hiS = dv.getInt32(20, true);
  const entry = hiS * 0x100000000 + lo;
  if (!Number.isSafeInteger(entry)) throw new InputError(`kernel_code_entry_byte_offset ${hex(hiS >>> 0)}${lo.toString(16).padStart(8, '0')} is out of range`);

  const rsrc1v = u32(48);
  const rsrc2v = u32(52);
  const rsrc3v = u32(44);
  const props = dv.getUint16(56, true);
  const preload = dv.getUint16(58, true);
  const tables = COMPUTE_PGM_RSRC_FIELDS[generation];
  const rsrc1 = decodeFields(rsrc1v, tables.COMPUTE_PGM_RSRC1);
  const rsrc2 = decodeFields(rsrc2v, tables.COMPUTE_PGM_RSRC2);
  const rsrc3 = decodeFields(rsrc3v, tables.COMPUTE_PGM_RSRC3);

  const properties = {} as Record<KernelCodeProperty, boolean>;
  for (const [k, bit] of Object.entries(KERNEL_CODE_PROPERTY)) properties[k as KernelCodeProperty] = ((props >> bit) & 1) === 1;

  const reservedNonZero: string[] = [];
  for (const [o, n] of [[12, 4], [24, 20], [60, 4]] as const) {
    for (let i = o; i < o + n; i++) if (bytes[i] !== 0) { reservedNonZero.push(`bytes ${o}..${o + n - 1}`); break; }
  }
  if (generation === 'gfx9' && rsrc3v !== 0) reservedNonZero.push('COMPUTE_PGM_RSRC3 (no such register before GFX90A)');
  const knownProps = Object.values(KERNEL_CODE_PROPERTY).reduce((m: number, b: number) => m | (1 << b), 0);
  if (props & ~knownProps) reservedNonZero.push(`kernel_code_properties bits ${hex(props & ~knownProps)}`);
  for (const [name, v, fields] of [
    ['COMPUTE_PGM_RSRC1', rsrc1v, tables.COMPUTE_PGM_RSRC1],
    ['COMPUTE_PGM_RSRC2', rsrc2v, tables.COMPUTE_PGM_RSRC2],
    ['COMPUTE_PGM_RSRC3', rsrc3v, tables.COMPUTE_PGM_RSRC3],
  ] as const) {
    const extra = (v & ~coveredMask(fields)) >>> 0;
    if (extra && !(name === 'COMPUTE_PGM_RSRC3' && generation === 'gfx9')) reservedNonZero.push(`${name} bits ${hex(extra)}`);
  }

  const gfx10 = isGfx10Plus(generation);
  const waveSize: 32 | 64 = gfx10 && properties.ENABLE_WAVEFRONT_SIZE32 ? 32 : 64;
  const vgprGranule = generation === 'gfx940' ? 8 : gfx10 && waveSize === 32 ? 8 : 4;
  const floatMode = rsrc1.FLOAT_MODE ?? 0;
  const excp = rsrc2.EXCP_EN ?? 0;
  const excpMsb = rsrc2.EXCP_EN_MSB ?? 0;

  // The `.amdhsa_*` view (names as the LLVM assembler spells them).
  const a: Record<string, number> = {
    group_segment_fixed_size: u32(0),
    private_segment_fixed_size: u32(4),
    kernarg_size: u32(8),
    user_sgpr_count: rsrc2.USER_SGPR!,
    user_sgpr_dispatch_ptr: +properties.ENABLE_SGPR_DISPATCH_PTR,
    user_sgpr_queue_ptr: +properties.ENABLE_SGPR_QUEUE_PTR,
    user_sgpr_kernarg_segment_ptr: +properties.ENABLE_SGPR_KERNARG_SEGMENT_PTR,
    user_sgpr_dispatch_id: +properties.ENABLE_SGPR_DISPATCH_ID,
    user_sgpr_private_segment_size: +properties.ENABLE_SGPR_PRIVATE_SEGMENT_SIZE,
    user_sgpr_private_segment_buffer: +properties.ENABLE_SGPR_PRIVATE_SEGMENT_BUFFER,
    user_sgpr_flat_scratch_init: +properties.ENABLE_SGPR_FLAT_SCRATCH_INIT,
    uses_dynamic_stack: +properties.USES_DYNAMIC_STACK,
    system_sgpr_workgroup_id_x: rsrc2.TGID_X_EN!,
    system_sgpr_workgroup_id_y: rsrc2.TGID_Y_EN!,
    system_sgpr_workgroup_id_z: rsrc2.TGID_Z_EN!,
    system_sgpr_workgroup_info: rsrc2.TG_SIZE_EN!,
    system_vgpr_workitem_id: rsrc2.TIDIG_COMP_CNT!,
    // SCRATCH_EN: the scratch wave offset SGPR / private segment. The assembler spells it
    // enable_private_segment on GFX10+ and system_sgpr_private_segment_wavefront_offset on GFX9.
    enable_private_segment: rsrc2.SCRATCH_EN!,
    system_sgpr_private_segment_wavefront_offset: rsrc2.SCRATCH_EN!,
    float_round_mode_32: floatMode & 3,
    float_round_mode_16_64: (floatMode >> 2) & 3,
    float_denorm_mode_32: (floatMode >> 4) & 3,
    float_denorm_mode_16_64: (floatMode >> 6) & 3,
    priority: rsrc1.PRIORITY!,
    priv: rsrc1.PRIV!,
    fp16_overflow: rsrc1.FP16_OVFL ?? 0,
    exception_address_watch: excpMsb & 1,
    exception_memory: (excpMsb >> 1) & 1,
    exception_fp_ieee_invalid_op: excp & 1,
    exception_fp_denorm_src: (excp >> 1) & 1,
    exception_fp_ieee_div_zero: (excp >> 2) & 1,
    exception_fp_ieee_overflow: (excp >> 3) & 1,
    exception_fp_ieee_underflow: (excp >> 4) & 1,
    exception_fp_ieee_inexact: (excp >> 5) & 1,
    exception_int_div_zero: (excp >> 6) & 1,
    granulated_workitem_vgpr_count: rsrc1.VGPRS!,
    granulated_wavefront_sgpr_count: rsrc1.SGPRS!,
    granulated_lds_size: rsrc2.LDS_SIZE!,
    kernarg_preload_length: preload & 0x7f,
    kernarg_preload_offset: preload >>> 7,
  };
  if ('DX10_CLAMP' in rsrc1) a.dx10_clamp = rsrc1.DX10_CLAMP!;
  if ('IEEE_MODE' in rsrc1) a.ieee_mode = rsrc1.IEEE_MODE!;
  if (gfx10) {
    a.wavefront_size32 = +properties.ENABLE_WAVEFRONT_SIZE32;
    a.workgroup_processor_mode = rsrc1.WGP_MODE!;
    a.memory_ordered = rsrc1.MEM_ORDERED!;
    a.forward_progress = rsrc1.FWD_PROGRESS!;
  }
  if ('SHARED_VGPR_CNT' in rsrc3) a.shared_vgpr_count = rsrc3.SHARED_VGPR_CNT!;
  if ('INST_PREF_SIZE' in rsrc3) a.inst_pref_size = rsrc3.INST_PREF_SIZE!;
  if ('TRAP_ON_START' in rsrc3) a.trap_on_start = rsrc3.TRAP_ON_START!;
  if ('TRAP_ON_END' in rsrc3) a.trap_on_end = rsrc3.TRAP_ON_END!;
  if ('ACCUM_OFFSET' in rsrc3) a.accum_offset = (rsrc3.ACCUM_OFFSET! + 1) * 4;
  if ('TG_SPLIT' in rsrc3) a.tg_split = rsrc3.TG_SPLIT!;

  // Initial SGPR layout: user SGPRs in the order AMDGPUUsage lists them, then kernarg preload.
  const userSgprs: InitialRegister[] = [];
  let s = 0;
  const addUser = (on: boolean, name: string, n: number) => {
    if (on) { userSgprs.push({ name, reg: s, count: n }); s += n; }
  };
  addUser(properties.ENABLE_SGPR_PRIVATE_SEGMENT_BUFFER, 'private_segment_buffer', 4);
  addUser(properties.ENABLE_SGPR_DISPATCH_PTR, 'dispatch_ptr', 2);
  addUser(properties.ENABLE_SGPR_QUEUE_PTR, 'queue_ptr', 2);
  addUser(properties.ENABLE_SGPR_KERNARG_SEGMENT_PTR, 'kernarg_segment_ptr', 2);
  addUser(properties.ENABLE_SGPR_DISPATCH_ID, 'dispatch_id', 2);
  addUser(properties.ENABLE_SGPR_FLAT_SCRATCH_INIT, 'flat_scratch_init', 2);
  addUser(properties.ENABLE_SGPR_PRIVATE_SEGMENT_SIZE, 'private_segment_size', 1);
  addUser((preload & 0x7f) > 0, 'kernarg_preload', preload & 0x7f);
  const userSgprCount = rsrc2.USER_SGPR!;
  const systemSgprs: InitialRegister[] = [];
  let t = userSgprCount;
  const addSys = (on: boolean, name: string) => {
    if (on) systemSgprs.push({ name, reg: t++, count: 1 });
  };
  addSys(rsrc2.TGID_X_EN === 1, 'workgroup_id_x');
  addSys(rsrc2.TGID_Y_EN === 1, 'workgroup_id_y');
  addSys(rsrc2.TGID_Z_EN === 1, 'workgroup_id_z');
  addSys(rsrc2.TG_SIZE_EN === 1, 'workgroup_info');
  addSys(rsrc2.SCRATCH_EN === 1, 'private_segment_wavefront_offset');

  const derived: KdDerived = {
    waveSize,
    vgprGranule,
    vgprs: (rsrc1.VGPRS! + 1) * vgprGranule,
    sgprs: gfx10 ? undefined : (rsrc1.SGPRS! + 1) * 8,
    userSgprCount,
    userSgprs,
    systemSgprs,
    workgroupIdEnabled: [rsrc2.TGID_X_EN === 1, rsrc2.TGID_Y_EN === 1, rsrc2.TGID_Z_EN === 1],
    workitemIdMode: rsrc2.TIDIG_COMP_CNT!,
    scratchEnabled: rsrc2.SCRATCH_EN === 1,
  };

  return {
    generation,
    group_segment_fixed_size: u32(0),
    private_segment_fixed_size: u32(4),
    kernarg_size: u32(8),
    kernel_code_entry_byte_offset: entry,
    compute_pgm_rsrc1: rsrc1v,
    compute_pgm_rsrc2: rsrc2v,
    compute_pgm_rsrc3: rsrc3v,
    kernel_code_properties: props,
    kernarg_preload: preload,
    rsrc1, rsrc2, rsrc3,
    properties,
    kernargPreload: { length: preload & 0x7f, offset: preload >>> 7 },
    amdhsa: a,
    derived,
    reservedNonZero,
  };
}

/** The fields of a kernel descriptor to write; RSRC registers by their hardware field names. */
export interface KernelDescriptorFields {
  readonly group_segment_fixed_size: number;
  readonly private_segment_fixed_size: number;
  readonly kernarg_size: number;
  readonly kernel_code_entry_byte_offset: number;
  readonly rsrc1: Readonly<Record<string, number>>;
  readonly rsrc2: Readonly<Record<string, number>>;
  readonly rsrc3: Readonly<Record<string, number>>;
  readonly properties: Readonly<Partial<Record<KernelCodeProperty, boolean>>>;
  readonly kernarg_preload?: number;
}

/**
 * Pack register fields by name into a COMPUTE_PGM_RSRC1/2/3 value with the generation's layout
 * (rsrc.gen.ts). A name the register does not have, or a value wider than its field, throws
 * InputError naming the field.
 */
export function packRsrc(generation: KdGeneration, reg: 'COMPUTE_PGM_RSRC1' | 'COMPUTE_PGM_RSRC2' | 'COMPUTE_PGM_RSRC3', fields: Readonly<Record<string, number>>): number {
  const layout = COMPUTE_PGM_RSRC_FIELDS[generation][reg] as readonly RsrcField[];
  let v = 0;
  for (const [name, x] of Object.entries(fields)) {
    const f = layout.find((q) => q.name === name);
    if (!f) throw new InputError(`${reg} has no field ${name} on ${generation}`);
    const w = f.hi - f.lo + 1;
    if (!Number.isInteger(x) || x < 0 || x >= 2 ** w) throw new InputError(`${reg}.${name} = ${x} does not fit in ${w} bits`);
    v = (v | (x << f.lo)) >>> 0;
  }
  return v;
}

/** The 64 descriptor bytes for `fields` (the inverse of decodeKernelDescriptor). */
export function encodeKernelDescriptor(generation: KdGeneration, fields: KernelDescriptorFields): Uint8Array {
  const out = new Uint8Array(KD_SIZE);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, fields.group_segment_fixed_size, true);
  dv.setUint32(4, fields.private_segment_fixed_size, true);
  dv.setUint32(8, fields.kernarg_size, true);
  const e = fields.kernel_code_entry_byte_offset;
  dv.setUint32(16, e >>> 0, true);
  dv.setInt32(20, Math.floor(e / 0x100000000), true);
  dv.setUint32(44, packRsrc(generation, 'COMPUTE_PGM_RSRC3', fields.rsrc3), true);
  dv.setUint32(48, packRsrc(generation, 'COMPUTE_PGM_RSRC1', fields.rsrc1), true);
  dv.setUint32(52, packRsrc(generation, 'COMPUTE_PGM_RSRC2', fields.rsrc2), true);
  let props = 0;
  for (const [k, on] of Object.entries(fields.properties)) if (on) props |= 1 << KERNEL_CODE_PROPERTY[k as KernelCodeProperty];
  dv.setUint16(56, props, true);
  dv.setUint16(58, fields.kernarg_preload ?? 0, true);
  return out;
}
