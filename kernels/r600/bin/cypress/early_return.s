	.text
	.section	.AMDGPU.config,"",@progbits
	.long	166100
	.long	3
	.long	165900
	.long	0
	.long	166120
	.long	0
	.text
	.globl	early_return                    ; -- Begin function early_return
	.p2align	8
	.type	early_return,@function
early_return:                           ; @early_return
early_return$local:
	.type	early_return$local,@function
; %bb.0:
	ALU 5, @8, KC0[CB0:0-32], KC1[]
	TEX 0 @6
	ALU 10, @14, KC0[CB0:0-32], KC1[]
	MEM_RAT_CACHELESS STORE_RAW T0.X, T1.X, 1
	CF_END
	PAD
	Fetch clause starting at 6:
	  VTX_READ_32 T0.X, T0.X, 0, #1
	ALU clause starting at 8:
	  MULLO_INT * T0.Y, KC0[1].Z, T1.X,  
	  ADD_INT * T0.W, PS, T0.X,  
	  ADD_INT * T0.W, PV.W, KC0[3].X,  
	  LSHL * T0.W, PV.W, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
	  ADD_INT * T0.X, KC0[2].Z, PV.W,  
	ALU clause starting at 14:
	  SETGT_UINT   T1.W, T0.X, literal.x,  
	  LSHL * T2.W, T0.X, 1,  
	100(1.401298e-43), 0(0.000000e+00)
	  CNDE_INT   T1.W, PV.W, PS, literal.x, 
	  SETGT_INT * T2.W, 0.0, T0.X,  
	100(1.401298e-43), 0(0.000000e+00)
	  CNDE_INT   T0.X, PS, PV.W, literal.x, 
	  ADD_INT * T0.W, KC0[2].Y, T0.W,  
	-1(nan), 0(0.000000e+00)
	  LSHR * T1.X, PV.W, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
.Lfunc_end0:
	.size	early_return, .Lfunc_end0-early_return
	.size	early_return$local, .Lfunc_end0-early_return
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
