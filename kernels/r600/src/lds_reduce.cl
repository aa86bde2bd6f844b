__kernel __attribute__((reqd_work_group_size(64,1,1)))
void lds_reduce(__global int *out, __global const int *in) {
  __local int tmp[64];
  int l = get_local_id(0);
  tmp[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = 32; s > 0; s >>= 1) {
    if (l < s) tmp[l] += tmp[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) out[get_group_id(0)] = tmp[0];
}
