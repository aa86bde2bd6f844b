/** GFX9 scalar codecs: the shared table-driven scalar codec over gfx900's generated tables. */
import type { Codec } from '../types.js';
import { GFX9_SPACE } from '../operands.js';
import { makeScalarCodecs, type ScalarTargetData } from '../gfx11/scalar.js';
import { GFX9_SCALAR } from './layouts.js';
import { SOP1, SOP1_ALIASES } from './sop1.gen.js';
import { SOP2, SOP2_ALIASES } from './sop2.gen.js';
import { SOPK, SOPK_ALIASES } from './sopk.gen.js';
import { SOPC, SOPC_ALIASES } from './sopc.gen.js';
import { SOPP, SOPP_ALIASES, SPECIALS } from './sopp.gen.js';
import { SMEM, SMEM_ALIASES } from './smem.gen.js';

export const GFX9_SCALAR_DATA: ScalarTargetData = {
  name: 'gfx9',
  space: GFX9_SPACE,
  layouts: GFX9_SCALAR,
  tables: { SOP1, SOP2, SOPK, SOPC, SOPP, SMEM },
  aliases: { SOP1: SOP1_ALIASES, SOP2: SOP2_ALIASES, SOPK: SOPK_ALIASES, SOPC: SOPC_ALIASES, SOPP: SOPP_ALIASES, SMEM: SMEM_ALIASES },
  specials: SPECIALS,
};

export const codecs: Codec[] = makeScalarCodecs(GFX9_SCALAR_DATA);
