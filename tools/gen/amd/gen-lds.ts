/**
 * Generator: each generation's LDS allocation facts, read off LLVM 19 by compiling probes with
 * llc-19 for amdpal (whose PAL metadata holds the register values LLVM programs):
 * - the LDS_SIZE granule of COMPUTE_PGM_RSRC2 (an amdgpu_cs function with 512 and 516 bytes of LDS),
 * - the EXTRA_LDS_SIZE granule of SPI_SHADER_PGM_RSRC2_PS (the same for an amdgpu_ps function:
 *   GFX11 counts it in 1 KiB blocks, GFX9/GFX10.3 in 512 bytes),
 * - the most LDS a workgroup may have (llc's "local memory (N) exceeds limit (L)"),
 * with the field positions from Mesa's register database (../shared/ref/mesa-amd-registers/
 * gfx9.json, gfx103.json, gfx11.json). The allocation block (what the hardware rounds an
 * allocation up to; accesses past it are out of range) is not something LLVM programs: it is the
 * sourced ALLOC_BLOCK table below, and so is the unit HW_REG_LDS_ALLOC reports a wave's allocation in
 * (HWREG_LDS_GRANULE; the field is SQ_WAVE_LDS_ALLOC.LDS_SIZE of Mesa's database).
 * Writes src/amd/exec/lds-alloc.gen.ts.
 * Run: `npm run gen -- lds`.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cached, llvmVersion } from '../llvm.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const LLC = process.env.LLC ?? 'llc-19';

function sharedRef(): string {
  return process.env.GPUSIM_SHARED_REF ?? join(ROOT, '..', 'shared', 'ref');
}

interface MesaDb { register_types: Record<string, { fields: { name: string; bits: [number, number] }[] }> }

const TARGETS = [
  { mcpu: 'gfx900', gfx: 9, db: 'gfx9.json' },
  { mcpu: 'gfx1030', gfx: 10, db: 'gfx103.json' },
  { mcpu: 'gfx1100', gfx: 11, db: 'gfx11.json' },
] as const;

/**
 * Allocation block in bytes. GFX11: the RDNA3 wave-state document (../shared/seeds/001_*.txt,
 * "LDS"): a wave allocates 0-64 KiB in 1024-byte blocks. GFX10.3: Mesa's radeon_info
 * lds_alloc_granularity (1 KiB from GFX10.3 on). GFX9: the same field is the LDS_SIZE encoding
 * granule there (512 bytes, below).
 */
const ALLOC_BLOCK: Readonly<Record<string, number | 'encode'>> = { gfx900: 'encode', gfx1030: 1024, gfx1100: 1024 };

/**
 * Bytes per unit of HW_REG_LDS_ALLOC.LDS_SIZE, what s_getreg reads back of the wave's allocation.
 * Not in LLVM or Mesa: AMD's context-save trap handlers in Linux (drivers/gpu/drm/amd/amdkfd,
 * cwsr_trap_handler_gfx9.asm and cwsr_trap_handler_gfx10.asm, which serves GFX10 and GFX11) save
 * and restore LDS_SIZE * 64 dwords, i.e. 256 bytes per unit, on all three generations; only GFX12
 * counts 512 bytes (the "512 bytes (>= gfx12) vs 256 (< gfx12)" fix of that handler). So the unit is
 * the same here, and what differs per generation is the allocation it counts (ALLOC_BLOCK).
 */
const HWREG_LDS_GRANULE: Readonly<Record<string, number>> = { gfx900: 256, gfx1030: 256, gfx1100: 256 };

function field(db: MesaDb, reg: string, name: string): { lo: number; width: number } {
  const f = db.register_types[reg]!.fields.find((x) => x.name === name)!;
  return { lo: f.bits[0], width: f.bits[1] - f.bits[0] + 1 };
}

/** llc's --version text (part of its cached answers' key). */
let llcId: string | undefined;

/** Run llc on an IR module; returns stdout and stderr (remembered in the LLVM answer cache, llvm.ts). */
function llc(mcpu: string, ir: string): { out: string; err: string } {
  if (llcId === undefined) {
    const v = spawnSync(LLC, ['--version'], { encoding: 'utf8' });
    // The spawn's own error (ENOENT, the tool's path): gen-check reads it as a missing input.
    if (v.error) throw v.error;
    llcId = v.stdout ?? '';
  }
  const args = ['-mtriple=amdgcn--amdpal', `-mcpu=${mcpu}`, '-o', '-'];
  return JSON.parse(cached(['llc', llcId, ...args, ir], () => {
    const r = spawnSync(LLC, args, { input: ir, encoding: 'utf8' });
    if (r.error) throw new Error(`LLVM 19 (${LLC}) is not installed: ${r.error.message}`);
    return JSON.stringify({ out: r.stdout ?? '', err: r.stderr ?? '' });
  })) as { out: string; err: string };
}

