/**
 * The `.amdhsa_kernel NAME` ... `.end_amdhsa_kernel` block of LLVM's AMDGPU assembler: the
 * `.amdhsa_*` directives a hand-written kernel needs, turned into the 64-byte kernel descriptor as
 * llvm-mc-19 computes it (defaults, implied user SGPR count, VGPR/SGPR granules per generation,
 * the extra SGPRs GFX9 reserves for VCC, FLAT_SCRATCH and the XNACK mask). The register fields
 * are placed with the generated Mesa layouts (formats/amdgpu/rsrc.gen.ts). Checked field by field
 * against llvm-mc-19 + ld.lld-19 in test/amd/asm-codeobject.test.ts.
 */
import { AsmError } from './types.js';
import { encodeKernelDescriptor, type KdGeneration, type KernelCodeProperty } from '../../formats/amdgpu/kd.js';

/** One `.amdhsa_*` directive of a block: its value and line. */
export interface AmdhsaDirective {
  readonly value: number;
  readonly line: number;
}

/** A parsed `.amdhsa_kernel` block. */
export interface AmdhsaKernelBlock {
  readonly name: string;
  /** Lines of `.amdhsa_kernel` and `.end_amdhsa_kernel`. */
  readonly line: number;
  readonly endLine: number;
  /** Directive name without the `.amdhsa_` prefix -> value. */
  readonly directives: ReadonlyMap<string, AmdhsaDirective>;
}

/** What a block computes: the descriptor (entry offset still 0) and the resource figures metadata states. */
export interface AmdhsaKernel {
  readonly name: string;
  /** 64 bytes; kernel_code_entry_byte_offset (bytes 16..23) is filled when the code object is laid out. */
  readonly descriptor: Uint8Array;
  readonly waveSize: 32 | 64;
  readonly kernargSize: number;
  readonly groupSegmentFixedSize: number;
  readonly privateSegmentFixedSize: number;
  /** SGPRs the wave uses, with the ones reserved for VCC/FLAT_SCRATCH/XNACK (metadata .sgpr_count). */
  readonly sgprCount: number;
  /** `.amdhsa_next_free_vgpr` (metadata .vgpr_count). */
  readonly vgprCount: number;
}

/** User SGPR enables: directive -> [kernel_code_properties bit, SGPRs]. In hardware order. */
const USER_SGPRS: readonly (readonly [string, KernelCodeProperty, number])[] = [
  ['user_sgpr_private_segment_buffer', 'ENABLE_SGPR_PRIVATE_SEGMENT_BUFFER', 4],
  ['user_sgpr_dispatch_ptr', 'ENABLE_SGPR_DISPATCH_PTR', 2],
  ['user_sgpr_queue_ptr', 'ENABLE_SGPR_QUEUE_PTR', 2],
  ['user_sgpr_kernarg_segment_ptr', 'ENABLE_SGPR_KERNARG_SEGMENT_PTR', 2],
  ['user_sgpr_dispatch_id', 'ENABLE_SGPR_DISPATCH_ID', 2],
  ['user_sgpr_flat_scratch_init', 'ENABLE_SGPR_FLAT_SCRATCH_INIT', 2],
  ['user_sgpr_private_segment_size', 'ENABLE_SGPR_PRIVATE_SEGMENT_SIZE', 1],
];

/** Bit directives of RSRC1/RSRC2 -> [register, field, bit within the field]. */
const BIT_FIELDS: Readonly<Record<string, readonly ['rsrc1' | 'rsrc2', string, number]>> = {
  system_sgpr_workgroup_id_x: ['rsrc2', 'TGID_X_EN', 0],
  system_sgpr_workgroup_id_y: ['rsrc2', 'TGID_Y_EN', 0],
  system_sgpr_workgroup_id_z: ['rsrc2', 'TGID_Z_EN', 0],
  system_sgpr_workgroup_info: ['rsrc2', 'TG_SIZE_EN', 0],
  enable_private_segment: ['rsrc2', 'SCRATCH_EN', 0],
  system_sgpr_private_segment_wavefront_offset: ['rsrc2', 'SCRATCH_EN', 0],
  exception_fp_ieee_invalid_op: ['rsrc2', 'EXCP_EN', 0],
  exception_fp_denorm_src: ['rsrc2', 'EXCP_EN', 1],
  exception_fp_ieee_div_zero: ['rsrc2', 'EXCP_EN', 2],
  exception_fp_ieee_overflow: ['rsrc2', 'EXCP_EN', 3],
  exception_fp_ieee_underflow: ['rsrc2', 'EXCP_EN', 4],
  exception_fp_ieee_inexact: ['rsrc2', 'EXCP_EN', 5],
  exception_int_div_zero: ['rsrc2', 'EXCP_EN', 6],
  dx10_clamp: ['rsrc1', 'DX10_CLAMP', 0],
  ieee_mode: ['rsrc1', 'IEEE_MODE', 0],
  fp16_overflow: ['rsrc1', 'FP16_OVFL', 0],
  workgroup_processor_mode: ['rsrc1', 'WGP_MODE', 0],
  memory_ordered: ['rsrc1', 'MEM_ORDERED', 0],
  forward_progress: ['rsrc1', 'FWD_PROGRESS', 0],
};

