/**
 * DPP control words of the GFX11 VALU DPP16 / DPP8 forms, as LLVM prints and parses them.
 * DPP16 dword: src0 [7:0], dpp_ctrl [16:8], fi [18], bound_ctrl [19], src0 neg/abs [20]/[21],
 * src1 neg/abs [22]/[23], bank_mask [27:24], row_mask [31:28]. DPP8 dword: src0 [7:0], eight 3-bit
 * lane selects [31:8]; fi is src0 = 234 (233 without).
 */
import type { FieldDef } from './valu-types.js';

export type DppForm = 'dpp16' | 'dpp8';

/** Fields of the DPP dword (word index relative to the DPP dword). */
export const DPP16_FIELDS: Readonly<Record<string, FieldDef>> = {
  dsrc0: { w: 0, lo: 0, n: 8 }, dpp_ctrl: { w: 0, lo: 8, n: 9 }, fi: { w: 0, lo: 18, n: 1 }, bound_ctrl: { w: 0, lo: 19, n: 1 },
  dneg0: { w: 0, lo: 20, n: 1 }, dabs0: { w: 0, lo: 21, n: 1 }, dneg1: { w: 0, lo: 22, n: 1 }, dabs1: { w: 0, lo: 23, n: 1 },
  bank_mask: { w: 0, lo: 24, n: 4 }, row_mask: { w: 0, lo: 28, n: 4 },
};
export const DPP8_FIELDS: Readonly<Record<string, FieldDef>> = {
  dsrc0: { w: 0, lo: 0, n: 8 }, sel: { w: 0, lo: 8, n: 24 },
};

/** GFX9's wave-shift and row-broadcast controls, which GFX10 dropped. */
const GFX9_CTRL: Readonly<Record<number, string>> = {
  0x130: 'wave_shl:1', 0x134: 'wave_rol:1', 0x138: 'wave_shr:1', 0x13c: 'wave_ror:1', 0x142: 'row_bcast:15', 0x143: 'row_bcast:31',
};

/** LLVM's text for a dpp_ctrl value (GFX10+ meanings, or GFX9's when `gfx9`). */
export function dppCtrlText(c: number, gfx9 = false): string {
  if (gfx9 && GFX9_CTRL[c] !== undefined) return GFX9_CTRL[c]!;
  if (c <= 0xff) return `quad_perm:[${c & 3},${(c >> 2) & 3},${(c >> 4) & 3},${(c >> 6) & 3}]`;
  if (c >= 0x101 && c <= 0x10f) return `row_shl:${c - 0x100}`;
  if (c >= 0x111 && c <= 0x11f) return `row_shr:${c - 0x110}`;
  if (c >= 0x121 && c <= 0x12f) return `row_ror:${c - 0x120}`;
  if (c === 0x140) return 'row_mirror';
  if (c === 0x141) return 'row_half_mirror';
  if (c >= 0x150 && c <= 0x15f) return `row_share:${c - 0x150}`;
  if (c >= 0x160 && c <= 0x16f) return `row_xmask:${c - 0x160}`;
  if (c === 0x130) return '/* wave_shl is not supported starting from GFX10 */';
  if (c === 0x134) return '/* wave_rol is not supported starting from GFX10 */';
  if (c === 0x138) return '/* wave_shr is not supported starting from GFX10 */';
  if (c === 0x13c) return '/* wave_ror is not supported starting from GFX10 */';
  if (c === 0x142) return '/* row_bcast is not supported starting from GFX10 */';
  if (c === 0x143) return '/* row_bcast is not supported starting from GFX10 */';
  return '/* Invalid dpp_ctrl value */';
}

