/**
 * Qualcomm SQE / PM4 firmware files (a530_pm4.fw, a630_sqe.fw, a650_sqe.fw, a660_sqe.fw,
 * a730_sqe.fw, a740_sqe.fw, gen70500_sqe.fw, a750's ...) read the way freedreno's afuc tools and
 * the msm kernel driver read them:
 *
 *   file dword 0      0x00000000, stripped by the kernel (it loads the rest at CP_SQE_INSTR_BASE)
 *   image word 0      version: firmware id in bits 12..23 (0x6ee a630, 0x6dc a650, 0x6dd a660,
 *                     0x730 a730, 0x740 a740, 0x512 gen70500, 0x520 a750, 0x5ff a530), the
 *                     release in bits 0..11 (the kernel requires >= 0x190 for a630's whereami)
 *   image word 1      the jump table's offset: low 16 bits on a5xx, a nop literal (0x01xxxxxx) on a6xx+
 *   ...               code; the 0x80-entry packet jump table, which the bootstrap copies into the
 *                     SQE with PACKET_TABLE_WRITE; on a7xx the BV and LPAC microcode follow,
 *                     32-byte aligned, found through BV_INSTR_BASE / LPAC_INSTR_BASE as the SQE
 *                     bootstrap programs them (a6xx LPAC: the CP_LPAC_SQE_INSTR_BASE register).
 *
 * Undecodable words with the top five bits clear (the version, the offset) execute as nop.
 */
import { InputError } from '../../core/errors.js';
import { Memory } from '../../core/memory.js';
import { Diagnostics } from '../../core/diagnostics.js';
import { gpuRegs, type Gen } from '../regs/db.js';
import { afucGen } from './isa.js';
import { AfucEmu } from './emu.js';

export interface FwId {
  readonly id: number;
  /** Chip the microcode is for. */
  readonly chip: string;
  readonly gen: 'a5xx' | 'a6xx' | 'a7xx';
  readonly controlDomain: string;
  /** Control registers the firmware reads at boot for chip configuration (as freedreno's emulator seeds them). */
  readonly control: ReadonlyMap<number, number>;
}

export const FW_IDS: readonly FwId[] = [
  { id: 0x5ff, chip: 'a530', gen: 'a5xx', controlDomain: 'A5XX_CONTROL_REG', control: new Map() },
  { id: 0x6ee, chip: 'a630', gen: 'a6xx', controlDomain: 'A6XX_CONTROL_REG', control: new Map() },
  { id: 0x6dc, chip: 'a650', gen: 'a6xx', controlDomain: 'A6XX_CONTROL_REG', control: new Map([[0, (1 << 28) >>> 0]]) },
  { id: 0x6dd, chip: 'a660', gen: 'a6xx', controlDomain: 'A6XX_CONTROL_REG', control: new Map([[0, (3 << 28) >>> 0]]) },
  { id: 0x730, chip: 'a730', gen: 'a7xx', controlDomain: 'A7XX_CONTROL_REG', control: new Map([[0xef, 1 << 21], [0, (7 << 28) >>> 0]]) },
  { id: 0x740, chip: 'a740', gen: 'a7xx', controlDomain: 'A7XX_CONTROL_REG', control: new Map([[0xef, 1 << 21], [0, (7 << 28) >>> 0]]) },
  { id: 0x512, chip: 'gen70500', gen: 'a7xx', controlDomain: 'A7XX_CONTROL_REG', control: new Map([[0xef, 1 << 21], [0, (7 << 28) >>> 0]]) },
  { id: 0x520, chip: 'a750', gen: 'a7xx', controlDomain: 'A7XX_GEN3_CONTROL_REG', control: new Map([[0, (7 << 28) >>> 0], [2, 0x40 << 8]]) },
];

export function fwIdOf(version: number): number {
  return (version >>> 12) & 0xfff;
}

export function fwIdInfo(id: number): FwId | undefined {
  return FW_IDS.find((f) => f.id === id);
}

export interface FwSection {
  readonly processor: 'SQE' | 'BV' | 'LPAC';
  /** Dword offset in the image and length. */
  readonly offset: number;
  readonly dwords: number;
  /** Dword offset of this section's jump table inside the image (-1 when not found). */
  readonly jumpTable: number;
  /** Packet table as the bootstrap loaded it (image-relative handler offsets). */
  readonly packetTable: Uint32Array;
}

export interface Firmware {
  /** File dword 0 (0 in every released file). */
  readonly header: number;
  readonly version: number;
  readonly fwId: number;
  readonly info: FwId | undefined;
  readonly gen: 'a5xx' | 'a6xx' | 'a7xx';
  /** Release number (version bits 0..11). */
  readonly release: number;
  /** What the kernel loads: the file without its first dword. */
  readonly image: Uint32Array;
  /** Jump table offset from image word 1 (-1 when it is not an offset literal). */
  readonly jumpTableHint: number;
  readonly warnings: readonly string[];
}

