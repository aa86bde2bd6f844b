// Probe: LDS ALU ops clang emits for r600 (for the opcode-table generator; never run).
__kernel __attribute__((reqd_work_group_size(64,1,1)))
void lds_ops(__global int *o, __global const int *a) {
  __local int s[64]; __local uint u[64];
  int l = get_local_id(0); int v = a[get_global_id(0)];
  s[l] = v; u[l] = (uint)v; barrier(CLK_LOCAL_MEM_FENCE);
  atomic_sub(&s[(l+1)&63], 3); atomic_and(&s[(l+2)&63], v); atomic_or(&s[(l+3)&63], v);
  atomic_xor(&s[(l+4)&63], v); atomic_min(&s[(l+5)&63], v); atomic_max(&s[(l+6)&63], v);
  atomic_min(&u[(l+5)&63], 7u); atomic_max(&u[(l+6)&63], 9u); int old = atomic_xchg(&s[(l+7)&63], v);
  int c = atomic_cmpxchg(&s[(l+8)&63], v, 4); int inc = atomic_inc(&s[(l+9)&63]); int dec = atomic_dec(&s[(l+10)&63]);
  int r = atomic_add(&s[(l+11)&63], 5);
  barrier(CLK_LOCAL_MEM_FENCE);
  ((__local short*)s)[l] = (short)v; ((__local char*)u)[l+3] = (char)v;
  barrier(CLK_LOCAL_MEM_FENCE);
  o[get_global_id(0)] = s[63 - l] + old + c + inc + dec + r + ((__local short*)s)[l+1] + ((__local char*)u)[l+5] + ((__local uchar*)u)[l+6] + ((__local ushort*)u)[l+7];
}