function module(cc: 'amdgpu_cs' | 'amdgpu_ps', dwords: number): string {
  const ret = cc === 'amdgpu_ps' ? 'float' : 'void';
  return [
    `@lds = internal addrspace(3) global [${dwords} x i32] poison, align 4`,
    `define ${cc} ${ret} @f(i32 %i) {`,
    `  %p = getelementptr [${dwords} x i32], ptr addrspace(3) @lds, i32 0, i32 %i`,
    '  store i32 7, ptr addrspace(3) %p',
    cc === 'amdgpu_ps' ? '  ret float 0.0' : '  ret void',
    '}',
    '',
  ].join('\n');
}

/** The PAL metadata value of register `reg` (its `0xNNNN (NAME)` key). */
function palReg(out: string, reg: string): number {
  const m = new RegExp(`'0x[0-9a-f]+ \\(${reg}\\)':\\s*(0x[0-9a-f]+|\\d+)`).exec(out);
  if (!m) throw new Error(`no ${reg} in llc's PAL metadata`);
  return Number(m[1]);
}

/** The granule LLVM encodes `bytes` of LDS in: compile 512 and 516 bytes and divide. */
function granule(mcpu: string, cc: 'amdgpu_cs' | 'amdgpu_ps', reg: string, f: { lo: number; width: number }): number {
  const units = [128, 129, 300].map((n) => (palReg(llc(mcpu, module(cc, n)).out, reg) >>> f.lo) & ((1 << f.width) - 1));
  for (const g of [256, 512, 1024, 2048]) {
    if ([128, 129, 300].every((n, i) => Math.ceil((4 * n) / g) === units[i])) return g;
  }
  throw new Error(`${mcpu} ${reg}: no granule fits ${units.join(', ')}`);
}

export function generate(): Record<string, string> {
  const lines = [
    '/**',
    ` * LDS allocation per generation. GENERATED by tools/gen/amd/gen-lds.ts from llc ${llvmVersion()} (amdpal register`,
    ' * values and its LDS limit) and Mesa\'s register database (field positions); the allocation block is',
    ' * sourced in the generator. Do not edit; run `npm run gen -- lds`.',
    ' */',
    '',
    '/** A register field: low bit and width. */',
    'export interface LdsField { readonly lo: number; readonly width: number }',
    '',
    'export interface LdsAlloc {',
    '  /** Bytes per unit of COMPUTE_PGM_RSRC2.LDS_SIZE (and the GS LDS_SIZE). */',
    '  readonly ldsSizeGranule: number;',
    '  /** Bytes per unit of SPI_SHADER_PGM_RSRC2_PS.EXTRA_LDS_SIZE. */',
    '  readonly psExtraGranule: number;',
    '  /** The hardware allocation block: an allocation is rounded up to it. */',
    '  readonly allocBlock: number;',
    '  /** The most LDS one workgroup (or PS wave) may have. */',
    '  readonly maxBytes: number;',
    '  readonly COMPUTE_LDS_SIZE: LdsField;',
    '  readonly PS_EXTRA_LDS_SIZE: LdsField;',
    '  /** HW_REG_LDS_ALLOC.LDS_SIZE: the wave\'s allocation (rounded to allocBlock) in units of hwregLdsGranule bytes. */',
    '  readonly HWREG_LDS_SIZE: LdsField;',
    '  readonly hwregLdsGranule: number;',
    '}',
    '',
    '/** By generation (9: gfx900, 10: gfx1030, 11: gfx1100). */',
    'export const LDS_ALLOC: Readonly<Record<9 | 10 | 11, LdsAlloc>> = {',
  ];
  for (const t of TARGETS) {
    const db = JSON.parse(readFileSync(join(sharedRef(), 'mesa-amd-registers', t.db), 'utf8')) as MesaDb;
    const cs = field(db, 'COMPUTE_PGM_RSRC2', 'LDS_SIZE');
    const ps = field(db, 'SPI_SHADER_PGM_RSRC2_PS', 'EXTRA_LDS_SIZE');
    const hw = field(db, 'SQ_WAVE_LDS_ALLOC', 'LDS_SIZE');
    const csG = granule(t.mcpu, 'amdgpu_cs', 'COMPUTE_PGM_RSRC2', cs);
    const psG = granule(t.mcpu, 'amdgpu_ps', 'SPI_SHADER_PGM_RSRC2_PS', ps);
    const lim = /local memory \((\d+)\) exceeds limit \((\d+)\)/.exec(llc(t.mcpu, module('amdgpu_cs', 16385)).err);
    if (!lim) throw new Error(`${t.mcpu}: llc accepted 65540 bytes of LDS`);
    const block = ALLOC_BLOCK[t.mcpu]!;
    lines.push(
      `  ${t.gfx}: { ldsSizeGranule: ${csG}, psExtraGranule: ${psG}, allocBlock: ${block === 'encode' ? csG : block}, maxBytes: ${lim[2]}, ` +
      `COMPUTE_LDS_SIZE: { lo: ${cs.lo}, width: ${cs.width} }, PS_EXTRA_LDS_SIZE: { lo: ${ps.lo}, width: ${ps.width} }, ` +
      `HWREG_LDS_SIZE: { lo: ${hw.lo}, width: ${hw.width} }, hwregLdsGranule: ${HWREG_LDS_GRANULE[t.mcpu]!} },`,
    );
  }
  lines.push('};', '');
  return { 'src/amd/exec/lds-alloc.gen.ts': lines.join('\n') };
}
