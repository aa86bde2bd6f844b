/**
 * GFX9 (gfx900) encoding layouts as data: what differs from GFX11 in the field positions.
 * Checked against llvm-mc -show-encoding by the golden files (test/golden/amd/gfx900).
 */
import { GFX11_SCALAR, type BitField, type ScalarLayout } from '../gfx11/scalar-layout.js';

const f = (word: 0 | 1, lo: number, bits: number): BitField => ({ word, lo, bits });

/**
 * GFX9 scalar encodings: SOP* as GFX11; SMEM has prefix 0b110000 and says in `imm` whether the
 * offset field is an offset (else its low 7 bits name the soffset SGPR) and in `soe` whether the
 * soffset field is present.
 */
export const GFX9_SCALAR: readonly ScalarLayout[] = GFX11_SCALAR.map((L) =>
  L.name !== 'SMEM' ? L : {
    ...L,
    mask: 0xfc000000 | 0,
    value: 0xc0000000 | 0,
    fields: {
      sbase: f(0, 0, 6), sdata: f(0, 6, 7), soe: f(0, 14, 1), nv: f(0, 15, 1), glc: f(0, 16, 1), imm: f(0, 17, 1),
      offset: f(1, 0, 21), soffset: f(1, 25, 7),
    },
  });
