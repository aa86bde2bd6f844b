	.text
	.section	.AMDGPU.config,"",@progbits
	.long	166100
	.long	2
	.long	165900
	.long	0
	.long	166120
	.long	0
	.text
	.globl	atomic_add_k                    ; -- Begin function atomic_add_k
	.p2align	8
	.type	atomic_add_k,@function
atomic_add_k:                           ; @atomic_add_k
atomic_add_k$local:
	.type	atomic_add_k$local,@function
; %bb.0:
	ALU 12, @8, KC0[CB0:0-32], KC1[]
	TEX 0 @6
	ALU 0, @21, KC0[CB0:0-32], KC1[]
	MEM_RAT ATOMIC_ADD T0, T1.X
	CF_END
	PAD
	Fetch clause starting at 6:
	  VTX_READ_32 T0.X, T0.X, 0, #1
	ALU clause starting at 8:
	  LSHL * T0.W, T0.X, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
	  MULLO_INT   T0.X, KC0[1].Z, T1.X,  
	  MULLO_INT   T0.Y (MASKED), KC0[1].Z, T1.X,  
	  MULLO_INT   T0.Z (MASKED), KC0[1].Z, T1.X,  
	  MULLO_INT * T0.W (MASKED), KC0[1].Z, T1.X,  
	  LSHL   T0.Z, PV.X, literal.x,  
	  ADD_INT * T0.W, KC0[2].Z, T0.W,  
	2(2.802597e-45), 0(0.000000e+00)
	  ADD_INT   T0.Z, PV.W, PV.Z,  
	  LSHL * T0.W, KC0[3].X, literal.x,  
	2(2.802597e-45), 0(0.000000e+00)
	  ADD_INT * T0.X, PV.Z, PV.W,  
	ALU clause starting at 21:
	  MOV * T1.X, KC0[2].Y,  
.Lfunc_end0:
	.size	atomic_add_k, .Lfunc_end0-atomic_add_k
	.size	atomic_add_k$local, .Lfunc_end0-atomic_add_k
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
