/** `gpusim info <file.co>`: what a code object holds: target, kernels, descriptors, resources, arguments. */
import { readFileSync } from 'node:fs';
import type { Command } from '../command.js';
import { EXIT_OK } from '../command.js';
import { UsageError, hex } from '../../core/errors.js';
import { loadCodeObject, type CodeObject, type CodeObjectKernel } from '../../formats/amdgpu/codeobject.js';

const HELP = `usage: gpusim info <file.co> [--json] [--kernel NAME]

Print what an AMDGPU code object (ld.lld -shared output, or a clang -c relocatable object) holds:
the target processor and features, the code object version, and for each kernel its kernel
descriptor fields, resource usage (VGPRs, SGPRs, LDS, scratch, wave size), the initial SGPR/VGPR
layout and the argument list from the metadata.

options:
  --json          print the full decoded object as JSON
  --kernel NAME   only this kernel (error if there is no such kernel)
`;

/** A JSON-friendly copy of the decoded code object (no ELF bytes). */
function toJson(co: CodeObject, kernels: readonly CodeObjectKernel[]): unknown {
  return {
    file: co.name,
    relocatable: co.relocatable,
    codeObjectVersion: co.codeObjectVersion,
    target: co.target,
    elf: { header: co.elf.header, sections: co.elf.sections.map((s) => ({ index: s.index, name: s.name, type: s.type, addr: s.addr, offset: s.offset, size: s.size })) },
    text: co.text ? { address: co.text.address, offset: co.text.section.offset, size: co.text.section.size } : null,
    metadataVersion: co.metadata?.version ?? null,
    kernels: kernels.map((k) => ({
      name: k.name, kdSymbol: k.kdSymbol, kdOffset: k.kdOffset, kdAddress: k.kdAddress,
      entryOffset: k.entryOffset, entryAddress: k.entryAddress, codeSize: k.codeSize,
      kd: k.kd,
      metadata: k.metadata ? { ...k.metadata, raw: undefined, args: k.metadata.args.map((a) => ({ ...a, raw: undefined })) } : null,
    })),
  };
}

function yes(b: boolean | number): string {
  return b ? 'yes' : 'no';
}

