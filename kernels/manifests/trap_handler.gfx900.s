// trap_handler.s for gfx900 (run-kernels-gen): TMA from HW_REG_TMA_LO/HI; GFX9 counts stores on vmcnt.
s_getreg_b32 ttmp2, hwreg(HW_REG_TMA_LO)
s_getreg_b32 ttmp3, hwreg(HW_REG_TMA_HI)
v_mov_b32 v0, 0
v_mov_b32 v1, 1
global_atomic_add v0, v1, ttmp[2:3]
s_waitcnt vmcnt(0)
s_endpgm
