// Mandelbrot escape counts on a 2D grid: a float loop with a data-dependent exit (no FMA contraction).
#include "gpusim_hsa.h"
#pragma OPENCL FP_CONTRACT OFF
__kernel void mandelbrot(__global uint *out, float x0, float y0, float step, uint maxit) {
  uint px = get_global_id(0), py = get_global_id(1), w = get_global_size(0);
  float cr = x0 + (float)px * step, ci = y0 + (float)py * step;
  float zr = 0.0f, zi = 0.0f;
  uint it = 0;
  while (it < maxit && zr * zr + zi * zi <= 4.0f) {
    float t = zr * zr - zi * zi + cr;
    zi = 2.0f * zr * zi + ci;
    zr = t;
    it++;
  }
  out[py * w + px] = it;
}
