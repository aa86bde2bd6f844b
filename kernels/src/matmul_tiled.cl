// C = A * B with 16x16 tiles staged in LDS; n must be a multiple of 16, work-group 16x16.
#include "gpusim_cl.h"
#define TILE 16
__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void matmul_tiled(__global const float *A, __global const float *B, __global float *C, uint n) {
  __local float As[TILE][TILE];
  __local float Bs[TILE][TILE];
  uint tx = get_local_id(0), ty = get_local_id(1);
  uint col = get_group_id(0) * TILE + tx, row = get_group_id(1) * TILE + ty;
  float acc = 0.0f;
  for (uint t = 0; t < n; t += TILE) {
    As[ty][tx] = A[row * n + t + tx];
    Bs[ty][tx] = B[(t + ty) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < TILE; k++) acc += As[ty][k] * Bs[k][tx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[row * n + col] = acc;
}
