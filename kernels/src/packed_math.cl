// Packed 16-bit math (VOP3P) on half2/short2/ushort2, and the dot-product builtins v_dot2_f32_f16 and v_dot4_i32_iu8.
#include "gpusim_hsa.h"
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
typedef half half2_t __attribute__((ext_vector_type(2)));
__kernel void packed_math(__global const half2 *a, __global const half2 *b, __global const short2 *s, __global const ushort2 *u,
                          __global half2 *ho, __global short2 *so, __global ushort2 *uo, __global float *dot, __global int *idot) {
  size_t i = get_global_id(0);
  half2 x = a[i], y = b[i];
  ho[3 * i] = x + y;
  ho[3 * i + 1] = x * y;
  ho[3 * i + 2] = fmax(x, y);
  short2 p = s[i], q = s[i + 1];
  so[2 * i] = p + q;
  so[2 * i + 1] = max(p, q);
  ushort2 m = u[i], n = u[i + 1];
  uo[2 * i] = m * n;
  uo[2 * i + 1] = (m >> (ushort2)(3, 5)) | (n << (ushort2)(1, 2));
#if defined(__GFX11__) /* dot8-insts: gfx11 only; other builds write 0 */
  dot[i] = __builtin_amdgcn_fdot2((half2_t)(x.x, x.y), (half2_t)(y.x, y.y), 1.5f, false);
  int pa = as_int(s[i]), pb = as_int(u[i]);
  idot[i] = __builtin_amdgcn_sudot4(true, pa, true, pb, (int)i, false);
#else
  dot[i] = 0.0f;
  idot[i] = 0;
#endif
}
