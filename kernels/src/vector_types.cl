// OpenCL vector types: int4/float4/uchar4/short8 arithmetic, swizzles, shuffle, select, vload/vstore, and vstore_half_rtz/rtp/rtn (libclc).
// build: -cl-std=CL1.2
#include "gpusim_hsa.h"
__kernel void vector_types(__global const float *f, __global const int *n, __global float *fo, __global int *io,
                           __global uchar *co, __global half *ho) {
  size_t i = get_global_id(0);
  float4 a = vload4(i, f), b = vload4(i + 1, f);
  int4 p = vload4(i, n), q = vload4(i + 1, n);
  vstore4(a.wzyx * b + (float4)(1.0f, 2.0f, 3.0f, 4.0f), i, fo);
  int4 s = shuffle2(p, q, (uint4)(0, 5, 2, 7)) + select(p, q, p > q);
  vstore4(s, i, io);
  uchar4 c = convert_uchar4_sat(p >> 20);
  vstore4(c.yxwz, i, co);
  float v = a.x * 1000.0f;
  vstore_half_rtz(v, 3 * i, ho);
  vstore_half_rtp(v, 3 * i + 1, ho);
  vstore_half_rtn(v, 3 * i + 2, ho);
}
