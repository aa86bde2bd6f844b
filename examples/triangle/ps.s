; Pixel shader (gfx1100, wave32): interpolate parameter 0 (a colour) at the pixel centre.
; v0/v1 = PERSP_CENTER I/J, s0 = PRIM_MASK (no user data)
s_wqm_b32 exec_lo, exec_lo                 ; whole quad mode: lds_param_load fills each quad's lanes with
                                           ; P0/P10/P20 and v_interp_p10 reads them across the quad
s_mov_b32 m0, s0
lds_param_load v2, attr0.x
lds_param_load v3, attr0.y
lds_param_load v4, attr0.z
lds_param_load v5, attr0.w
s_waitcnt expcnt(0)
v_interp_p10_f32 v6, v2, v0, v2
v_interp_p10_f32 v7, v3, v0, v3
v_interp_p10_f32 v8, v4, v0, v4
v_interp_p10_f32 v9, v5, v0, v5
v_interp_p2_f32 v6, v2, v1, v6
v_interp_p2_f32 v7, v3, v1, v7
v_interp_p2_f32 v8, v4, v1, v8
v_interp_p2_f32 v9, v5, v1, v9
exp mrt0 v6, v7, v8, v9 done
s_endpgm
