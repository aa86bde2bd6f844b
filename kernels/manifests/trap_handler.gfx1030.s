// trap_handler.s for gfx1030 (run-kernels-gen): GFX10 reads TMA through the privileged
// HW_REG_TMA_LO/HI hardware registers (GFX11 has s_sendmsg_rtn MSG_RTN_GET_TMA instead).
s_getreg_b32 ttmp2, hwreg(HW_REG_TMA_LO)
s_getreg_b32 ttmp3, hwreg(HW_REG_TMA_HI)
v_mov_b32 v0, 0
v_mov_b32 v1, 1
global_atomic_add v0, v1, ttmp[2:3]
s_waitcnt_vscnt null, 0
s_endpgm
