; Pixel shader (gfx1100, wave32): sample the texture (T# s[0:7], S# s[8:11] from user data) at
; parameter 0's (u, v). v0/v1 = PERSP_CENTER I/J, s12 = PRIM_MASK (after the 12 user SGPRs).
s_wqm_b32 exec_lo, exec_lo                 ; whole quad mode: the interpolation reads across the quad and
                                           ; image_sample takes its LOD from the quad's coordinates
s_mov_b32 m0, s12
lds_param_load v2, attr0.x
lds_param_load v3, attr0.y
s_waitcnt expcnt(0)
v_interp_p10_f32 v6, v2, v0, v2
v_interp_p10_f32 v7, v3, v0, v3
v_interp_p2_f32 v6, v2, v1, v6
v_interp_p2_f32 v7, v3, v1, v7
image_sample v[8:11], v[6:7], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D
s_waitcnt vmcnt(0)
exp mrt0 v8, v9, v10, v11 done
s_endpgm
