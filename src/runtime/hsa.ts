/**
 * The HSA side of a dispatch, as ROCm's runtime fills it: the kernarg segment (explicit arguments
 * at their metadata offsets, then the hidden arguments the metadata asks for) and the 64-byte
 * hsa_kernel_dispatch_packet_t that `dispatch_ptr` points at.
 */
import type { Memory } from '../core/memory.js';
import { InputError } from '../core/errors.js';
import type { CodeObjectKernel } from '../formats/amdgpu/codeobject.js';
import type { KernelArgMetadata } from '../formats/amdgpu/metadata.js';
import { APERTURE } from '../amd/exec/vmem.js';

/** A value for one explicit kernel argument. */
export type ArgValue =
  | { readonly kind: 'pointer'; readonly va: number }
  | { readonly kind: 'bytes'; readonly bytes: Uint8Array }
  | { readonly kind: 'local'; readonly bytes: number };

export interface LaunchSetup {
  readonly kernargVa: number;
  readonly dispatchPacketVa: number;
  readonly queueVa: number;
  /** Total dynamic LDS (sum of `local` arguments, each aligned as the runtime does). */
  readonly dynamicLds: number;
}

export function setupLaunch(
  mem: Memory, kernel: CodeObjectKernel, args: readonly ArgValue[],
  grid: readonly [number, number, number], block: readonly [number, number, number],
  kernelObjectVa: number,
): LaunchSetup {
  const md = kernel.metadata;
  if (!md) throw new InputError(`kernel ${kernel.name} has no metadata: cannot lay out its arguments`);
  const explicit = md.args.filter((a) => !a.hidden);
  if (args.length !== explicit.length) {
    throw new InputError(`kernel ${kernel.name} takes ${explicit.length} arguments (${explicit.map((a) => a.name ?? a.value_kind).join(', ')}), ${args.length} given`);
  }
  const size = Math.max(md.kernarg_segment_size, 256);
  const ka = mem.alloc(size, 'kernarg', 64);
  const queue = mem.alloc(256, 'queue', 64);
  const pkt = mem.alloc(64, 'dispatch-packet', 64);
  const dv = ka.dv;
  // Dynamic LDS: each __local pointer argument gets the next offset after the static LDS.
  let lds = kernel.kd.group_segment_fixed_size;
  explicit.forEach((a, i) => {
    const v = args[i]!;
    const at = a.offset;
    if (v.kind === 'local') {
      if (a.value_kind !== 'dynamic_shared_pointer') throw new InputError(`argument ${i} (${a.name ?? ''}) is ${a.value_kind}, not a __local pointer`);
      lds = Math.ceil(lds / 16) * 16;
      writeU64(dv, at, lds);
      lds += v.bytes;
    } else if (v.kind === 'pointer') {
      if (a.value_kind !== 'global_buffer' && a.size !== 8) throw new InputError(`argument ${i} (${a.name ?? ''}) is ${a.value_kind}, not a buffer`);
      writeU64(dv, at, v.va);
    } else {
      if (v.bytes.length > a.size) throw new InputError(`argument ${i} (${a.name ?? ''}) is ${a.size} bytes, value has ${v.bytes.length}`);
      ka.u8.set(v.bytes, at);
    }
  });
  const dynamicLds = lds - kernel.kd.group_segment_fixed_size;
  const groups = [0, 1, 2].map((i) => Math.ceil(grid[i]! / block[i]!));
  const dims = grid[2] > 1 ? 3 : grid[1] > 1 ? 2 : 1;
  for (const a of md.args.filter((x) => x.hidden)) fillHidden(dv, a, grid, block, groups, dims, dynamicLds, queue.base);
  // hsa_kernel_dispatch_packet_t
  const p = pkt.dv;
  p.setUint16(0, 2 /* HSA_PACKET_TYPE_KERNEL_DISPATCH */, true);
  p.setUint16(2, dims, true);
  p.setUint16(4, block[0], true);
  p.setUint16(6, block[1], true);
  p.setUint16(8, block[2], true);
  p.setUint32(12, grid[0], true);
  p.setUint32(16, grid[1], true);
  p.setUint32(20, grid[2], true);
  p.setUint32(24, kernel.kd.private_segment_fixed_size, true);
  p.setUint32(28, kernel.kd.group_segment_fixed_size + dynamicLds, true);
  writeU64(p, 32, kernelObjectVa);
  writeU64(p, 40, ka.base);
  return { kernargVa: ka.base, dispatchPacketVa: pkt.base, queueVa: queue.base, dynamicLds };
}

function writeU64(dv: DataView, at: number, v: number): void {
  dv.setUint32(at, v % 0x1_0000_0000, true);
  dv.setUint32(at + 4, Math.floor(v / 0x1_0000_0000), true);
}

function fillHidden(
  dv: DataView, a: KernelArgMetadata, grid: readonly number[], block: readonly number[], groups: readonly number[],
  dims: number, dynamicLds: number, queueVa: number,
): void {
  const o = a.offset;
  const axis = { x: 0, y: 1, z: 2 } as Record<string, number>;
  const m = /^hidden_(block_count|group_size|remainder|global_offset)_([xyz])$/.exec(a.value_kind);
  if (m) {
    const i = axis[m[2]!]!;
    switch (m[1]) {
      case 'block_count': dv.setUint32(o, groups[i]!, true); return;
      case 'group_size': dv.setUint16(o, block[i]!, true); return;
      case 'remainder': dv.setUint16(o, grid[i]! % block[i]!, true); return;
      case 'global_offset': writeU64(dv, o, 0); return;
    }
  }
  switch (a.value_kind) {
    case 'hidden_grid_dims': dv.setUint16(o, dims, true); return;
    case 'hidden_dynamic_lds_size': dv.setUint32(o, dynamicLds, true); return;
    case 'hidden_private_base': dv.setUint32(o, Math.floor(APERTURE.PRIVATE / 0x1_0000_0000), true); return;
    case 'hidden_shared_base': dv.setUint32(o, Math.floor(APERTURE.SHARED / 0x1_0000_0000), true); return;
    case 'hidden_queue_ptr': writeU64(dv, o, queueVa); return;
    default: return; // printf buffer, hostcall, heap...: left zero (no such services in the model)
  }
}
