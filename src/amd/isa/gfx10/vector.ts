/** GFX10.3 VALU codecs (VOP1/VOP2/VOPC/VOP3, their DPP forms, and SDWA): the shared VALU codec over gfx1030's generated tables. */
import type { Codec } from '../types.js';
import { GFX1030_VALU_ALIASES } from '../valu-aliases.gen.js';
import { GFX10_SPACE } from '../operands.js';
import { makeValuCodecs, makeValuSet } from '../gfx11/vector.js';
import { makeSdwaCodec, type SdwaTables } from '../sdwa.js';
import { wave64Table } from '../gfx11/valu-types.js';
import { VOP1_SDWA_OPS, VOP2_SDWA_OPS, VOPC_SDWA_OPS } from './sdwa.gen.js';
import { VOP1_OPS, VOP1_DPP16_OPS, VOP1_DPP8_OPS } from './vop1.gen.js';
import { VOP2_OPS, VOP2_DPP16_OPS, VOP2_DPP8_OPS } from './vop2.gen.js';
import { VOPC_OPS, VOPC_DPP16_OPS, VOPC_DPP8_OPS } from './vopc.gen.js';
import { VOP3_OPS, VOP3_DPP16_OPS, VOP3_DPP8_OPS } from './vop3.gen.js';

const DATA = {
  name: 'gfx10',
  aliases: GFX1030_VALU_ALIASES,
  space: GFX10_SPACE,
  tables: {
    VOP1: { ops: VOP1_OPS, dpp16: VOP1_DPP16_OPS, dpp8: VOP1_DPP8_OPS },
    VOP2: { ops: VOP2_OPS, dpp16: VOP2_DPP16_OPS, dpp8: VOP2_DPP8_OPS },
    VOPC: { ops: VOPC_OPS, dpp16: VOPC_DPP16_OPS, dpp8: VOPC_DPP8_OPS },
    VOP3: { ops: VOP3_OPS, dpp16: VOP3_DPP16_OPS, dpp8: VOP3_DPP8_OPS },
  },
};
export const GFX10_VALU = makeValuSet(DATA);

const SDWA: SdwaTables = { VOP1: VOP1_SDWA_OPS, VOP2: VOP2_SDWA_OPS, VOPC: VOPC_SDWA_OPS };

/** The SDWA codec comes first: it owns src0 = 249 words whose opcode has an SDWA form. */
export const codecs: Codec[] = [makeSdwaCodec('gfx10-SDWA', GFX10_SPACE, SDWA), ...makeValuCodecs(GFX10_VALU, 'gfx10-')];

/** The same codecs reading and writing wave64 text (lane masks as SGPR pairs, `vcc`). */
export const codecsWave64: Codec[] = [
  makeSdwaCodec('gfx10-SDWA', GFX10_SPACE, { VOP1: wave64Table(SDWA.VOP1), VOP2: wave64Table(SDWA.VOP2), VOPC: wave64Table(SDWA.VOPC) }),
  ...makeValuCodecs(makeValuSet({ ...DATA, wave64: true }), 'gfx10-'),
];
