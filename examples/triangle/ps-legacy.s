; Pixel shader (gfx1030 and gfx900): interpolate parameter 0 (a colour) at the pixel centre.
; v0/v1 = PERSP_CENTER I/J, s0 = PRIM_MASK (no user data): M0 for v_interp_* (LDS parameter
; offset and the quads that start a new primitive)
s_mov_b32 m0, s0
v_interp_p1_f32 v2, v0, attr0.x                    ; P0 + P10 * I
v_interp_p1_f32 v3, v0, attr0.y
v_interp_p1_f32 v4, v0, attr0.z
v_interp_p1_f32 v5, v0, attr0.w
v_interp_p2_f32 v2, v1, attr0.x                    ; + P20 * J
v_interp_p2_f32 v3, v1, attr0.y
v_interp_p2_f32 v4, v1, attr0.z
v_interp_p2_f32 v5, v1, attr0.w
exp mrt0 v2, v3, v4, v5 done vm
s_endpgm
