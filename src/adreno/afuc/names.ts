/**
 * Register and packet names as freedreno's afuc tools (afuc-asm, afuc-disasm) spell them, from
 * the generated register database: control registers `@NAME`, SQE registers `%NAME`, pipe
 * registers `|NAME`, GPU registers in comments (`CP_SCRATCH[0].REG`, `CP_SCRATCH[0x2].REG`: the
 * rules-ng decoder prints array indices with C's `%#x`, so index 0 has no `0x`), the high dword
 * of a 64-bit register as `NAME+0x1` (`NAME_HI` for address types), and packet names
 * by type-7 opcode for the firmware's generation.
 */
import { DOMAINS, ENUMS } from '../regs/db.gen.js';
import { enumName, genBit, registerSpace } from '../regs/db.js';
import { AFUC_GPU_REGS, type AfucGpuEl } from './afuc.gen.js';
import type { AfucGen } from './isa.js';

/** The register spaces one firmware's tools use (afuc-disasm picks them by firmware id). */
export interface AfucChip {
  readonly gen: AfucGen;
  readonly g: 'a5xx' | 'a6xx' | 'a7xx';
  readonly control: string;
  readonly pipe: string;
  readonly sqe: string;
}

/** The spaces of a generation; `control` overrides its control registers (a750's firmware has its own). */
export function chipForGen(g: 'a5xx' | 'a6xx' | 'a7xx', control?: string): AfucChip {
  const gen: AfucGen = g === 'a5xx' ? 5 : g === 'a7xx' ? 7 : 6;
  return { gen, g, control: control ?? `${g.toUpperCase()}_CONTROL_REG`, pipe: `${g.toUpperCase()}_PIPE_REG`, sqe: 'A6XX_SQE_REG' };
}

/** `0x%03x` as the afuc tools print an unnamed register offset. */
export const hex3 = (v: number): string => `0x${v.toString(16).padStart(3, '0')}`;

/** C's `%#x`: `0` for zero, else `0x...`. */
const altHex = (v: number): string => (v ? `0x${v.toString(16)}` : '0');

/** Name of a register in one of the small CP spaces (no arrays there), or undefined. */
function smallSpaceName(domain: string, v: number, chip: AfucChip): string | undefined {
  if (!DOMAINS[domain]) return undefined;
  const sp = registerSpace(domain, chip.g);
  const r = sp.at(v);
  if (r) return r.name;
  const h = sp.highHalfAt(v);
  return h ? `${h.name}+0x1` : undefined;
}

export const controlRegName = (v: number, chip: AfucChip): string | undefined => smallSpaceName(chip.control, v, chip);
export const sqeRegName = (v: number, chip: AfucChip): string | undefined => smallSpaceName(chip.sqe, v, chip);
export const pipeRegName = (v: number, chip: AfucChip): string | undefined => smallSpaceName(chip.pipe, v, chip);

function smallSpaceOffset(domain: string, name: string, chip: AfucChip): number | undefined {
  if (!DOMAINS[domain]) return undefined;
  for (const r of DOMAINS[domain]!.regs) if (r[1] === name && r[4] & genBit(chip.g)) return r[0];
  return undefined;
}

export const controlRegOffset = (name: string, chip: AfucChip): number | undefined => smallSpaceOffset(chip.control, name, chip);
export const sqeRegOffset = (name: string, chip: AfucChip): number | undefined => smallSpaceOffset(chip.sqe, name, chip);

/** The first element covering `addr`, named as the rules-ng decoder names it (document order). */
function tryMatch(els: readonly AfucGpuEl[], addr: number): string | undefined {
  for (const e of els) {
    if (e.length === 3) {
      if (addr === e[0]) return e[1];
      if (e[2] && addr === e[0] + 1) return e[2];
      continue;
    }
    const [off, name, stride, length, inner] = e;
    if (addr < off || !stride) continue;
    const idx = Math.floor((addr - off) / stride);
    if (idx >= length) continue;
    const o = (addr - off) % stride;
    const base = length !== 1 ? `${name}[${altHex(idx)}]` : name;
    const child = tryMatch(inner, o);
    return child !== undefined ? `${base}.${child}` : `${base}+${altHex(o)}`;
  }
  return undefined;
}

const gpuNameCache = new Map<string, Map<number, string | undefined>>();

/** GPU register name for an immediate, or undefined (afuc-disasm annotates offsets >= 0x100 only). */
export function gpuRegName(v: number, chip: AfucChip): string | undefined {
  if (v < 0x100) return undefined;
  let m = gpuNameCache.get(chip.g);
  if (!m) gpuNameCache.set(chip.g, (m = new Map()));
  const k = v >>> 0;
  if (!m.has(k)) m.set(k, tryMatch(AFUC_GPU_REGS[chip.g], k));
  return m.get(k);
}

/** Packet name of a type-7 opcode (or one of the SQE's internal entries) for the chip. */
export function packetName(id: number, chip: AfucChip): string | undefined {
  return enumName('adreno_pm4_type3_packets', id, chip.g);
}

/** Packet id of a name on any generation (afuc-asm matches jump-table labels without variants), or -1. */
export function packetId(name: string): number {
  for (const [v, n] of ENUMS['adreno_pm4_type3_packets'] ?? []) if (n === name) return v;
  return -1;
}