/** Parse a firmware file's header. Throws InputError (one line) on files that cannot be firmware. */
export function parseFirmware(bytes: Uint8Array, where = 'firmware', forceGen?: Gen): Firmware {
  if (bytes.length % 4) throw new InputError(`firmware is ${bytes.length} bytes, not whole dwords`, where);
  if (bytes.length < 12) throw new InputError(`firmware is ${bytes.length} bytes: too short for a header, a version and a jump table offset`, where);
  const dw = new Uint32Array(bytes.slice().buffer);
  const warnings: string[] = [];
  const header = dw[0]!;
  if (header !== 0) warnings.push(`file dword 0 is 0x${header.toString(16)}, not 0 (the kernel strips it unread)`);
  const image = dw.subarray(1);
  const version = image[0]!;
  const fwId = fwIdOf(version);
  const info = fwIdInfo(fwId);
  let gen: 'a5xx' | 'a6xx' | 'a7xx';
  if (forceGen === 'a5xx' || forceGen === 'a6xx' || forceGen === 'a7xx') gen = forceGen;
  else if (info) gen = info.gen;
  else throw new InputError(`unknown firmware id 0x${fwId.toString(16)} in version word 0x${version.toString(16).padStart(8, '0')} (known: ${FW_IDS.map((f) => `0x${f.id.toString(16)} ${f.chip}`).join(', ')}); pass --gen to force`, where);
  const w1 = image[1]!;
  let hint = -1;
  if (gen === 'a5xx') hint = w1 & 0xffff;
  else if (w1 >>> 24 === 1) hint = w1 & 0xffffff;
  if (hint >= image.length) {
    warnings.push(`jump table offset 0x${hint.toString(16)} lies outside the ${image.length}-dword image`);
    hint = -1;
  }
  return { header, version, fwId, info, gen, release: version & 0xfff, image, jumpTableHint: hint, warnings };
}

/** Offset of `table` inside `image` (as afuc-disasm locates the jump table), or -1. */
function findTable(image: Uint32Array, table: Uint32Array, limit: number): number {
  const n = table.length;
  for (let i = 0; i + n <= limit; i++) {
    let ok = true;
    for (let j = 0; j < n; j++) {
      if (image[i + j] !== table[j]) {
        ok = false;
        break;
      }
    }
    if (ok) return i;
  }
  return -1;
}

export interface LoadedFirmware extends Firmware {
  readonly sections: readonly FwSection[];
  /** Why the SQE bootstrap stopped ('idle' when it reached `waitin`). */
  readonly bootstrap: string;
}

/** The emulator for one section of a parsed firmware. */
export function firmwareEmu(fw: Firmware, processor: 'SQE' | 'BV' | 'LPAC' = 'SQE', offset = 0, opts: { mem?: Memory; diag?: Diagnostics; instrBase?: number; onStep?: (pc: number, text: string) => void } = {}): AfucEmu {
  const base = opts.instrBase ?? 0x0f00_0000;
  return new AfucEmu(fw.image.subarray(offset), {
    gen: fw.gen,
    processor,
    instrBase: base + 4 * offset,
    mem: opts.mem ?? new Memory(),
    diag: opts.diag ?? new Diagnostics(),
    ...(opts.onStep ? { onStep: opts.onStep } : {}),
    ...(fw.info ? { controlDomain: fw.info.controlDomain, control: fw.info.control } : {}),
  });
}

/**
 * Load a firmware file: parse the header, run the SQE bootstrap up to `waitin` to get the packet
 * table, find the table in the image, and on a7xx (or a6xx with LPAC) the appended sections.
 */
