__kernel void grid2d(__global int *out) {
  int x = get_global_id(0), y = get_global_id(1);
  int w = get_global_size(0);
  out[y * w + x] = (int)(get_group_id(0) * 1000 + get_group_id(1) * 100 + get_local_id(0) * 10 + get_local_id(1));
}
