/**
 * afuc disassembly in the text freedreno's `afuc-disasm` prints (Mesa's isaspec decoder with
 * branch labels and packet-handler entry points), line for line:
 *
 *   ; a6xx microcode
 *   ; Disassembling microcode: FILE          (not with -u)
 *   ; Version: 016ee001
 *   (blank)
 *   [016ee001]                               words no encoding matches, as raw literals
 *   [#jumptbl]                               the literal that equals the jump table's offset
 *   mov $01, 0x830	; CP_SQE_INSTR_BASE     immediates >= 0x100 that name a GPU register
 *   mov $addr, 0xa0 << 24	; |NRT_ADDR     $addr immediates that select a pipe register
 *   (blank) CP_ME_INIT:                      packet handlers (all names of a handler, sorted),
 *   fxn59: / l59:                            call targets and branch targets (decimal index)
 *   .align 32 (a7xx) jumptbl: .jumptbl       then any words after the table as literals
 *   .section BV / .section LPAC              a7xx: the appended microcode, the same way
 *
 * The sections, packet tables and jump tables come from running each bootstrap in the emulator
 * (fwfile.ts), as afuc-disasm runs its own.
 */
import { InputError } from '../../core/errors.js';
import type { Gen } from '../regs/db.js';
import { fwIdInfo, loadFirmware, parseFirmware, type FwSection } from './fwfile.js';
import { chipForGen, type AfucChip } from './names.js';
import { disasmWords, packetEntries } from './fdtext.js';

export { disasmWords, packetEntries, type EntryPoint } from './fdtext.js';

export interface FdDisasmOptions {
  /** afuc-disasm -u: leave the file name out of the header. */
  readonly unitTest?: boolean;
  readonly file?: string;
  /** afuc-disasm -g: force a generation instead of the firmware id's. */
  readonly gen?: Gen;
  /** afuc-disasm -g: the firmware id to read the file as (its generation and control registers). */
  readonly fwId?: number;
  /** afuc-disasm -r: the whole file as instructions, no jump table. */
  readonly raw?: boolean;
  /** Emulator steps each bootstrap may take (default: fwfile's). */
  readonly budget?: number;
}

function sectionText(image: Uint32Array, sec: FwSection, chip: AfucChip, last: boolean): string[] {
  const words = image.subarray(sec.offset, sec.offset + sec.dwords);
  const jt = sec.jumpTable < 0 ? -1 : sec.jumpTable - sec.offset;
  const out = disasmWords(words.subarray(0, jt < 0 ? words.length : jt), chip, packetEntries(sec.packetTable, chip), jt);
  if (jt >= 0) {
    // a7xx keeps the BV/LPAC microcode 32-byte aligned by aligning the table before it.
    if (chip.gen >= 7 && !last) out.push('.align 32');
    out.push('jumptbl:', '.jumptbl');
    for (let i = jt + 0x80; i < words.length; i++) out.push(`[${words[i]!.toString(16).padStart(8, '0')}]`);
  }
  return out;
}

/** The whole `afuc-disasm [-u]` output for a firmware file, one string per line. */
export function fdDisassemble(bytes: Uint8Array, opts: FdDisasmOptions = {}): string[] {
  const where = opts.file ?? 'firmware';
  const forced = opts.fwId !== undefined ? fwIdInfo(opts.fwId) : undefined;
  if (opts.fwId !== undefined && !forced) throw new InputError(`unknown firmware id 0x${opts.fwId.toString(16)}`, where);
  const gen = forced?.gen ?? opts.gen;
  const fw = parseFirmware(bytes, where, gen);
  const chip = chipForGen(fw.gen, forced ? forced.controlDomain : opts.gen ? undefined : fw.info?.controlDomain);
  const out = [`; a${chip.gen}xx microcode`];
  if (!opts.unitTest) out.push(`; Disassembling microcode: ${where}`);
  out.push(`; Version: ${fw.version.toString(16).padStart(8, '0')}`, '');
  if (opts.raw) {
    out.push(...disasmWords(new Uint32Array(bytes.slice(0, bytes.length & ~3).buffer), chip));
    return out;
  }
  if (chip.gen < 6) {
    // a5xx: no bootstrap; word 1's low half is the table offset, the table is listed as code.
    const jt = fw.image[1]! & 0xffff;
    const table = Array.from({ length: 0x80 }, (_, i) => fw.image[jt + i] ?? 0);
    out.push(...disasmWords(fw.image, chip, packetEntries(table, chip)));
    return out;
  }
  const lf = loadFirmware(bytes, where, gen, opts.budget);
  lf.sections.forEach((sec, i) => {
    if (i > 0) out.push('', `.section ${sec.processor}`, ';', `; ${sec.processor} microcode:`, ';');
    out.push(...sectionText(lf.image, sec, chip, sec.processor === 'LPAC'));
  });
  return out;
}

/** Throwing wrapper used by the CLI: any failure to read the file is a one-line InputError. */
export function fdDisassembleText(bytes: Uint8Array, opts: FdDisasmOptions = {}): string {
  try {
    return fdDisassemble(bytes, opts).join('\n') + '\n';
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(`cannot disassemble: ${e instanceof Error ? e.message : String(e)}`, opts.file ?? 'firmware');
  }
}
