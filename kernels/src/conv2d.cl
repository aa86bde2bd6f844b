// 3x3 convolution of a w x h float image, clamp-to-edge borders, weights in __constant memory (libclc clamp).
#include "gpusim_hsa.h"
#pragma OPENCL FP_CONTRACT OFF
__kernel void conv2d(__global const float *in, __global float *out, __constant float *wt, uint w, uint h) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= (int)w || y >= (int)h) return;
  float acc = 0.0f;
  for (int dy = -1; dy <= 1; dy++)
    for (int dx = -1; dx <= 1; dx++) {
      int xx = clamp(x + dx, 0, (int)w - 1), yy = clamp(y + dy, 0, (int)h - 1);
      acc += in[yy * (int)w + xx] * wt[(dy + 1) * 3 + dx + 1];
    }
  out[y * (int)w + x] = acc;
}
