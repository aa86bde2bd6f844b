	.text
	.section	.AMDGPU.config,"",@progbits
	.long	166100
	.long	3
	.long	165900
	.long	0
	.long	166120
	.long	0
	.text
	.globl	atomic_cmpxchg_k                ; -- Begin function atomic_cmpxchg_k
	.p2align	8
	.type	atomic_cmpxchg_k,@function
atomic_cmpxchg_k:                       ; @atomic_cmpxchg_k
atomic_cmpxchg_k$local:
	.type	atomic_cmpxchg_k$local,@function
; %bb.0:
	ALU 5, @8, KC0[CB0:0-32], KC1[]
	TEX 0 @6
	ALU 3, @14, KC0[CB0:0-32], KC1[]
	MEM_RAT ATOMIC_CMPXCHG_INT T1, T2.X
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
	  ADD_INT   T1.X, T0.W, literal.x,  
	  ADD_INT * T2.X, KC0[2].Y, T1.W,  
	1000(1.401298e-42), 0(0.000000e+00)
	  MOV * T1.W, T0.X,  
.Lfunc_end0:
	.size	atomic_cmpxchg_k, .Lfunc_end0-atomic_cmpxchg_k
	.size	atomic_cmpxchg_k$local, .Lfunc_end0-atomic_cmpxchg_k
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
