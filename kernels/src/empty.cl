// A kernel that does nothing: just s_endpgm, minimal resources.
#include "gpusim_cl.h"
__kernel void empty(void) {}
