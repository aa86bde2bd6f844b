; POPS order-independent transparency, programmable blending (gfx900, wave64): examples/pops-oit's
; pixel shader for GFX9. The same blend as ps.s; the ordered section is entered with the GFX9
; sequence of src/amd/gfx/pops-asm.ts (packer in MODE[25:24], the wraparound remap with GFX9's
; off-by-one correction, polling src_pops_exiting_wave_id with a finite s_sleep 3: GFX9 exits wake
; nobody) and left with ORDERED_PS_DONE after the counters (stores count on VM_CNT); then the
; colour export (the export POPS requires). Branch offsets are in dwords (the scene assembler
; takes no labels). s[0:1] storage address, s2 PRIM_MASK, s3 COLLISION_WAVEID; v0/v1
; PERSP_CENTER I/J, v2 SAMPLE_COVERAGE, v3 POS_FIXED_PT
s_mov_b64 s[6:7], s[0:1]                    ; the entering sequence uses s0-s4
s_mov_b32 m0, s2
s_mov_b32 s0, s3                            ; COLLISION_WAVEID
v_interp_mov_f32 v8, p0, attr0.x            ; flat input: the provoking colour
v_interp_mov_f32 v9, p0, attr0.y
v_interp_mov_f32 v10, p0, attr0.z
v_interp_mov_f32 v11, p0, attr0.w
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
v_cmp_ne_u32_e32 vcc, 0, v2
s_and_b64 exec, exec, vcc                ; covered lanes only (no helper lanes) from here
s_bitcmp1_b32 s0, 31                        ; enter: skip everything without overlap
s_cbranch_scc0 17
s_bfe_u32 s1, s0, 0x1001c                   ; packer ID [28]
s_lshl_b32 s1, 1, s1
s_setreg_b32 hwreg(HW_REG_MODE, 24, 2), s1  ; MODE[24] packer 0, MODE[25] packer 1
s_and_b32 s2, s0, 0x3ff                     ; current wave ID
s_bfe_u32 s3, s0, 0xa0010                   ; newest overlapped wave ID
s_cmp_gt_u32 s3, s2                         ; GFX9 off-by-one: +1 when behind the wraparound
s_addc_u32 s3, s3, 0
s_not_b32 s2, s2                            ; remap offset ~current
s_add_i32 s3, s3, s2
s_add_i32 s4, src_pops_exiting_wave_id, s2  ; wait until the exiting ID passes the newest overlapped
s_cmp_gt_u32 s4, s3
s_cbranch_scc1 2
s_sleep 3
s_branch -5
global_load_dword v14, v12, s[6:7] glc  ; first read of the ordered section: coherent
s_waitcnt vmcnt(0)
v_lshrrev_b32 v14, 1, v14
v_and_b32 v14, 0x7f7f7f7f, v14
v_add_u32 v14, v14, v8
global_store_dword v12, v14, s[6:7] glc ; last write: coherent
s_waitcnt vmcnt(0) lgkmcnt(0)               ; exit: the counters first (loads and stores)
s_sendmsg sendmsg(MSG_ORDERED_PS_DONE)
v_cvt_f32_ubyte0 v15, v14
v_cvt_f32_ubyte1 v16, v14
v_cvt_f32_ubyte2 v17, v14
v_cvt_f32_ubyte3 v18, v14
v_mul_f32 v15, 0x3b808081, v15              ; / 255
v_mul_f32 v16, 0x3b808081, v16
v_mul_f32 v17, 0x3b808081, v17
v_mul_f32 v18, 0x3b808081, v18
exp mrt0 v15, v16, v17, v18 done vm
s_endpgm
