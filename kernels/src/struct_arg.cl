// Struct passed by value and an array of structs in global memory.
#include "gpusim_cl.h"
typedef struct { float x, y, z; int id; } particle;
typedef struct { float dt; float gravity; uint count; } params;
__kernel void struct_arg(__global particle *p, params prm) {
  size_t i = get_global_id(0);
  if (i >= prm.count) return;
  particle q = p[i];
  q.y -= prm.gravity * prm.dt;
  q.x += prm.dt;
  q.id = (int)i;
  p[i] = q;
}
