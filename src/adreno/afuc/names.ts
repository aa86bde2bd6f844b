/**
 * Register and packet names as freedreno's afuc tools (afuc-asm, afuc-disasm) spell them, from
 * the generated register database: control registers `@NAME`, SQE registers `%NAME`, pipe
 * registers `|NAME`, GPU registers in comments (`CP_SCRATCH[0].REG`, `CP_SCRATCH[0x2].REG`: the
 * rules-ng decoder prints array indices with C's `%#x`, so index 0 has no `0x`), the high dword
 * of a 64-bit register as `NAME+0x1` (`NAME_HI` for address types), and packet names
 * by type-7 opcode for the firmware's generation.
 */
import { DOMAINS, ENUMS } from '../regs/db.gen.js';
import { enumName, genBit, mainDomain, registerSpace, type Gen } from '../regs/db.js';
import { fwIdInfo } from './fwfile.js';
import type { AfucGen } from './isa.js';

/** The register spaces one firmware's tools use (afuc-disasm picks them by firmware id). */
export interface AfucChip {
  readonly gen: AfucGen;
  readonly g: 'a5xx' | 'a6xx' | 'a7xx';
  readonly control: string;
  readonly pipe: string;
  readonly sqe: string;
}

export function chipForGen(g: 'a5xx' | 'a6xx' | 'a7xx', fwId?: number): AfucChip {
  const info = fwId !== undefined ? fwIdInfo(fwId) : undefined;
  const gg = info?.gen ?? g;
  const gen: AfucGen = gg === 'a5xx' ? 5 : gg === 'a7xx' ? 7 : 6;
  const control = info?.controlDomain ?? `${gg.toUpperCase()}_CONTROL_REG`;
  return { gen, g: gg, control, pipe: `${gg.toUpperCase()}_PIPE_REG`, sqe: 'A6XX_SQE_REG' };
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

const gpuNameCache = new Map<string, Map<number, string>>();

/** GPU register names by offset, as the rules-ng decoder prints them, for a generation. */
function gpuNames(g: Gen): Map<number, string> {
  let m = gpuNameCache.get(g);
  if (m) return m;
  m = new Map();
  const bit = genBit(g);
  for (const dn of [mainDomain(g), 'AXXX']) {
    for (const [off, name, width, type, mask, , stride, length] of DOMAINS[dn]?.regs ?? []) {
      if (!(mask & bit)) continue;
      const put = (o: number, n: string): void => void (m!.has(o) || m!.set(o, n));
      const hi = (n: string): string => (type === 'address' || type === 'waddress' ? `${n}_HI` : `${n}+0x1`);
      if (!length) {
        put(off, name);
        if (width === 64) put(off + 1, hi(name));
        continue;
      }
      for (let i = 0; i < length; i++) {
        const o = off + i * stride;
        if (name.endsWith('[]')) {
          // An array without registers inside: the element and its offset in it.
          for (let k = 0; k < Math.max(1, stride); k++) put(o + k, `${name.slice(0, -2)}[${altHex(i)}]+${altHex(k)}`);
          continue;
        }
        const n = name.replace('[]', `[${altHex(i)}]`);
        put(o, n);
        if (width === 64) put(o + 1, hi(n));
      }
    }
  }
  gpuNameCache.set(g, m);
  return m;
}

/** GPU register name for an immediate, or undefined (afuc-disasm annotates offsets >= 0x100 only). */
export function gpuRegName(v: number, chip: AfucChip): string | undefined {
  if (v < 0x100) return undefined;
  return gpuNames(chip.g).get(v >>> 0);
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
