// s_sendmsg_rtn REALTIME around s_sleep and a dependent loop: the clock moves forward; MODE read back with s_getreg.
#include "gpusim_hsa.h"
#if defined(__GFX11__)
#define REALTIME() __builtin_amdgcn_s_sendmsg_rtnl(0x83) /* s_sendmsg_rtn_b64 MSG_RTN_GET_REALTIME */
#else
#define REALTIME() __builtin_amdgcn_s_memrealtime()
#endif
__kernel void realtime(__global const uint *in, __global uint *out) {
  size_t i = get_global_id(0);
  ulong t0 = REALTIME();
  __builtin_amdgcn_s_sleep(2);
  uint acc = in[i];
  for (uint k = 0; k < (in[i] & 31); k++) acc = acc * 1664525u + 1013904223u;
  ulong t1 = REALTIME();
  out[3 * i] = t1 > t0;
  out[3 * i + 1] = acc;
  out[3 * i + 2] = __builtin_amdgcn_s_getreg(0x1801 /* hwreg(HW_REG_MODE, 0, 4): FP_ROUND */);
}
