; POPS order-independent transparency, programmable blending (gfx1100, wave32).
; The ordered section read-modify-writes a per-pixel storage image (s[0:1], 48 x 48 RGBA8 dwords)
; with a non-commutative blend, dst = (dst >> 1 & 0x7f7f7f7f) + (src >> 1 & 0x7f7f7f7f) per byte,
; and exports the blended colour (the CB writes it unblended). DB_SHADER_CONTROL has
; PRIMITIVE_ORDERED_PIXEL_SHADER and OVERRIDE_INTRINSIC_RATE_ENABLE set (pixel interlock).
; s[0:1] storage address, s2 PRIM_MASK; v0/v1 PERSP_CENTER I/J, v2 SAMPLE_COVERAGE, v3 POS_FIXED_PT
s_wqm_b32 exec_lo, exec_lo                  ; whole quad mode for the interpolation (quad lanes hold P0/P10/P20)
s_mov_b32 m0, s2
lds_param_load v4, attr0.x
lds_param_load v5, attr0.y
lds_param_load v6, attr0.z
lds_param_load v7, attr0.w
s_waitcnt expcnt(0)
v_interp_p10_f32 v8, v4, v0, v4            ; flat input: P10 = P20 = 0, so this is the provoking colour
v_interp_p10_f32 v9, v5, v0, v5
v_interp_p10_f32 v10, v6, v0, v6
v_interp_p10_f32 v11, v7, v0, v7
v_interp_p2_f32 v8, v4, v1, v8
v_interp_p2_f32 v9, v5, v1, v9
v_interp_p2_f32 v10, v6, v1, v10
v_interp_p2_f32 v11, v7, v1, v11
v_mul_f32 v8, 0x437f0000, v8                ; * 255, truncated to bytes
v_mul_f32 v9, 0x437f0000, v9
v_mul_f32 v10, 0x437f0000, v10
v_mul_f32 v11, 0x437f0000, v11
v_cvt_u32_f32 v8, v8
v_cvt_u32_f32 v9, v9
v_cvt_u32_f32 v10, v10
v_cvt_u32_f32 v11, v11
v_lshl_or_b32 v8, v9, 8, v8
v_lshl_or_b32 v8, v10, 16, v8
v_lshl_or_b32 v8, v11, 24, v8               ; v8 = source RGBA8
v_lshrrev_b32 v8, 1, v8
v_and_b32 v8, 0x7f7f7f7f, v8
v_and_b32 v12, 0xffff, v3                   ; pixel x
v_lshrrev_b32 v13, 16, v3                   ; pixel y
v_mad_u32_u24 v12, v13, 48, v12
v_lshlrev_b32 v12, 2, v12                   ; byte offset of the pixel in the image
v_cmp_ne_u32_e32 vcc_lo, 0, v2
s_and_b32 exec_lo, exec_lo, vcc_lo          ; covered lanes only (no helper lanes) from here
s_wait_event 0x0                            ; enter: wait for export_ready (overlapped waves done)
global_load_b32 v14, v12, s[0:1] glc dlc    ; first read of the ordered section: coherent
s_waitcnt vmcnt(0)
v_lshrrev_b32 v14, 1, v14
v_and_b32 v14, 0x7f7f7f7f, v14
v_add_nc_u32 v14, v14, v8
global_store_b32 v12, v14, s[0:1] glc dlc   ; last write: coherent
s_waitcnt_vscnt null, 0x0                   ; the store lands before the release
v_cvt_f32_ubyte0 v15, v14
v_cvt_f32_ubyte1 v16, v14
v_cvt_f32_ubyte2 v17, v14
v_cvt_f32_ubyte3 v18, v14
v_mul_f32 v15, 0x3b808081, v15              ; / 255
v_mul_f32 v16, 0x3b808081, v16
v_mul_f32 v17, 0x3b808081, v17
v_mul_f32 v18, 0x3b808081, v18
exp mrt0 v15, v16, v17, v18 done            ; exit: the last export releases the overlapping waves
s_endpgm
