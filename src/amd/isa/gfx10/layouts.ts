/**
 * GFX10.3 (gfx1030) encoding layouts as data: what differs from GFX11 in the field positions.
 * Checked against llvm-mc -show-encoding by the golden files (test/golden/amd/gfx1030).
 */
import { GFX11_SCALAR, type BitField, type ScalarLayout } from '../gfx11/scalar-layout.js';

const f = (word: 0 | 1, lo: number, bits: number): BitField => ({ word, lo, bits });

/**
 * GFX10 scalar encodings: as GFX11 but SMEM's glc is bit 16 and dlc bit 14, and SOPK has op 28
 * (s_subvector_loop_end, prefix 0x17C; GFX11 leaves it unused). SOPK then only gives way to SOP1
 * by its own test; SOPC and SOPP (ops 30, 31) are matched before it (layouts are tried in order).
 */
export const GFX10_SCALAR: readonly ScalarLayout[] = GFX11_SCALAR.map((L) =>
  L.name === 'SOPK' ? { ...L, opCount: 29, notMask: 0xff800000 | 0, notValue: 0xbe800000 | 0 }
  : L.name !== 'SMEM' ? L : {
    ...L,
    fields: {
      sbase: f(0, 0, 6), sdata: f(0, 6, 7), dlc: f(0, 14, 1), glc: f(0, 16, 1),
      offset: f(1, 0, 21), soffset: f(1, 25, 7),
    },
  });
