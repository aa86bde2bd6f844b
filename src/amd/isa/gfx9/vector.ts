/** GFX9 VALU codecs (VOP1/VOP2/VOPC/VOP3 with DPP16, and SDWA): the shared VALU codec over gfx900's generated tables. */
import type { Codec } from '../types.js';
import { GFX900_VALU_ALIASES } from '../valu-aliases.gen.js';
import { GFX9_SPACE } from '../operands.js';
import { makeValuCodecs, makeValuSet } from '../gfx11/vector.js';
import { makeSdwaCodec } from '../sdwa.js';
import { VOP1_SDWA_OPS, VOP2_SDWA_OPS, VOPC_SDWA_OPS } from './sdwa.gen.js';
import { VOP1_OPS, VOP1_DPP16_OPS, VOP1_DPP8_OPS } from './vop1.gen.js';
import { VOP2_OPS, VOP2_DPP16_OPS, VOP2_DPP8_OPS } from './vop2.gen.js';
import { VOPC_OPS, VOPC_DPP16_OPS, VOPC_DPP8_OPS } from './vopc.gen.js';
import { VOP3_OPS, VOP3_DPP16_OPS, VOP3_DPP8_OPS } from './vop3.gen.js';

export const GFX9_VALU = makeValuSet({
  name: 'gfx9',
  aliases: GFX900_VALU_ALIASES,
  space: GFX9_SPACE,
  // VOP3 is 0b110100 on GFX9 (its VOP3P opcodes 0x380.. are not decoded yet).
  vop3Prefix: 0x34,
  dppNoFi: true,
  tables: {
    VOP1: { ops: VOP1_OPS, dpp16: VOP1_DPP16_OPS, dpp8: VOP1_DPP8_OPS },
    VOP2: { ops: VOP2_OPS, dpp16: VOP2_DPP16_OPS, dpp8: VOP2_DPP8_OPS },
    VOPC: { ops: VOPC_OPS, dpp16: VOPC_DPP16_OPS, dpp8: VOPC_DPP8_OPS },
    VOP3: { ops: VOP3_OPS, dpp16: VOP3_DPP16_OPS, dpp8: VOP3_DPP8_OPS },
  },
});

/** The SDWA codec comes first: it owns src0 = 249 words whose opcode has an SDWA form. */
export const codecs: Codec[] = [
  makeSdwaCodec('gfx9-SDWA', GFX9_SPACE, { VOP1: VOP1_SDWA_OPS, VOP2: VOP2_SDWA_OPS, VOPC: VOPC_SDWA_OPS }),
  ...makeValuCodecs(GFX9_VALU, 'gfx9-'),
];