/** Two-bit float mode directives -> bit offset in RSRC1 FLOAT_MODE. */
const FLOAT_MODES: Readonly<Record<string, number>> = {
  float_round_mode_32: 0, float_round_mode_16_64: 2, float_denorm_mode_32: 4, float_denorm_mode_16_64: 6,
};

/** Directives taken as plain numbers (sizes, counts) and the largest value each takes. */
const NUMBERS: Readonly<Record<string, number>> = {
  next_free_vgpr: 0xffff, next_free_sgpr: 0xffff, user_sgpr_count: 31, group_segment_fixed_size: 0xffffffff,
  private_segment_fixed_size: 0xffffffff, kernarg_size: 0xffffffff, system_vgpr_workitem_id: 2,
  reserve_vcc: 1, reserve_flat_scratch: 1, reserve_xnack_mask: 1, wavefront_size32: 1, uses_dynamic_stack: 1,
  shared_vgpr_count: 15,
};

/** Every directive name gpusim takes inside a block (without `.amdhsa_`). */
export const AMDHSA_DIRECTIVES: readonly string[] = [
  ...Object.keys(NUMBERS), ...USER_SGPRS.map((u) => u[0]), ...Object.keys(BIT_FIELDS), ...Object.keys(FLOAT_MODES),
];

const GFX10_PLUS_ONLY = new Set(['wavefront_size32', 'workgroup_processor_mode', 'memory_ordered', 'forward_progress', 'shared_vgpr_count']);
/** Directives of the scratch setup that targets with architected flat scratch (GFX11) do not take. */
const NOT_WITH_ARCH_FLAT_SCRATCH = new Set(['system_sgpr_private_segment_wavefront_offset', 'user_sgpr_flat_scratch_init', 'user_sgpr_private_segment_buffer', 'reserve_flat_scratch']);

function isGfx9(g: KdGeneration): boolean {
  return g === 'gfx9' || g === 'gfx940';
}

/** GFX11+ (and GFX940) set up scratch in hardware: no flat scratch init, buffer or wave offset SGPRs. */
function architectedFlatScratch(g: KdGeneration): boolean {
  return g === 'gfx11' || g === 'gfx12' || g === 'gfx940';
}

/**
 * Check one directive as it is read, as llvm-mc does: known name, the generation takes it, the
 * value fits; `xnack` is whether the target has XNACK on or any (`.amdhsa_reserve_xnack_mask` must
 * say the same). The error names the line (AsmError).
 */
export function checkAmdhsaDirective(generation: KdGeneration, name: string, value: number, line: number, xnack = false): void {
  const d = `.amdhsa_${name}`;
  if (!AMDHSA_DIRECTIVES.includes(name)) {
    const known = name === 'accum_offset' || name.startsWith('kernarg_preload') || name === 'inst_pref_size' || name.startsWith('trap_on') || name === 'tg_split';
    throw new AsmError(line, known ? `${d} is not supported by gpusim's assembler` : `unknown directive ${d}`);
  }
  if (GFX10_PLUS_ONLY.has(name) && isGfx9(generation)) throw new AsmError(line, `${d} requires GFX10 or later`);
  if (name === 'shared_vgpr_count' && generation === 'gfx12') throw new AsmError(line, `${d} exists on GFX10 and GFX11 only`);
  if (NOT_WITH_ARCH_FLAT_SCRATCH.has(name) && architectedFlatScratch(generation)) throw new AsmError(line, `${d} is not supported with architected flat scratch (${generation})`);
  if (name === 'enable_private_segment' && !architectedFlatScratch(generation)) {
    throw new AsmError(line, `${d} needs architected flat scratch (GFX11); ${generation} spells it .amdhsa_system_sgpr_private_segment_wavefront_offset`);
  }
  const max = NUMBERS[name] ?? (name in FLOAT_MODES ? 3 : 1);
  if (!Number.isInteger(value) || value < 0 || value > max) throw new AsmError(line, `${d} value ${value} out of range (0..${max})`);
  if (name === 'reserve_xnack_mask' && value !== +xnack) throw new AsmError(line, `${d} ${value} does not match the target (XNACK ${xnack ? 'on or any' : 'off or unsupported'})`);
  if (name === 'next_free_sgpr' && isGfx9(generation) && value > 102) throw new AsmError(line, `${d} ${value} is more than the 102 SGPRs GFX9 can address`);
}

/**
 * The kernel descriptor of a block, as llvm-mc computes it. `wave32Default` is the text's wave
 * size (the target's default or `--wave`); `xnack` whether the target reserves the XNACK mask
 * (GFX9 with xnack on or any). Errors name the block's lines.
 */