/** The DPP suffix of an instruction's text (after the operands and VOP3 modifiers). */
export function dppText(f: Readonly<Record<string, number>>, form: DppForm, gfx9 = false): string {
  if (form === 'dpp8') {
    const s = f.sel!;
    const l: number[] = [];
    for (let i = 0; i < 8; i++) l.push((s >>> (3 * i)) & 7);
    return ` dpp8:[${l.join(',')}]${f.fi ? ' fi:1' : ''}`;
  }
  return ` ${dppCtrlText(f.dpp_ctrl!, gfx9)} row_mask:0x${f.row_mask!.toString(16)} bank_mask:0x${f.bank_mask!.toString(16)}` +
    `${f.bound_ctrl ? ' bound_ctrl:1' : ''}${f.fi ? ' fi:1' : ''}`;
}

/** Parsed DPP modifiers of an assembly line; null when the word is not a DPP modifier. */
export interface DppMods {
  form: DppForm | null;
  ctrl: number;
  rowMask: number;
  bankMask: number;
  boundCtrl: number;
  fi: number;
  sel: number;
}

export function newDppMods(): DppMods {
  return { form: null, ctrl: 0xe4, rowMask: 0xf, bankMask: 0xf, boundCtrl: 0, fi: 0, sel: 0 };
}

const num = (s: string): number => (s.startsWith('0x') ? parseInt(s.slice(2), 16) : Number(s));

/** Apply one modifier word to `m`; false when it is not a DPP modifier (or malformed). */
export function parseDppWord(word: string, m: DppMods, gfx: 9 | 10 | 11 = 11): boolean {
  const w = word.toLowerCase();
  let r: RegExpExecArray | null;
  if ((r = /^quad_perm:\[(\d),(\d),(\d),(\d)\]$/.exec(w.replace(/\s/g, '')))) {
    const q = r.slice(1, 5).map(Number);
    if (q.some((x) => x > 3)) return false;
    m.form = 'dpp16';
    m.ctrl = q[0]! | (q[1]! << 2) | (q[2]! << 4) | (q[3]! << 6);
    return true;
  }
  if ((r = /^(row_shl|row_shr|row_ror|row_share|row_xmask):(\d+)$/.exec(w))) {
    const n = Number(r[2]);
    const base = { row_shl: 0x100, row_shr: 0x110, row_ror: 0x120, row_share: 0x150, row_xmask: 0x160 }[r[1] as 'row_shl'];
    const lo = r[1] === 'row_share' || r[1] === 'row_xmask' ? 0 : 1;
    if (lo === 0 && gfx === 9) return false; // row_share/row_xmask are GFX10+
    if (n < lo || n > 15) return false;
    m.form = 'dpp16';
    m.ctrl = base + n;
    return true;
  }
  if (w === 'row_mirror') { m.form = 'dpp16'; m.ctrl = 0x140; return true; }
  // wave_shl... and row_bcast are GFX9's (llvm-mc refuses them on GFX10+).
  if (gfx === 9) for (const [k, t] of Object.entries(GFX9_CTRL)) if (w === t) { m.form = 'dpp16'; m.ctrl = Number(k); return true; }
  if (w === 'row_half_mirror') { m.form = 'dpp16'; m.ctrl = 0x141; return true; }
  if ((r = /^row_mask:(0x[0-9a-f]+|\d+)$/.exec(w))) { m.rowMask = num(r[1]!) & 0xf; return true; }
  if ((r = /^bank_mask:(0x[0-9a-f]+|\d+)$/.exec(w))) { m.bankMask = num(r[1]!) & 0xf; return true; }
  // LLVM 19: bound_ctrl:1 sets bit 19; bound_ctrl:0 leaves it clear on GFX11 but sets it on
  // GFX9/GFX10 (where the syntax's 0 was the old spelling of the same bit).
  if ((r = /^bound_ctrl:([01])$/.exec(w))) { m.boundCtrl = gfx === 11 ? Number(r[1]) : 1; return true; }
  if ((r = /^fi:([01])$/.exec(w))) { m.fi = Number(r[1]); return true; }
  if ((r = /^dpp8:\[([0-7](?:,[0-7]){7})\]$/.exec(w.replace(/\s/g, '')))) {
    m.form = 'dpp8';
    m.sel = r[1]!.split(',').reduce((a, x, i) => a | (Number(x) << (3 * i)), 0);
    return true;
  }
  return false;
}
