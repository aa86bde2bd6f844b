// Probe: integer ALU ops clang emits for r600 (for the opcode-table generator; never run).
__kernel void alu_int(__global uint *o, __global const uint *a) {
  int i = get_global_id(0);
  uint x = a[i], y = a[i + 1], z = a[i + 2];
  int sx = (int)x, sy = (int)y;
  o[0] = popcount(x); o[1] = clz(y); o[2] = clz(z & (0u - z)); o[3] = mul_hi(x, y); o[4] = mul_hi(sx, sy);
  o[5] = mul24(x, y); o[6] = mad24(x, y, z); o[7] = x / y; o[8] = x % y; o[9] = sx / sy;
  o[10] = (x >> 3) & 0x1f; o[11] = (x & ~0xf0u) | ((y << 4) & 0xf0u); o[12] = rotate(x, y);
  o[13] = sx < sy ? x : z; o[14] = x >= y ? 5u : z; o[15] = sx == sy ? 9u : x; o[16] = ~x;
  o[17] = max(sx, sy); o[18] = min(sx, sy); o[19] = min(x, y); o[20] = max(x, y);
  o[21] = abs(sx); o[22] = add_sat(x, y); o[23] = (uint)(-sx); o[24] = x * 0x1234567u;
  o[25] = sx >> (y & 31); o[26] = upsample((ushort)x, (ushort)y); o[27] = (uint)(((ulong)x * y) >> 40);
  o[28] = (uint)(((ulong)x << 32 | y) % z); o[29] = (uint)as_uchar4(x).y * 3u; o[30] = bitselect(x, y, z);
}