function textKernel(k: CodeObjectKernel): string[] {
  const d = k.kd;
  const dv = d.derived;
  const m = k.metadata;
  const out: string[] = [];
  out.push(`kernel ${k.name}`);
  out.push(`  descriptor      ${k.kdSymbol} at ${hex(k.kdAddress)} (file offset ${hex(k.kdOffset)})`);
  out.push(`  entry           ${hex(k.entryAddress)} (file offset ${hex(k.entryOffset)}, kernel_code_entry_byte_offset ${d.kernel_code_entry_byte_offset}), ${k.codeSize} bytes of code`);
  out.push(`  wave size       ${dv.waveSize}`);
  out.push(`  VGPRs           ${dv.vgprs} (granulated ${d.rsrc1.VGPRS}, granule ${dv.vgprGranule})${m ? `; metadata .vgpr_count ${m.vgpr_count}` : ''}`);
  out.push(`  SGPRs           ${dv.sgprs === undefined ? 'fixed allocation (GFX10+)' : dv.sgprs}${m ? `; metadata .sgpr_count ${m.sgpr_count}` : ''}`);
  out.push(`  LDS             ${d.group_segment_fixed_size} bytes fixed${m && m.args.some((a) => a.value_kind === 'dynamic_shared_pointer') ? ' + dynamic (__local arguments)' : ''}`);
  out.push(`  scratch         ${d.private_segment_fixed_size} bytes per work-item, ${dv.scratchEnabled ? 'enabled' : 'disabled'}${d.properties.USES_DYNAMIC_STACK ? ', dynamic stack' : ''}`);
  out.push(`  kernarg         ${d.kernarg_size} bytes${m ? `, align ${m.kernarg_segment_align}` : ''}`);
  if (m) out.push(`  workgroup       max ${m.max_flat_workgroup_size} work-items${m.reqd_workgroup_size ? `, required ${m.reqd_workgroup_size.join('x')}` : ''}`);
  const user = dv.userSgprs.map((r) => `${r.name} s${r.reg}${r.count > 1 ? `..s${r.reg + r.count - 1}` : ''}`).join(', ');
  out.push(`  user SGPRs      ${dv.userSgprCount}: ${user || 'none'}`);
  out.push(`  system SGPRs    ${dv.systemSgprs.map((r) => `${r.name} s${r.reg}`).join(', ') || 'none'}`);
  // GFX90A/GFX940 and GFX11+ deliver the ids packed in v0 (10 bits each); older GPUs use v0, v1, v2.
  const packed = d.generation === 'gfx940' || d.generation === 'gfx11' || d.generation === 'gfx12';
  const ids = ['X', 'X, Y', 'X, Y, Z', 'undefined (3)'][dv.workitemIdMode];
  out.push(`  workitem ids    ${ids}${packed ? ' packed in v0 (X bits 0-9, Y 10-19, Z 20-29)' : ' in v0, v1, v2'}`);
  out.push(`  RSRC1           ${hex(d.compute_pgm_rsrc1, 8)}  ${Object.entries(d.rsrc1).map(([n, v]) => `${n}=${v}`).join(' ')}`);
  out.push(`  RSRC2           ${hex(d.compute_pgm_rsrc2, 8)}  ${Object.entries(d.rsrc2).map(([n, v]) => `${n}=${v}`).join(' ')}`);
  if (Object.keys(d.rsrc3).length > 0) out.push(`  RSRC3           ${hex(d.compute_pgm_rsrc3, 8)}  ${Object.entries(d.rsrc3).map(([n, v]) => `${n}=${v}`).join(' ')}`);
  out.push(`  properties      ${hex(d.kernel_code_properties, 4)}  ${Object.entries(d.properties).filter(([, v]) => v).map(([n]) => n).join(' ') || 'none'}`);
  if (d.kernarg_preload) out.push(`  kernarg preload ${d.kernargPreload.length} SGPRs from dword ${d.kernargPreload.offset}`);
  out.push(`  float mode      round32=${d.amdhsa.float_round_mode_32} round16_64=${d.amdhsa.float_round_mode_16_64} denorm32=${d.amdhsa.float_denorm_mode_32} denorm16_64=${d.amdhsa.float_denorm_mode_16_64} ieee=${yes(d.amdhsa.ieee_mode ?? 0)} dx10_clamp=${yes(d.amdhsa.dx10_clamp ?? 0)}`);
  if (d.reservedNonZero.length) out.push(`  warning         reserved bits set: ${d.reservedNonZero.join('; ')}`);
  if (m) {
    out.push(`  arguments (${m.args.length})`);
    for (const a of m.args) {
      const extra = [a.address_space, a.access, a.is_const ? 'const' : '', a.is_volatile ? 'volatile' : ''].filter(Boolean).join(' ');
      out.push(`    +${String(a.offset).padEnd(4)} ${String(a.size).padStart(2)}B  ${a.value_kind.padEnd(22)} ${a.type_name ?? ''}${a.name ? ' ' + a.name : ''}${extra ? `  (${extra})` : ''}`);
    }
  }
  return out;
}

export const infoCommand: Command = {
  name: 'info',
  summary: 'show the target, kernels, descriptors and arguments of an AMDGPU code object',
  help: HELP,
  options: {
    json: { type: 'boolean' },
    kernel: { type: 'string' },
  },
  positionals: true,
  run(values, positionals, io) {
    if (positionals.length !== 1) throw new UsageError('info: expected exactly one code object file (see gpusim info --help)');
    const path = positionals[0]!;
    const co = loadCodeObject(new Uint8Array(readFileSync(path)), path);
    let kernels = co.kernels;
    const want = values.kernel as string | undefined;
    if (want !== undefined) {
      kernels = kernels.filter((k) => k.name === want || k.kdSymbol === want);
      if (kernels.length === 0) {
        throw new UsageError(`info: no kernel '${want}' in ${path} (kernels: ${co.kernels.map((k) => k.name).join(', ') || 'none'})`);
      }
    }
    if (values.json) {
      io.stdout(JSON.stringify(toJson(co, kernels), null, 2) + '\n');
      return EXIT_OK;
    }
    const t = co.target;
    const lines = [
      `${path}: AMDGPU code object v${co.codeObjectVersion}${co.relocatable ? ' (relocatable, not linked)' : ''}`,
      `target          ${t.mcpu}${t.features.length ? ' ' + t.features.join(' ') : ''}${t.triple ? `  (${t.triple})` : ''}`,
      `e_flags         ${hex(co.elf.header.flags)}  xnack ${t.xnack}, sramecc ${t.sramecc}`,
      `metadata        ${co.metadata ? `amdhsa.version ${co.metadata.version.join('.')}` : 'none'}`,
      `.text           ${co.text ? `${hex(co.text.address)}, ${co.text.section.size} bytes at file offset ${hex(co.text.section.offset)}` : 'none'}`,
      `kernels         ${co.kernels.length}`,
    ];
    for (const k of kernels) lines.push('', ...textKernel(k));
    io.stdout(lines.join('\n') + '\n');
    return EXIT_OK;
  },
};
