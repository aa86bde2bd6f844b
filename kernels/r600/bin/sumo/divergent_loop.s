	.text
	.section	.AMDGPU.config,"",@progbits
	.long	166100
	.long	5
	.long	165900
	.long	0
	.long	166120
	.long	0
	.text
	.globl	divergent_loop                  ; -- Begin function divergent_loop
	.p2align	8
	.type	divergent_loop,@function
divergent_loop:                         ; @divergent_loop
divergent_loop$local:
	.type	divergent_loop$local,@function
; %bb.0:
	ALU 30, @4, KC0[CB0:0-32], KC1[]
	MEM_RAT_CACHELESS STORE_RAW T0.X, T1.X, 1
	CF_END
	PAD
	ALU clause starting at 4:
	  MULLO_INT * T0.Y, KC0[1].Z, T1.X,  
	  ADD_INT * T0.W, PS, T0.X,  
	  ADD_INT * T0.W, PV.W, KC0[2].W,  
	  AND_INT * T2.W, PV.W, literal.x,  
	15(2.101948e-44), 0(0.000000e+00)
	  MOV   T0.X, literal.x,  
	  MOV   T1.W, KC0[2].Y,  
	  SETE_INT * T3.W, PV.W, 0.0,  
	0(0.000000e+00), 0(0.000000e+00)
	  PRED_SETNE_INT * Pred,PredicateBit (MASKED), PS, 0.0,  
	  ADD_INT   T3.W, T2.W, literal.x, Pred_sel_zero 
	  ADD_INT * T4.W, T2.W, literal.y, Pred_sel_zero 
	-2(nan), -1(nan)
	  ADD_INT   T2.W, T2.W, literal.x, Pred_sel_zero 
	  MULLO_INT * T0.X, T4.W, T3.W, Pred_sel_zero 
	-3(nan), 0(0.000000e+00)
	  MULLO_INT * T0.Y, T0.X, T2.W, Pred_sel_zero 
	  LSHR   T2.W, T0.Y, 1, Pred_sel_zero 
	  MULHI * T0.Y, T4.W, T3.W, Pred_sel_zero 
	  BIT_ALIGN_INT   T3.W, T0.Y, T0.X, 1, Pred_sel_zero
	  MULLO_INT * T0.X, T2.W, literal.x, Pred_sel_zero 
	1431655766(1.466016e+13), 0(0.000000e+00)
	  MULLO_INT * T0.Y, T3.W, literal.x, Pred_sel_zero 
	3(4.203895e-45), 0(0.000000e+00)
	  ADD_INT * T2.W, T0.X, T0.Y, Pred_sel_zero 
	  ADD_INT * T0.X, T4.W, T2.W, Pred_sel_zero 
	  LSHL * T0.W, T0.W, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
	  ADD_INT * T0.W, T1.W, PV.W,  
	  LSHR * T1.X, PV.W, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
.Lfunc_end0:
	.size	divergent_loop, .Lfunc_end0-divergent_loop
	.size	divergent_loop$local, .Lfunc_end0-divergent_loop
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
	;SQ_PGM_RESOURCES:STACK_SIZE = 0
	.hidden	__oclc_ABI_version              ; @__oclc_ABI_version
	.type	__oclc_ABI_version,@object
	.text
	.weak	__oclc_ABI_version
	.p2align	2
__oclc_ABI_version:
	.long	500                             ; 0x1f4
	.size	__oclc_ABI_version, 4

	.ident	"Debian clang version 19.1.7 (3~deb12u1)"
	.section	".note.GNU-stack","",@progbits
	.addrsig
