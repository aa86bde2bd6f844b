// Cross-lane ops: DPP16 (row_shr, row_mirror, quad_perm, row_xmask, row_share), permlane16/x16, ds_swizzle, readlane, ballot.
#include "gpusim_hsa.h"
__kernel void cross_lane(__global const int *in, __global int *out, __global ulong *ballot) {
  size_t g = get_global_id(0);
  int v = in[g];
  __global int *o = out + 10 * g;
  o[0] = __builtin_amdgcn_update_dpp(-1, v, 0x111, 0xf, 0xf, false); /* row_shr:1, lane 0 of a row keeps old */
  o[1] = __builtin_amdgcn_update_dpp(-1, v, 0x140, 0xf, 0xf, false); /* row_mirror */
  o[2] = __builtin_amdgcn_update_dpp(-1, v, 0xb1, 0xf, 0xf, false);  /* quad_perm:[1,0,3,2] */
#if defined(__GFX10__) || defined(__GFX11__) /* gfx10+ only; the gfx900 build writes -1 */
  o[3] = __builtin_amdgcn_update_dpp(-1, v, 0x161, 0xf, 0xf, false); /* row_xmask:1 */
  o[4] = __builtin_amdgcn_update_dpp(-1, v, 0x155, 0xf, 0xf, false); /* row_share:5 */
  o[5] = __builtin_amdgcn_permlane16(-1, v, 0x01234567, 0x89abcdef, false, false);
  o[6] = __builtin_amdgcn_permlanex16(-1, v, 0x76543210, 0xfedcba98, false, false);
#else
  o[3] = o[4] = o[5] = o[6] = -1;
#endif
  o[7] = __builtin_amdgcn_ds_swizzle(v, 0x041f); /* bitmask mode: and 0x1f, or 0, xor 1 */
  o[8] = __builtin_amdgcn_readlane(v, 3);
  o[9] = __builtin_amdgcn_ds_bpermute((int)((31 - (get_local_id(0) & 31)) * 4), v);
  ballot[g] = __builtin_amdgcn_ballot_w64(v > 0);
}
