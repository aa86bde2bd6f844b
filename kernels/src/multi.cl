// Three kernels in one code object (fill, copy, scale), for multi-kernel loading.
#include "gpusim_cl.h"
__kernel void fill(__global uint *out, uint value) { out[get_global_id(0)] = value; }
__kernel void copy(__global const uint *in, __global uint *out) { out[get_global_id(0)] = in[get_global_id(0)]; }
__kernel void scale(__global float *x, float s) { x[get_global_id(0)] *= s; }
