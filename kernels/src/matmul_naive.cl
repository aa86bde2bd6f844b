// C = A * B for n x n row-major matrices, one work-item per output element (2D NDRange).
#include "gpusim_cl.h"
__kernel void matmul_naive(__global const float *A, __global const float *B, __global float *C, uint n) {
  size_t col = get_global_id(0), row = get_global_id(1);
  if (row >= n || col >= n) return;
  float acc = 0.0f;
  for (uint k = 0; k < n; k++) acc += A[row * n + k] * B[k * n + col];
  C[row * n + col] = acc;
}