export function loadFirmware(bytes: Uint8Array, where = 'firmware', forceGen?: Gen, budget = 200_000): LoadedFirmware {
  const fw = parseFirmware(bytes, where, forceGen);
  const warnings = [...fw.warnings];
  if (afucGen(fw.gen) < 6) {
    // a5xx: no SQE bootstrap; the table sits where word 1 says.
    const jt = fw.jumpTableHint;
    const table = jt >= 0 ? fw.image.slice(jt, Math.min(jt + 0x80, fw.image.length)) : new Uint32Array(0);
    return { ...fw, warnings, bootstrap: 'none', sections: [{ processor: 'SQE', offset: 0, dwords: fw.image.length, jumpTable: jt, packetTable: table }] };
  }
  const base = 0x0f00_0000;
  const mem = new Memory();
  mem.map(base, fw.image.length * 4, 'sqe-fw', new Uint8Array(fw.image.slice().buffer));
  const emu = firmwareEmu(fw, 'SQE', 0, { mem, instrBase: base });
  const why = emu.run(budget);
  if (why !== 'idle') warnings.push(`SQE bootstrap stopped (${why}) before waitin: ${emu.diag.list.map((d) => d.id).join(', ') || 'budget'}`);
  // Appended microcode: addresses the bootstrap programmed, relative to the SQE image.
  const rel = (lo: number | undefined, hi: number | undefined): number => {
    if (lo === undefined || (lo === 0 && !hi)) return 0;
    const a = (hi ?? 0) * 2 ** 32 + lo - base;
    return a > 0 && a % 4 === 0 && a / 4 < fw.image.length ? a / 4 : 0;
  };
  let bv = 0;
  let lpac = 0;
  if (fw.gen === 'a7xx') {
    const cs = emu.controlSpace;
    const at = (n: string): [number | undefined, number | undefined] => {
      const o = cs.offsetOf(n);
      return o === undefined ? [undefined, undefined] : [emu.control[o], emu.control[o + 1]];
    };
    bv = rel(...at('BV_INSTR_BASE'));
    lpac = rel(...at('LPAC_INSTR_BASE'));
  } else {
    const r = gpuRegs(fw.gen).offsetOf('CP_LPAC_SQE_INSTR_BASE');
    if (r !== undefined) lpac = rel(emu.regs[r], emu.regs[r + 1]);
  }
  const ends = [bv, lpac].filter((x) => x > 0);
  const sqeEnd = ends.length ? Math.min(...ends) : fw.image.length;
  const sections: FwSection[] = [];
  const sqeTable = emu.jmptbl.slice();
  const jt = findTable(fw.image, sqeTable, sqeEnd);
  if (jt < 0) warnings.push('the packet table the bootstrap loaded is not in the SQE image');
  else if (fw.jumpTableHint >= 0 && fw.jumpTableHint !== jt) warnings.push(`word 1 says the jump table is at 0x${fw.jumpTableHint.toString(16)}, the bootstrap loaded the one at 0x${jt.toString(16)}`);
  sections.push({ processor: 'SQE', offset: 0, dwords: sqeEnd, jumpTable: jt, packetTable: sqeTable });
  for (const [proc, off] of [['BV', bv], ['LPAC', lpac]] as const) {
    if (!off) continue;
    const end = Math.min(...[fw.image.length, ...ends.filter((x) => x > off)]);
    const sub = fw.image.subarray(off, end);
    const m2 = new Memory();
    m2.map(base + 4 * off, sub.length * 4, `${proc}-fw`, new Uint8Array(sub.slice().buffer));
    const e2 = firmwareEmu({ ...fw, image: fw.image.subarray(0, end) }, proc, off, { mem: m2, instrBase: base });
    const w2 = e2.run(budget);
    if (w2 !== 'idle') warnings.push(`${proc} bootstrap stopped (${w2}) before waitin`);
    const t = e2.jmptbl.slice();
    const j2 = findTable(sub, t, sub.length);
    sections.push({ processor: proc, offset: off, dwords: end - off, jumpTable: j2 < 0 ? -1 : off + j2, packetTable: t });
  }
  return { ...fw, warnings, bootstrap: why, sections };
}

/**
 * Wrap assembled image words into the file layout (leading zero dword). The image is expected to
 * start with the version word and the jump-table literal (see `testFirmwareFileSource`).
 */
export function firmwareFileBytes(image: Uint32Array): Uint8Array {
  const out = new Uint32Array(image.length + 1);
  out.set(image, 1);
  return new Uint8Array(out.buffer);
}

/** The version word for a firmware id and release (0x01 high byte on a6xx+, so it runs as a nop literal). */
export function versionWord(fwId: number, release: number, gen: Gen): number {
  return ((afucGen(gen) >= 6 ? 1 << 24 : 0) | ((fwId & 0xfff) << 12) | (release & 0xfff)) >>> 0;
}

/** Header lines for a listing of a parsed firmware. */
export function firmwareSummary(f: LoadedFirmware): string[] {
  const out = [
    `; ${f.gen} microcode for ${f.info?.chip ?? 'an unknown chip'} (firmware id 0x${f.fwId.toString(16)}), version 0x${f.version.toString(16).padStart(8, '0')}, release 0x${f.release.toString(16)}`,
    `; ${f.image.length} dwords after the stripped header dword; SQE bootstrap: ${f.bootstrap}`,
  ];
  for (const s of f.sections) out.push(`; section ${s.processor}: dwords 0x${s.offset.toString(16)}..0x${(s.offset + s.dwords).toString(16)}, jump table at ${s.jumpTable < 0 ? 'unknown' : '0x' + s.jumpTable.toString(16)}`);
  for (const w of f.warnings) out.push(`; warning: ${w}`);
  return out;
}
