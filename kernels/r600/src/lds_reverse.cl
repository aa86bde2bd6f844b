__kernel __attribute__((reqd_work_group_size(64,1,1)))
void lds_reverse(__global int *out, __global const int *in) {
  __local int tmp[64];
  int l = get_local_id(0);
  int g = get_global_id(0);
  tmp[l] = in[g];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[g] = tmp[63 - l];
}