export function amdhsaKernel(generation: KdGeneration, b: AmdhsaKernelBlock, wave32Default: boolean, xnack: boolean): AmdhsaKernel {
  const gfx9 = isGfx9(generation);
  const get = (n: string): number | undefined => b.directives.get(n)?.value;
  const nextVgpr = get('next_free_vgpr');
  const nextSgpr = get('next_free_sgpr');
  if (nextVgpr === undefined) throw new AsmError(b.endLine, `.amdhsa_kernel ${b.name}: .amdhsa_next_free_vgpr directive is required`);
  if (nextSgpr === undefined) throw new AsmError(b.endLine, `.amdhsa_kernel ${b.name}: .amdhsa_next_free_sgpr directive is required`);

  const rsrc1: Record<string, number> = { FLOAT_MODE: 3 << 6 };
  if (generation !== 'gfx12') { rsrc1.DX10_CLAMP = 1; rsrc1.IEEE_MODE = 1; }
  if (!gfx9) { rsrc1.WGP_MODE = 1; rsrc1.MEM_ORDERED = 1; }
  const rsrc2: Record<string, number> = { TGID_X_EN: 1 };
  const rsrc3: Record<string, number> = {};
  const wave32 = gfx9 ? false : (get('wavefront_size32') ?? +wave32Default) === 1;
  const props: Partial<Record<KernelCodeProperty, boolean>> = { ENABLE_WAVEFRONT_SIZE32: wave32 };
  if (get('uses_dynamic_stack') === 1) props.USES_DYNAMIC_STACK = true;

  let implied = 0;
  for (const [d, bit, n] of USER_SGPRS) {
    if (get(d) === 1) { props[bit] = true; implied += n; }
  }
  for (const [d, [reg, field, bit]] of Object.entries(BIT_FIELDS)) {
    const v = get(d);
    if (v === undefined) continue;
    const r = reg === 'rsrc1' ? rsrc1 : rsrc2;
    r[field] = ((r[field] ?? 0) & ~(1 << bit)) | (v << bit);
  }
  for (const [d, at] of Object.entries(FLOAT_MODES)) {
    const v = get(d);
    if (v !== undefined) rsrc1.FLOAT_MODE = (rsrc1.FLOAT_MODE! & ~(3 << at)) | (v << at);
  }
  const tid = get('system_vgpr_workitem_id');
  if (tid !== undefined) rsrc2.TIDIG_COMP_CNT = tid;
  const shared = get('shared_vgpr_count');
  if (shared !== undefined) rsrc3.SHARED_VGPR_CNT = shared;

  const userCount = get('user_sgpr_count');
  if (userCount !== undefined && userCount < implied) {
    throw new AsmError(b.directives.get('user_sgpr_count')!.line, `.amdhsa_user_sgpr_count ${userCount} is smaller than the ${implied} user SGPRs the enabled .amdhsa_user_sgpr_* directives need`);
  }
  rsrc2.USER_SGPR = userCount ?? implied;

  // VGPRs: granule 4 on GFX9 and GFX10+ wave64, 8 on GFX10+ wave32 (GFX90A/GFX940: 8).
  const vgprGranule = generation === 'gfx940' || (!gfx9 && wave32) ? 8 : 4;
  const vgprBlocks = Math.ceil(Math.max(1, nextVgpr) / vgprGranule) - 1;
  if (vgprBlocks > 63) throw new AsmError(b.directives.get('next_free_vgpr')!.line, `.amdhsa_next_free_vgpr ${nextVgpr} is more than the ${64 * vgprGranule} VGPRs a wave${wave32 ? 32 : 64} can have`);
  rsrc1.VGPRS = vgprBlocks;
  // SGPRs: GFX10+ allocate a fixed file (the field stays 0); GFX9 adds VCC (2), or 4 with the
  // XNACK mask, or 6 with FLAT_SCRATCH, then counts in granules of 8.
  const vcc = (get('reserve_vcc') ?? 1) === 1;
  let extra = vcc ? 2 : 0;
  if (gfx9) {
    const flat = (get('reserve_flat_scratch') ?? 1) === 1;
    const xn = (get('reserve_xnack_mask') ?? +xnack) === 1;
    if (xn) extra = 4;
    if (flat) extra = 6;
  }
  const sgprCount = nextSgpr + extra;
  if (gfx9) rsrc1.SGPRS = Math.ceil(Math.max(1, sgprCount) / 8) - 1;

  const descriptor = encodeKernelDescriptor(generation, {
    group_segment_fixed_size: get('group_segment_fixed_size') ?? 0,
    private_segment_fixed_size: get('private_segment_fixed_size') ?? 0,
    kernarg_size: get('kernarg_size') ?? 0,
    kernel_code_entry_byte_offset: 0,
    rsrc1, rsrc2, rsrc3, properties: props,
  });
  return {
    name: b.name, descriptor, waveSize: wave32 ? 32 : 64,
    kernargSize: get('kernarg_size') ?? 0,
    groupSegmentFixedSize: get('group_segment_fixed_size') ?? 0,
    privateSegmentFixedSize: get('private_segment_fixed_size') ?? 0,
    sgprCount, vgprCount: nextVgpr,
  };
}
