	.text
	.section	.AMDGPU.config,"",@progbits
	.long	166100
	.long	4
	.long	165900
	.long	0
	.long	166120
	.long	0
	.text
	.globl	helper_call                     ; -- Begin function helper_call
	.p2align	8
	.type	helper_call,@function
helper_call:                            ; @helper_call
helper_call$local:
	.type	helper_call$local,@function
; %bb.0:
	ALU 5, @8, KC0[CB0:0-32], KC1[]
	TEX 0 @6
	ALU 14, @14, KC0[CB0:0-32], KC1[]
	MEM_RAT_CACHELESS STORE_RAW T0.X, T1.X, 1
	CF_END
	PAD
	Fetch clause starting at 6:
	  VTX_READ_32 T0.X, T0.X, 0, #1
	ALU clause starting at 8:
	  MULLO_INT * T0.Y, KC0[1].Z, T1.X,  
	  ADD_INT * T0.W, PS, T0.X,  
	  ADD_INT * T0.W, PV.W, KC0[3].X,  
	  LSHL * T1.W, PV.W, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
	  ADD_INT * T0.X, KC0[2].Z, PV.W,  
	ALU clause starting at 14:
	  MULLO_INT * T0.Y, T0.X, literal.x,  
	3(4.203895e-45), 0(0.000000e+00)
	  ADD_INT   T2.W, PS, literal.x,  
	  MULLO_INT * T0.Y, T0.W, literal.y,  
	2(2.802597e-45), 3(4.203895e-45)
	  ADD_INT   T3.W, PS, literal.x,  
	  MULLO_INT * T0.X, PV.W, T0.X,  
	2(2.802597e-45), 0(0.000000e+00)
	  MULLO_INT * T0.Y, PV.W, T0.W,  
	  ADD_INT * T0.W, PS, T0.X,  
	  ADD_INT   T0.X, PV.W, literal.x,  
	  ADD_INT * T0.W, KC0[2].Y, T1.W,  
	-14(nan), 0(0.000000e+00)
	  LSHR * T1.X, PV.W, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
.Lfunc_end0:
	.size	helper_call, .Lfunc_end0-helper_call
	.size	helper_call$local, .Lfunc_end0-helper_call
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
