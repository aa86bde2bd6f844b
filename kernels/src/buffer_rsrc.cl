// MUBUF through buffer resources (make_buffer_rsrc): raw b32 loads/stores with soffset, a b16 store, and num_records bounds (loads past it read 0, stores are dropped).
#include "gpusim_hsa.h"
/* dword3 0x31014000: raw buffer (OOB_SELECT 3), 32-bit float format fields, as LLVM's buffer fat pointers use. */
#define RSRC(p, bytes) __builtin_amdgcn_make_buffer_rsrc((void *)(p), (short)0, (bytes), 0x31014000)
__kernel void buffer_rsrc(__global const int *in, __global int *out, __global ushort *low, int n) {
  __amdgpu_buffer_rsrc_t r = RSRC(in, n * 4);
  __amdgpu_buffer_rsrc_t w = RSRC(out, n * 4);
  __amdgpu_buffer_rsrc_t h = RSRC(low, (int)get_global_size(0) * 2);
  int i = get_global_id(0);
  int v = __builtin_amdgcn_raw_buffer_load_b32(r, i * 4, 0, 0);        /* 0 when i >= n */
  int u = __builtin_amdgcn_raw_buffer_load_b32(r, (i & 63) * 4, 8, 0); /* soffset 8: in[(i & 63) + 2], in range */
  __builtin_amdgcn_raw_buffer_store_b32(v + u, w, i * 4, 0, 0);        /* dropped when i >= n */
  __builtin_amdgcn_raw_buffer_store_b16((ushort)(v ^ i), h, i * 2, 0, 0);
}
