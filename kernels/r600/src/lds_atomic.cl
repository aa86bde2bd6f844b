__kernel __attribute__((reqd_work_group_size(64,1,1)))
void lds_atomic(__global int *out, __global const int *in) {
  __local int hist[4];
  int l = get_local_id(0);
  if (l < 4) hist[l] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_add(&hist[in[get_global_id(0)] & 3], 1);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l < 4) out[get_group_id(0) * 4 + l] = hist[l];
}
