// 8- and 16-bit data: saturating uchar add, short -> int -> saturated short, ushort upsample, char abs (sub-dword loads/stores).
#include "gpusim_hsa.h"
__kernel void narrow_ints(__global const uchar *px, __global const short *s, __global uchar *bright,
                          __global short *scaled, __global ushort *packed, __global char *mag) {
  size_t i = get_global_id(0);
  uchar p = px[i];
  short t = s[i];
  bright[i] = add_sat(p, (uchar)40);
  scaled[i] = convert_short_sat((int)t * 3);
  packed[i] = upsample(p, (uchar)(t & 0xff));
  mag[i] = (char)abs((char)(t >> 4));
}
